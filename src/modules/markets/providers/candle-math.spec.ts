import { Candle } from '../../../providers/market-data-provider';
import { INTERVAL_MS, mergeCandles, percentChange, pricesAgree } from './candle-math';

function bar(openTime: string, open: string, high: string, low: string, close: string): Candle {
  return { openTime, open, high, low, close, volume: null };
}

describe(mergeCandles.name, () => {
  it('merges 30-minute bars into hours and drops an hour missing its first half', () => {
    const sut = mergeCandles(
      [
        bar('2026-01-01T00:30:00.000Z', '9', '9', '9', '9'),
        bar('2026-01-01T01:30:00.000Z', '11', '12.5', '10', '12'),
        bar('2026-01-01T01:00:00.000Z', '10', '11', '9.5', '11'),
        bar('2026-01-01T02:00:00.000Z', '12', '13', '12', '13'),
      ],
      INTERVAL_MS.H1,
    );
    expect(sut).toEqual([bar('2026-01-01T01:00:00.000Z', '10', '12.5', '9.5', '12'), bar('2026-01-01T02:00:00.000Z', '12', '13', '12', '13')]);
  });

  it('writes tiny prices without exponent', () => {
    const [day] = mergeCandles([bar('2026-01-01T00:00:00.000Z', '0.00000001', '0.00000002', '0.000000005', '0.00000001')], INTERVAL_MS.D1);
    expect(day).toMatchObject({ high: '0.00000002', low: '0.000000005' });
  });
});

describe(percentChange.name, () => {
  it('gives percent as a plain decimal, null without a base', () => {
    expect(percentChange('200', '210')).toBe('5');
    expect(percentChange('3', '2')).toBe('-33.33333333');
    expect(percentChange(null, '2')).toBeNull();
    expect(percentChange('0', '2')).toBeNull();
  });
});

describe(pricesAgree.name, () => {
  it('compares within a fraction of the reference', () => {
    expect(pricesAgree('104', '100', 0.05)).toBe(true);
    expect(pricesAgree('106', '100', 0.05)).toBe(false);
  });
});
