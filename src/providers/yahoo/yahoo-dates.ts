import { numberOrNull } from './yahoo-values';

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const MAX_TIME_SECONDS = 8.64e12;

/**
 * A calendar date as YYYY-MM-DD, or null. Yahoo sends dates as Unix seconds at midnight UTC, wrapped as
 * `{raw, fmt: "2024-12-31"}` when formatted, or as ISO date text (the time series' asOfDate).
 */
export function dateOrNull(value: unknown): string | null {
  if (typeof value === 'string') return ISO_DATE.test(value) ? value : null;
  const seconds = numberOrNull(value);
  if (seconds === null || Math.abs(seconds) > MAX_TIME_SECONDS) return null;
  return new Date(Math.round(seconds * 1000)).toISOString().slice(0, 10);
}
