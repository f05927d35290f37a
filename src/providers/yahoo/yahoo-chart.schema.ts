import { Candle } from '../market-data-provider';
import { Fields } from '../kit/schema-reader';
import { barPriceOrNull, decimalOrNull, isoFromSeconds, textOrNull, throwOnBodyError, yahooReader } from './yahoo-values';

/** One symbol's closes from `/v7/finance/spark`, oldest first, for sparklines and 7-day changes. */
export interface SparkSeries {
  symbol: string;
  closes: { at: string; close: string }[];
  /** The close before the first point, when Yahoo gives it. */
  previousClose: string | null;
}

/**
 * `{chart: {result: [{meta, timestamp, indicators: {quote: [{open, high, low, close, volume}]}}], error}}`
 * as candles ascending by openTime. Bars where any value is null (a halt, an unfinished bar) are skipped;
 * a range with no trading (a weekend) has no `timestamp` and gives no candles. Volume 0 is kept.
 */
export function parseChart(json: unknown, label = 'chart'): Candle[] {
  const chart = yahooReader.asObject(json, label).object('chart');
  throwOnBodyError(chart, label);
  const results = chart.has('result') ? yahooReader.asArray(chart.raw.result, chart.at('result')) : [];
  if (results.length === 0) return [];
  const result = yahooReader.asObject(results[0], `${chart.at('result')}[0]`);
  const times = timestampsOf(result);
  if (times.length === 0) return [];
  const quote = firstQuoteOf(result);
  const [open, high, low, close, volume] = ['open', 'high', 'low', 'close', 'volume'].map((key) => seriesOf(quote, key));
  const candles: Candle[] = [];
  times.forEach((time, i) => {
    const candle = {
      openTime: isoFromSeconds(time),
      open: barPriceOrNull(open[i]),
      high: barPriceOrNull(high[i]),
      low: barPriceOrNull(low[i]),
      close: barPriceOrNull(close[i]),
      volume: decimalOrNull(volume[i]),
    };
    if (isComplete(candle)) candles.push(candle);
  });
  return candles.sort((a, b) => a.openTime.localeCompare(b.openTime));
}

/**
 * Spark comes in two shapes: the current one keyed by symbol (`{"0700.HK": {symbol, timestamp, close,
 * chartPreviousClose}}`) and the older `{spark: {result: [{symbol, response: [<chart result>]}]}}`.
 * Both are read; null closes are skipped. Symbols Yahoo does not know are absent.
 */
export function parseSpark(json: unknown, label = 'spark'): SparkSeries[] {
  const body = yahooReader.asObject(json, label);
  if (body.has('finance')) throwOnBodyError(body.object('finance'), label);
  if (body.has('spark')) return parseLegacySpark(body.object('spark'), label);
  return Object.keys(body.raw).map((key) => {
    const entry = body.object(key);
    const symbol = textOrNull(entry.raw.symbol) ?? key;
    return seriesFrom(symbol, timestampsOf(entry), seriesOf(entry, 'close'), entry.raw.chartPreviousClose);
  });
}

function isComplete(candle: { [K in keyof Candle]: string | null }): candle is Candle {
  return Object.values(candle).every((value) => value !== null);
}

function parseLegacySpark(spark: Fields, label: string): SparkSeries[] {
  throwOnBodyError(spark, label);
  if (!spark.has('result')) return [];
  return spark.array('result', (item, path) => {
    const entry = yahooReader.asObject(item, path);
    const symbol = entry.string('symbol');
    const responses = entry.has('response') ? yahooReader.asArray(entry.raw.response, entry.at('response')) : [];
    if (responses.length === 0) return { symbol, closes: [], previousClose: null };
    const result = yahooReader.asObject(responses[0], `${entry.at('response')}[0]`);
    const meta = result.has('meta') ? result.object('meta').raw : {};
    return seriesFrom(symbol, timestampsOf(result), seriesOf(firstQuoteOf(result), 'close'), meta.chartPreviousClose);
  });
}

function seriesFrom(symbol: string, times: unknown[], closes: unknown[], previousClose: unknown): SparkSeries {
  const points: SparkSeries['closes'] = [];
  times.forEach((time, i) => {
    const at = isoFromSeconds(time);
    const close = barPriceOrNull(closes[i]);
    if (at !== null && close !== null) points.push({ at, close });
  });
  return { symbol, closes: points.sort((a, b) => a.at.localeCompare(b.at)), previousClose: decimalOrNull(previousClose) };
}

function timestampsOf(result: Fields): unknown[] {
  return result.has('timestamp') ? yahooReader.asArray(result.raw.timestamp, result.at('timestamp')) : [];
}

/** `indicators.quote[0]`, or an empty object when the range has no bars (`quote: [{}]`, or nothing). */
function firstQuoteOf(result: Fields): Fields {
  const empty = yahooReader.asObject({}, result.at('indicators'));
  if (!result.has('indicators')) return empty;
  const indicators = result.object('indicators');
  const quotes = indicators.has('quote') ? yahooReader.asArray(indicators.raw.quote, indicators.at('quote')) : [];
  return quotes.length === 0 ? empty : yahooReader.asObject(quotes[0], `${indicators.at('quote')}[0]`);
}

/** A missing series reads as all-null, so its bars are skipped rather than failing the chart. */
function seriesOf(fields: Fields, key: string): unknown[] {
  return fields.has(key) ? yahooReader.asArray(fields.raw[key], fields.at(key)) : [];
}
