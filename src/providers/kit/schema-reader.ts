import { ADDRESS_PATTERN } from '../../common/validation/address';
import { UpstreamError } from './upstream.error';

/** Plain decimal: optional minus, digits, optional fraction. No exponent, no sign on the right, no bare dot. */
const DECIMAL = /^-?\d+(\.\d+)?$/;
const INTEGER_STRING = /^-?\d+$/;

/**
 * Shape checks at the boundary, for one provider: each reader returns typed data or throws an UpstreamError
 * of kind 'shape' naming that provider and the offending path
 * (`clearinghouseState.assetPositions[3].position.szi: expected decimal string, got number`). Values stay
 * out of the message: only their type is named. Methods are bound, so a vendor can destructure them:
 * `export const { asObject, mapArray } = new SchemaReader('coingecko')`.
 */
export class SchemaReader {
  constructor(readonly provider: string) {}

  readonly shapeError = (path: string, problem: string): UpstreamError =>
    new UpstreamError({ provider: this.provider, kind: 'shape', message: `${path}: ${problem}` });

  readonly expected = (path: string, what: string, actual: unknown): UpstreamError => this.shapeError(path, `expected ${what}, got ${describeType(actual)}`);

  readonly asArray = (value: unknown, path: string): unknown[] => {
    if (!Array.isArray(value)) throw this.expected(path, 'array', value);
    return value;
  };

  /** Maps every element, naming it `path[i]` in errors. */
  readonly mapArray = <T>(value: unknown, path: string, parse: (item: unknown, itemPath: string) => T): T[] =>
    this.asArray(value, path).map((item, i) => parse(item, `${path}[${i}]`));

  /** An array of exactly `length` elements (or at least, for tuples that may grow). */
  readonly fixedLength = (value: unknown, path: string, length: number, atLeast = false): unknown[] => {
    const items = this.asArray(value, path);
    if (atLeast ? items.length < length : items.length !== length) {
      throw this.shapeError(path, `expected ${atLeast ? 'at least ' : ''}${length} elements, got ${items.length}`);
    }
    return items;
  };

  readonly asObject = (value: unknown, path: string): Fields => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw this.expected(path, 'object', value);
    return new Fields(this, value as Record<string, unknown>, path);
  };

  readonly asString = (value: unknown, path: string): string => {
    if (typeof value !== 'string') throw this.expected(path, 'string', value);
    return value;
  };

  readonly asDecimal = (value: unknown, path: string): string => {
    if (typeof value !== 'string' || !DECIMAL.test(value)) throw this.expected(path, 'decimal string', value);
    return value;
  };

  /** A safe integer, sent as a number or (as some recorders stringify them) a numeric string. */
  readonly asInteger = (value: unknown, path: string): number => {
    if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
    if (typeof value === 'string' && INTEGER_STRING.test(value) && Number.isSafeInteger(Number(value))) return Number(value);
    throw this.expected(path, 'integer', value);
  };

  /** A 0x address, lower-cased so the same wallet is one key everywhere. */
  readonly asAddress = (value: unknown, path: string): string => {
    if (typeof value !== 'string' || !ADDRESS_PATTERN.test(value)) throw this.expected(path, '0x address', value);
    return value.toLowerCase();
  };
}

function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'string') return DECIMAL.test(value) ? 'numeric string' : 'string';
  return typeof value;
}

/** Reads the fields of one object; every getter names `path.key` when the field is wrong. Unknown fields are ignored. */
export class Fields {
  constructor(
    private readonly reader: SchemaReader,
    readonly raw: Record<string, unknown>,
    readonly path: string,
  ) {}

  has(key: string): boolean {
    return this.raw[key] !== undefined && this.raw[key] !== null;
  }

  at(key: string): string {
    return `${this.path}.${key}`;
  }

  string(key: string): string {
    return this.reader.asString(this.raw[key], this.at(key));
  }

  stringOrNull(key: string): string | null {
    return this.has(key) ? this.string(key) : null;
  }

  decimal(key: string): string {
    return this.reader.asDecimal(this.raw[key], this.at(key));
  }

  decimalOrNull(key: string): string | null {
    return this.has(key) ? this.decimal(key) : null;
  }

  integer(key: string): number {
    return this.reader.asInteger(this.raw[key], this.at(key));
  }

  integerOrNull(key: string): number | null {
    return this.has(key) ? this.integer(key) : null;
  }

  /** Absent means `fallback`: flags such as isDelisted are only sent when true. */
  boolean(key: string, fallback?: boolean): boolean {
    const value = this.raw[key];
    if (typeof value === 'boolean') return value;
    if ((value === undefined || value === null) && fallback !== undefined) return fallback;
    throw this.reader.expected(this.at(key), 'boolean', value);
  }

  oneOf<T extends string>(key: string, allowed: readonly T[]): T {
    const value = this.raw[key];
    if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return value as T;
    throw this.reader.expected(this.at(key), allowed.map((a) => `"${a}"`).join(' or '), value);
  }

  object(key: string): Fields {
    return this.reader.asObject(this.raw[key], this.at(key));
  }

  objectOrNull(key: string): Fields | null {
    return this.has(key) ? this.object(key) : null;
  }

  array<T>(key: string, parse: (item: unknown, itemPath: string) => T): T[] {
    return this.reader.mapArray(this.raw[key], this.at(key), parse);
  }

  address(key: string): string {
    return this.reader.asAddress(this.raw[key], this.at(key));
  }
}
