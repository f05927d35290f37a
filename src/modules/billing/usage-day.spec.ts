import { addDays, dayStartMs, utcDayOf, UtcDayCache } from './usage-day';

describe(UtcDayCache.name, () => {
  it('names the UTC day of an instant, up to its last millisecond', () => {
    const sut = new UtcDayCache();

    expect(sut.of(Date.UTC(2027, 0, 15, 0, 0, 0, 0))).toBe('2027-01-15');
    expect(sut.of(Date.UTC(2027, 0, 15, 23, 59, 59, 999))).toBe('2027-01-15');
    expect(sut.of(Date.UTC(2027, 0, 16, 0, 0, 0, 0))).toBe('2027-01-16');
    expect(sut.of(Date.UTC(2027, 0, 15, 23, 59, 59, 900))).toBe('2027-01-15');
  });

  it('hands out the same string all day rather than a new one per call', () => {
    const sut = new UtcDayCache();
    const first = sut.of(Date.UTC(2027, 0, 15, 8));

    expect(Object.is(sut.of(Date.UTC(2027, 0, 15, 20)), first)).toBe(true);
  });
});

describe('UTC days', () => {
  it('counts days across months, leap days and years', () => {
    expect(addDays('2027-01-31', 1)).toBe('2027-02-01');
    expect(addDays('2028-03-01', -1)).toBe('2028-02-29');
    expect(addDays('2027-01-01', -1)).toBe('2026-12-31');
    expect(addDays('2027-01-15', -89)).toBe('2026-10-18');
  });

  it('starts a day at midnight UTC', () => {
    expect(dayStartMs('2027-01-15')).toBe(Date.UTC(2027, 0, 15));
    expect(utcDayOf(dayStartMs('2027-01-15') - 1)).toBe('2027-01-14');
  });
});
