import { parseTimeseries } from './yahoo-timeseries.schema';
import { shapeErrorOf, vendorFixture } from '../../../test/support/vendor-fixtures';

const recorded = (): any => vendorFixture('yahoo', 'fundamentalsTimeSeries.AAPL.financials-annual.json');

describe(parseTimeseries.name, () => {
  it('reads one series per requested type, in the body’s order', () => {
    const series = parseTimeseries(recorded());
    expect(series).toHaveLength(140);
    expect(series[0].type).toBe('annualNetIncomeContinuousOperations');
    expect(series.filter((entry) => entry.points.length > 0)).toHaveLength(39);
  });

  it('reads each point’s date, period, currency and value as a decimal string', () => {
    const revenue = parseTimeseries(recorded()).find((entry) => entry.type === 'annualTotalRevenue');
    expect(revenue?.points).toEqual([
      { asOfDate: '2022-09-30', periodType: '12M', currency: 'USD', value: '394328000000' },
      { asOfDate: '2023-09-30', periodType: '12M', currency: 'USD', value: '383285000000' },
      { asOfDate: '2024-09-30', periodType: '12M', currency: 'USD', value: '391035000000' },
    ]);
    const eps = parseTimeseries(recorded()).find((entry) => entry.type === 'annualDilutedEPS');
    expect(eps?.points.map((point) => point.value)).toEqual(['6.11', '6.13', '6.08']);
  });

  it('gives no points for a type Yahoo sends with meta only', () => {
    const empty = parseTimeseries(recorded()).find((entry) => entry.type === 'annualGainOnSaleOfSecurity');
    expect(empty).toEqual({ type: 'annualGainOnSaleOfSecurity', points: [] });
  });

  it('skips null padding and points without a value or date', () => {
    const body = {
      timeseries: {
        result: [
          {
            meta: { symbol: ['0700.HK'], type: ['quarterlyNetIncome'] },
            timestamp: [1, 2, 3, 4],
            quarterlyNetIncome: [
              null,
              { asOfDate: '2025-03-31', periodType: '3M', currencyCode: 'CNY', reportedValue: { raw: 4.7e10, fmt: '47.00B' } },
              { asOfDate: '2025-06-30', periodType: '3M', currencyCode: 'CNY', reportedValue: {} },
              { periodType: '3M', reportedValue: { raw: 1 } },
            ],
          },
        ],
        error: null,
      },
    };
    expect(parseTimeseries(body)).toEqual([
      { type: 'quarterlyNetIncome', points: [{ asOfDate: '2025-03-31', periodType: '3M', currency: 'CNY', value: '47000000000' }] },
    ]);
  });

  it('gives no series for an empty result', () => {
    expect(parseTimeseries({ timeseries: { result: null, error: null } })).toEqual([]);
  });

  it('refuses an entry without meta.type as a shape error', () => {
    const body = { timeseries: { result: [{ meta: { symbol: ['AAPL'] } }], error: null } };
    expect(shapeErrorOf(() => parseTimeseries(body)).message).toContain('timeseries.timeseries.result[0].meta.type[0]');
  });
});
