import { parseTimeParam } from './time-param.decorator';

describe(parseTimeParam.name, () => {
  it('reads Unix milliseconds and ISO-8601 with a zone, a bare date as midnight UTC', () => {
    expect(parseTimeParam('1767225600000')?.toISOString()).toBe('2026-01-01T00:00:00.000Z');
    expect(parseTimeParam('2026-01-01T02:00:00+02:00')?.toISOString()).toBe('2026-01-01T00:00:00.000Z');
    expect(parseTimeParam('2026-01-01T00:00:00.5Z')?.toISOString()).toBe('2026-01-01T00:00:00.500Z');
    expect(parseTimeParam('2026-01-01')?.toISOString()).toBe('2026-01-01T00:00:00.000Z');
  });

  it('names no instant for a local time, junk, a negative, a fraction or an impossible date', () => {
    for (const value of ['2026-01-01T00:00:00', 'yesterday', '-1', '1.5', '2026-02-30T00:00:00Z', '2026-13-01', '', '1e12', undefined]) {
      expect({ value, parsed: parseTimeParam(value) }).toEqual({ value, parsed: undefined });
    }
  });
});
