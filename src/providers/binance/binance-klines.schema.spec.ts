import { UpstreamError } from '../kit/upstream.error';
import { parseKlines } from './binance-klines.schema';
import { vendorFixture } from '../../../test/support/vendor-fixtures';

const fixture = (name: string): unknown => vendorFixture('binance', name);

/**
 * The one recorded body is a single USDⓈ-M futures row (same layout as spot). No multi-row spot body with
 * provenance exists, so series behaviour is checked on rows written out by hand: the first is the example
 * row of Binance's spot API docs.
 */
const DOCS_ROW = [
  1499040000000,
  '0.01634790',
  '0.80000000',
  '0.01575800',
  '0.01577100',
  '148976.11427815',
  1499644799999,
  '2434.19055334',
  308,
  '1756.87402397',
  '28.46694368',
  '0',
];
const NEXT_HOUR_ROW = [1499043600000, '0.01577100', '0.01600000', '0.01500000', '0.01590000', '0', 1499047199999, '0', 0, '0', '0', '0'];

describe(parseKlines.name, () => {
  it('reads the recorded futures row as one candle with trimmed decimals and its volume', () => {
    expect(parseKlines(fixture('fapi-klines.HK0700USDT.1m.limit-1.json'))).toEqual([
      { openTime: '2026-07-22T07:54:00.000Z', open: '440.69', high: '441.41', low: '440.58', close: '441.41', volume: '0.35' },
    ]);
  });

  it('reads hand-checked rows in order, a zero volume included', () => {
    expect(parseKlines([DOCS_ROW, NEXT_HOUR_ROW])).toEqual([
      { openTime: '2017-07-03T00:00:00.000Z', open: '0.0163479', high: '0.8', low: '0.015758', close: '0.015771', volume: '148976.11427815' },
      { openTime: '2017-07-03T01:00:00.000Z', open: '0.015771', high: '0.016', low: '0.015', close: '0.0159', volume: '0' },
    ]);
  });

  it('returns no rows as no candles', () => {
    expect(parseKlines([])).toEqual([]);
  });

  it('accepts a row with only the six columns it reads, and refuses a shorter one', () => {
    expect(parseKlines([DOCS_ROW.slice(0, 6)])).toHaveLength(1);
    expect(() => parseKlines([DOCS_ROW.slice(0, 5)])).toThrow('binance: klines[0]: expected at least 6 elements, got 5');
  });

  it('refuses a price sent as a number, naming the cell', () => {
    const row = [...DOCS_ROW];
    row[2] = 0.8;
    expect(() => parseKlines([row])).toThrow(
      new UpstreamError({ provider: 'binance', kind: 'shape', message: 'klines[0][2]: expected decimal string, got number' }),
    );
  });

  it('refuses rows out of order or repeated', () => {
    expect(() => parseKlines([NEXT_HOUR_ROW, DOCS_ROW])).toThrow('binance: klines[1][0]: expected open times strictly ascending');
    expect(() => parseKlines([DOCS_ROW, DOCS_ROW])).toThrow(UpstreamError);
  });

  it('refuses an error object in place of the rows', () => {
    expect(() => parseKlines({ code: -1121, msg: 'Invalid symbol.' })).toThrow('binance: klines: expected array, got object');
  });
});
