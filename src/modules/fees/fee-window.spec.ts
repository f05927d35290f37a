import { AppError } from '../../common/errors/app-error';
import { feeWindow } from './fee-window';

const DAY = 86_400_000;
const now = new Date('2026-11-28T12:00:00Z');

describe(feeWindow.name, () => {
  it('defaults to the last 31 days, and fills the missing side 31 days away', () => {
    expect(feeWindow({}, now)).toEqual({ start: new Date(now.getTime() - 31 * DAY), end: now });
    expect(feeWindow({ endTime: '2026-10-01T00:00:00Z' }, now)).toEqual({ start: new Date('2026-08-31T00:00:00Z'), end: new Date('2026-10-01T00:00:00Z') });
    expect(feeWindow({ startTime: '2026-10-01' }, now).end).toEqual(new Date('2026-11-01T00:00:00Z'));
    // A start less than 31 days ago ends now, not in the future.
    expect(feeWindow({ startTime: '2026-11-20' }, now).end).toEqual(now);
  });

  it('takes exactly 31 days, and refuses a wider window or an end before the start, naming endTime', () => {
    const start = Date.parse('2026-10-01T00:00:00Z');
    expect(feeWindow({ startTime: String(start), endTime: String(start + 31 * DAY) }, now).end.getTime()).toBe(start + 31 * DAY);
    for (const endTime of [String(start + 31 * DAY + 1), String(start - 1)]) {
      let error: unknown;
      try {
        feeWindow({ startTime: String(start), endTime }, now);
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).message).toMatch(/^endTime: /);
    }
  });
});
