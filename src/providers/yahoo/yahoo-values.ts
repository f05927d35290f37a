import { toDecimalString } from '../../common/decimal/decimal';
import { Fields, SchemaReader } from '../kit/schema-reader';
import { UpstreamError } from '../kit/upstream.error';

export const YAHOO_PROVIDER = 'yahoo';

export const yahooReader = new SchemaReader(YAHOO_PROVIDER);

/** A number as text, exponent allowed ("-6.0E-4"): Yahoo sometimes sends numbers as strings. */
const NUMERIC_TEXT = /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/;
const FLOAT32_MAX_DIGITS = 9;
const MAX_TIME_SECONDS = 8.64e12;
const CRUMB_ERROR = /invalid (crumb|cookie)/i;

/** Yahoo numbers: plain, `{raw, fmt}` when formatted, and `{}`, null or missing when it has no figure. */
export function numberOrNull(value: unknown): number | null {
  const unwrapped = unwrapRaw(value);
  if (typeof unwrapped === 'number') return Number.isFinite(unwrapped) ? unwrapped : null;
  if (typeof unwrapped === 'string' && NUMERIC_TEXT.test(unwrapped.trim())) {
    const parsed = Number(unwrapped.trim());
    return Number.isFinite(parsed) ? parsed : null;
  }
  return null;
}

/** A decimal string without exponent, or null when Yahoo has no figure; never a shape error (tolerant parsing). */
export function decimalOrNull(value: unknown): string | null {
  const number = numberOrNull(value);
  return number === null ? null : toDecimalString(number);
}

/**
 * A chart price: Yahoo stores bar prices as 32-bit floats and sends them widened (425.6 arrives as
 * 425.6000061035156), so a value that is exactly a float32 is printed as the shortest decimal naming that
 * float32, which is the price Yahoo recorded. Not for volumes: those are integers, not float32.
 */
export function barPriceOrNull(value: unknown): string | null {
  const number = numberOrNull(value);
  if (number === null) return null;
  if (Math.fround(number) !== number) return toDecimalString(number);
  for (let digits = 1; digits <= FLOAT32_MAX_DIGITS; digits++) {
    const candidate = number.toPrecision(digits);
    if (Math.fround(Number(candidate)) === number) return toDecimalString(candidate);
  }
  return toDecimalString(number);
}

/** Unix seconds as ISO-8601 with milliseconds; null when absent or not a plausible time. */
export function isoFromSeconds(value: unknown): string | null {
  const seconds = numberOrNull(value);
  if (seconds === null || Math.abs(seconds) > MAX_TIME_SECONDS) return null;
  return new Date(Math.round(seconds * 1000)).toISOString();
}

/** A non-empty string, or null (`{raw, fmt}` strings are unwrapped too). */
export function textOrNull(value: unknown): string | null {
  const unwrapped = unwrapRaw(value);
  return typeof unwrapped === 'string' && unwrapped.trim() !== '' ? unwrapped : null;
}

function unwrapRaw(value: unknown): unknown {
  if (typeof value === 'object' && value !== null && !Array.isArray(value) && 'raw' in value) return (value as { raw: unknown }).raw;
  return value;
}

/**
 * Yahoo refused the crumb or its cookie (a 401 or 403, or "Invalid Crumb" in the body): the client
 * fetches a new one, once, and repeats the call.
 */
export class CrumbRejectedError extends UpstreamError {
  constructor(label: string) {
    super({ provider: YAHOO_PROVIDER, kind: 'http', message: `${label}: crumb refused` });
  }
}

export function isCrumbRejection(error: unknown): boolean {
  if (error instanceof CrumbRejectedError) return true;
  return error instanceof UpstreamError && error.kind === 'http' && (error.upstreamStatus === 401 || error.upstreamStatus === 403);
}

/**
 * Some failures come in a 200 body as `{<root>: {result: null, error: {code, description}}}`. A crumb
 * complaint becomes CrumbRejectedError; any other is an http error naming Yahoo's code, never its text.
 */
export function throwOnBodyError(root: Fields, label: string): void {
  const error = root.raw.error;
  if (error === undefined || error === null) return;
  const details = typeof error === 'object' && !Array.isArray(error) ? (error as Record<string, unknown>) : {};
  const description = typeof details.description === 'string' ? details.description : '';
  if (CRUMB_ERROR.test(description)) throw new CrumbRejectedError(label);
  const code = typeof details.code === 'string' && /^[A-Za-z ]{1,40}$/.test(details.code) ? details.code : 'unknown';
  throw new UpstreamError({ provider: YAHOO_PROVIDER, kind: 'http', message: `${label}: Yahoo reported an error (${code})` });
}
