import { toDecimalString } from '../../common/decimal/decimal';
import { Fields, SchemaReader } from '../kit/schema-reader';

export const COINGECKO_PROVIDER = 'coingecko';

/** The shape checks of the CoinGecko schemas: their errors name the provider. */
export const { shapeError, expected, asArray, mapArray, fixedLength, asObject, asString, asInteger } = new SchemaReader(COINGECKO_PROVIDER);

const PLAIN_DECIMAL = /^-?\d+(\.\d+)?$/;

/**
 * A JSON number (CoinGecko sends figures as numbers, some in exponent notation such as
 * `5.117253022555269e+15` or `1.0904e-08`) or a plain decimal string (derivative prices), as a canonical
 * decimal string without exponent. The number is already a double once parsed; its shortest text is
 * what CoinGecko wrote, so nothing is rounded here.
 */
export function asJsonDecimal(value: unknown, path: string): string {
  if (typeof value === 'number' && Number.isFinite(value)) return toDecimalString(value);
  if (typeof value === 'string' && PLAIN_DECIMAL.test(value)) return toDecimalString(value);
  throw expected(path, 'number', value);
}

export function decimalField(fields: Fields, key: string): string {
  return asJsonDecimal(fields.raw[key], fields.at(key));
}

export function decimalFieldOrNull(fields: Fields, key: string): string | null {
  return fields.has(key) ? decimalField(fields, key) : null;
}

/** An ISO-8601 string with milliseconds from CoinGecko's timestamps ("2021-05-15T15:49:55+00:00"). */
export function asIsoTime(value: unknown, path: string): string {
  const text = asString(value, path);
  const at = Date.parse(text);
  if (Number.isNaN(at)) throw expected(path, 'timestamp', value);
  return new Date(at).toISOString();
}

export function isoFieldOrNull(fields: Fields, key: string): string | null {
  return fields.has(key) ? asIsoTime(fields.raw[key], fields.at(key)) : null;
}

/** Epoch seconds (`/global` updated_at, derivatives last_traded_at) or milliseconds (ohlc rows) as ISO-8601. */
export function isoFromEpoch(value: unknown, path: string, unit: 'seconds' | 'milliseconds'): string {
  const epoch = asInteger(value, path);
  const date = new Date(unit === 'seconds' ? epoch * 1000 : epoch);
  if (Number.isNaN(date.getTime())) throw expected(path, 'epoch time', value);
  return date.toISOString();
}

/** CoinGecko fills missing text with "" as often as with null: both are "none". */
export function textOrNull(fields: Fields, key: string): string | null {
  const value = fields.stringOrNull(key);
  return value === null || value.trim() === '' ? null : value;
}

/** A list of links or names with CoinGecko's empty placeholders ("") left out; absent or null is empty. */
export function nonEmptyStrings(fields: Fields, key: string): string[] {
  if (!fields.has(key)) return [];
  return fields.array(key, (item, path) => (item === null ? '' : asString(item, path))).filter((text) => text.trim() !== '');
}
