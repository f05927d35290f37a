import { dateOrNull } from './yahoo-dates';
import { decimalOrNull, textOrNull, throwOnBodyError, yahooReader } from './yahoo-values';

/** One reported figure of a fundamentals time series. */
export interface YahooTimeseriesPoint {
  /** YYYY-MM-DD end of the period. */
  asOfDate: string;
  /** `12M` (annual), `3M` (quarterly), `TTM`. */
  periodType: string | null;
  currency: string | null;
  value: string;
}

/** One requested type (`annualTotalRevenue`), its points as Yahoo orders them (oldest first). */
export interface YahooTimeseries {
  type: string;
  points: YahooTimeseriesPoint[];
}

/**
 * `{timeseries: {result: [{meta: {symbol: [..], type: [<type>]}, timestamp, <type>: [{asOfDate, periodType,
 * currencyCode, reportedValue: {raw, fmt}}]}], error}}`. A type Yahoo has no figures for comes with `meta`
 * only; null points (Yahoo pads gaps with them) and points without a value or date are left out.
 */
export function parseTimeseries(json: unknown, label = 'timeseries'): YahooTimeseries[] {
  const body = yahooReader.asObject(json, label);
  if (body.has('finance')) throwOnBodyError(body.object('finance'), label);
  const timeseries = body.object('timeseries');
  throwOnBodyError(timeseries, label);
  if (!timeseries.has('result')) return [];
  return timeseries.array('result', (item, path) => {
    const entry = yahooReader.asObject(item, path);
    const meta = entry.object('meta');
    const types = meta.has('type') ? yahooReader.asArray(meta.raw.type, meta.at('type')) : [];
    const type = yahooReader.asString(types[0], `${meta.at('type')}[0]`);
    if (!entry.has(type)) return { type, points: [] };
    const points = entry.array(type, (point) => parsePoint(point));
    return { type, points: points.filter((point): point is YahooTimeseriesPoint => point !== null) };
  });
}

function parsePoint(item: unknown): YahooTimeseriesPoint | null {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) return null;
  const raw = item as Record<string, unknown>;
  const asOfDate = dateOrNull(raw.asOfDate);
  const value = decimalOrNull(raw.reportedValue);
  if (asOfDate === null || value === null) return null;
  return { asOfDate, periodType: textOrNull(raw.periodType), currency: textOrNull(raw.currencyCode), value };
}
