import { formatDecimal, nextReset, sumDecimals } from './format';

describe('portal number and date formatting', () => {
  it('sums credit strings exactly, whatever their scales', () => {
    expect(sumDecimals(['0.1', '0.2'])).toBe('0.3');
    expect(sumDecimals(['10000000', '0.000001', '2.5'])).toBe('10000002.500001');
    expect(sumDecimals(['1.50', '-0.5'])).toBe('1');
    expect(sumDecimals([])).toBe('0');
  });

  it('groups thousands on the string itself', () => {
    expect(formatDecimal('10000000.25')).toBe('10,000,000.25');
    expect(formatDecimal('999')).toBe('999');
  });

  it("finds the next reset on the anchor's day of the month, clamped to short months", () => {
    const anchor = '2026-01-31T10:00:00.000Z';
    expect(nextReset(anchor, new Date('2026-02-10T00:00:00Z'))?.toISOString()).toBe('2026-02-28T10:00:00.000Z');
    expect(nextReset(anchor, new Date('2026-02-28T10:00:00Z'))?.toISOString()).toBe('2026-03-31T10:00:00.000Z');
    expect(nextReset(anchor, new Date('2025-12-01T00:00:00Z'))?.toISOString()).toBe(anchor);
    expect(nextReset('not a date')).toBeUndefined();
  });
});
