import { addMonthsUtc, periodAt, periodIndexAt } from './credit-period';

const utc = (iso: string) => new Date(`${iso}Z`);

describe(addMonthsUtc.name, () => {
  const sut = addMonthsUtc;

  it('clamps a Jan 31 anchor to Feb 28 in a common year', () => {
    expect(sut(utc('2027-01-31T10:30:00.000'), 1)).toEqual(utc('2027-02-28T10:30:00.000'));
  });

  it('clamps a Jan 31 anchor to Feb 29 in a leap year', () => {
    expect(sut(utc('2028-01-31T10:30:00.000'), 1)).toEqual(utc('2028-02-29T10:30:00.000'));
  });

  it('goes back to the anchor day once the month is long enough (Mar 31)', () => {
    expect(sut(utc('2027-01-31T10:30:00.000'), 2)).toEqual(utc('2027-03-31T10:30:00.000'));
  });

  it('clamps a 31st to the 30th in a 30-day month', () => {
    expect(sut(utc('2027-03-31T00:00:00.000'), 1)).toEqual(utc('2027-04-30T00:00:00.000'));
  });

  it('rolls over the year and keeps the time of day to the millisecond', () => {
    expect(sut(utc('2027-11-30T23:59:59.999'), 3)).toEqual(utc('2028-02-29T23:59:59.999'));
    expect(sut(utc('2027-05-15T08:00:00.000'), 12)).toEqual(utc('2028-05-15T08:00:00.000'));
  });

  it('returns the anchor itself for zero months', () => {
    expect(sut(utc('2027-01-31T10:30:00.000'), 0)).toEqual(utc('2027-01-31T10:30:00.000'));
  });
});

describe(periodIndexAt.name, () => {
  const sut = periodIndexAt;
  const anchor = utc('2027-01-31T10:00:00.000');

  it('is 0 at the anchor and throughout the first month', () => {
    expect(sut(anchor, anchor)).toBe(0);
    expect(sut(anchor, utc('2027-02-15T00:00:00.000'))).toBe(0);
    expect(sut(anchor, utc('2027-02-28T09:59:59.999'))).toBe(0);
  });

  it('is exactly 1 at anchor + 1 month', () => {
    expect(sut(anchor, addMonthsUtc(anchor, 1))).toBe(1);
    expect(sut(anchor, utc('2027-02-28T10:00:00.000'))).toBe(1);
  });

  it('stays 1 until the clamped period ends on Mar 31', () => {
    expect(sut(anchor, utc('2027-03-30T23:59:59.999'))).toBe(1);
    expect(sut(anchor, utc('2027-03-31T09:59:59.999'))).toBe(1);
    expect(sut(anchor, utc('2027-03-31T10:00:00.000'))).toBe(2);
  });

  it('is 0 for a time before the anchor', () => {
    expect(sut(anchor, new Date(anchor.getTime() - 1))).toBe(0);
    expect(sut(anchor, utc('2026-06-01T00:00:00.000'))).toBe(0);
  });

  it('counts whole periods across years', () => {
    expect(sut(anchor, addMonthsUtc(anchor, 25))).toBe(25);
    expect(sut(anchor, new Date(addMonthsUtc(anchor, 25).getTime() - 1))).toBe(24);
  });
});

describe(periodAt.name, () => {
  const sut = periodAt;
  const anchor = utc('2027-01-31T10:00:00.000');

  it.each([
    '2027-01-31T10:00:00.000',
    '2027-02-28T09:59:59.999',
    '2027-02-28T10:00:00.000',
    '2027-03-15T00:00:00.000',
    '2028-02-29T12:00:00.000',
    '2029-12-31T23:59:59.999',
  ])('brackets %s with start <= now < end', (iso) => {
    const now = utc(iso);

    const { index, start, end } = sut(anchor, now);

    expect(start.getTime()).toBeLessThanOrEqual(now.getTime());
    expect(end.getTime()).toBeGreaterThan(now.getTime());
    expect(start).toEqual(addMonthsUtc(anchor, index));
    expect(end).toEqual(addMonthsUtc(anchor, index + 1));
  });

  it('describes the clamped February period of a Jan 31 anchor', () => {
    expect(sut(anchor, utc('2027-03-01T00:00:00.000'))).toEqual({
      index: 1,
      start: utc('2027-02-28T10:00:00.000'),
      end: utc('2027-03-31T10:00:00.000'),
    });
  });
});
