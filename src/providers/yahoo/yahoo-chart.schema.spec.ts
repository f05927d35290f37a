import { parseChart, parseSpark } from './yahoo-chart.schema';
import { barPriceOrNull } from './yahoo-values';
import { vendorFixture } from '../../../test/support/vendor-fixtures';

/** The recorded Yahoo bodies, in shared/ beside the repository. */
const fixture = (name: string): any => vendorFixture('yahoo', name);

describe(parseChart.name, () => {
  it('reads Tencent (0700.HK) hourly bars, the zero-volume bar included', () => {
    const candles = parseChart(fixture('chart.0700.HK.1h.5d.json'));
    expect(candles).toHaveLength(35);
    expect(candles[0]).toEqual({ openTime: '2026-09-18T01:30:00.000Z', open: '428.4', high: '430.4', low: '425.4', close: '425.6', volume: '4378227' });
    expect(candles[27]).toEqual({ openTime: '2026-09-23T07:30:00.000Z', open: '441.2', high: '441.6', low: '440.2', close: '441', volume: '0' });
    expect(candles[34]).toMatchObject({ openTime: '2026-09-24T07:30:00.000Z', close: '438.4', volume: '2442448' });
  });

  it('reads AAPL daily bars ascending', () => {
    const candles = parseChart(fixture('chart.AAPL.1d.2020-08-31_2020-11-07.json'));
    expect(candles).toHaveLength(49);
    expect(candles[0]).toEqual({ openTime: '2020-08-31T13:30:00.000Z', open: '127.58', high: '131', low: '126', close: '129.04', volume: '225702700' });
    expect(candles.map((c) => c.openTime)).toEqual([...candles.map((c) => c.openTime)].sort());
  });

  it('reads a currency (EURUSD=X) with its zero volumes', () => {
    const candles = parseChart(fixture('chart.EURUSD=X.1d.json'));
    expect(candles).toEqual([
      { openTime: '2020-01-01T00:00:00.000Z', open: '1.1220826', high: '1.1228385', low: '1.1159469', close: '1.1220826', volume: '0' },
      { openTime: '2020-01-02T00:00:00.000Z', open: '1.1218938', high: '1.1227125', low: '1.116682', close: '1.1220826', volume: '0' },
      { openTime: '2020-01-03T00:00:00.000Z', open: '1.1170813', high: '1.118068', low: '1.1125698', close: '1.1171438', volume: '0' },
    ]);
  });

  it('reads gold futures (GC=F)', () => {
    expect(parseChart(fixture('chart.GC=F.1d.json'))).toEqual([
      { openTime: '2020-01-02T05:00:00.000Z', open: '1518.1', high: '1528.7', low: '1518', close: '1524.5', volume: '214' },
    ]);
  });

  it('gives no candles for a weekend range (meta only, quote: [{}])', () => {
    expect(parseChart(fixture('chart.AAPL.1m.empty-weekend.json'))).toEqual([]);
  });

  it('skips a bar where any value is null', () => {
    const body = fixture('chart.GC=F.1d.json');
    const result = body.chart.result[0];
    result.timestamp = [1577941200, 1578027600, 1578114000];
    result.indicators.quote[0] = { open: [1, 2, 3], high: [1, 2, 3], low: [1, null, 3], close: [1, 2, 3], volume: [5, 6, null] };
    expect(parseChart(body).map((c) => c.close)).toEqual(['1']);
  });
});

describe(parseSpark.name, () => {
  it('reads the per-symbol spark body (0700.HK, TCEHY, HKD=X)', () => {
    const series = parseSpark(fixture('spark.0700.HK+TCEHY+HKD=X.json'));
    expect(series.map((s) => s.symbol)).toEqual(['HKD=X', 'TCEHY', '0700.HK']);
    const tencent = series[2];
    expect(tencent.previousClose).toBe('426');
    expect(tencent.closes.map((p) => p.close)).toEqual(['419', '430', '451.6', '441', '438.4']);
    expect(tencent.closes[0].at).toBe('2026-09-18T01:30:00.000Z');
    expect(series[0].closes.map((p) => p.close)).toEqual(['7.8459', '7.8447', '7.8448', '7.8426', '7.842']);
  });

  it('reads the older spark shape too', () => {
    const chartResult = fixture('chart.GC=F.1d.json').chart.result[0];
    const body = { spark: { result: [{ symbol: 'GC=F', response: [chartResult] }], error: null } };
    expect(parseSpark(body)).toEqual([{ symbol: 'GC=F', closes: [{ at: '2020-01-02T05:00:00.000Z', close: '1524.5' }], previousClose: '1519.5' }]);
  });
});

describe(barPriceOrNull.name, () => {
  it('prints a widened float32 as the price Yahoo recorded, and other numbers as they are', () => {
    expect(barPriceOrNull(425.6000061035156)).toBe('425.6');
    expect(barPriceOrNull(7.8459)).toBe('7.8459');
    expect(barPriceOrNull(1e-7)).toBe('0.0000001');
    expect(barPriceOrNull({})).toBeNull();
  });
});
