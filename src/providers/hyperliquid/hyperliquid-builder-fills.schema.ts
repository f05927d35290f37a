import { Decimal } from '../../common/decimal/decimal';
import { ADDRESS_PATTERN } from '../../common/validation/address';
import { CsvRecord, CsvSyntaxError, readCsvRecords } from './csv-records';
import { withFillKeys } from './fill-identity';
import { shapeError } from './hyperliquid-reader';
import { BuilderFill, TradeSide } from './hyperliquid.types';
import { decompressLz4Frames, Lz4FrameError } from './lz4-frame';

/**
 * The columns a builder fills file must have, found by name in its header, in any order. Newer files add
 * `special_trade_type` and `is_trigger` (read when present); any other column is ignored.
 */
export const BUILDER_FILLS_COLUMNS = [
  'time',
  'user',
  'coin',
  'side',
  'px',
  'sz',
  'crossed',
  'tif',
  'counterparty',
  'closed_pnl',
  'twap_id',
  'builder_fee',
] as const;
type Column = (typeof BUILDER_FILLS_COLUMNS)[number] | 'special_trade_type' | 'is_trigger';

/** The builder a file belongs to (lower-cased) and how errors name the file (`builder_fills/<builder>/<YYYYMMDD>.csv`). */
export interface BuilderFillsFileRef {
  builder: string;
  label: string;
}

type FillFields = Omit<BuilderFill, 'fillKey'>;

const DECIMAL = /^-?\d+(\.\d+)?$/;
const EXPONENT_DECIMAL = /^-?\d+(\.\d+)?[eE][-+]?\d+$/;
const DIGITS = /^\d+$/;
const ISO_TIME = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:?\d{2})$/;
/** An integer time below this is not epoch milliseconds (it would be 1973 or earlier): likely seconds. */
const MIN_EPOCH_MS = 1e11;
const SIDES: Readonly<Record<string, TradeSide>> = { bid: 'B', b: 'B', ask: 'A', a: 'A' };
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** The downloaded body: an LZ4 frame holding the CSV. Typed fills, or an UpstreamError of kind 'shape' naming the file. */
export function parseBuilderFillsFile(bytes: Uint8Array, file: BuilderFillsFileRef): BuilderFill[] {
  let csv: Buffer;
  try {
    csv = decompressLz4Frames(bytes);
  } catch (err) {
    if (err instanceof Lz4FrameError) throw shapeError(file.label, err.message);
    throw err;
  }
  let text: string;
  try {
    text = UTF8.decode(csv);
  } catch {
    throw shapeError(file.label, 'not UTF-8 text');
  }
  return parseBuilderFillsCsv(text, file);
}

/**
 * The decompressed CSV. A malformed row rejects the whole file, naming the row, its line and the column:
 * these rows are what builders are paid on, so a silently skipped row would be money missing without
 * anyone knowing; a rejected file fails the call loudly and the day can be read again once fixed.
 */
export function parseBuilderFillsCsv(text: string, file: BuilderFillsFileRef): BuilderFill[] {
  const [header, ...rows] = readRecords(text, file.label).filter((record) => !isBlank(record));
  if (!header) throw shapeError(file.label, 'no header line');
  const columns = columnIndexes(header, file.label);
  return withFillKeys(rows.map((record, i) => parseRow(new CsvRow(record, columns, `${file.label} row ${i + 1} (line ${record.line})`), file.builder)));
}

function parseRow(row: CsvRow, builder: string): FillFields {
  return {
    builder,
    time: row.read('time', 'ISO-8601 time or epoch milliseconds', parseTime),
    user: row.read('user', '0x address', parseAddress),
    coin: row.read('coin', 'coin', (raw) => raw || undefined),
    side: row.read('side', 'Bid or Ask', (raw) => SIDES[raw.toLowerCase()]),
    px: row.read('px', 'decimal', parseDecimal),
    sz: row.read('sz', 'decimal', parseDecimal),
    crossed: row.read('crossed', 'true or false', parseBoolean),
    tif: row.read('tif', 'time in force', (raw) => raw || null),
    counterparty: row.read('counterparty', '0x address or nothing', (raw) => (raw === '' ? null : parseAddress(raw))),
    closedPnl: row.read('closed_pnl', 'decimal', parseDecimal),
    twapId: row.read('twap_id', 'TWAP id', parseTwapId),
    builderFee: row.read('builder_fee', 'decimal', parseDecimal),
    specialTradeType: row.readOptional('special_trade_type', 'text', (raw) => raw),
    isTrigger: row.readOptional('is_trigger', 'true or false', parseBoolean),
  };
}

/** One data row; every read names the row, its line and the column when the value is wrong. */
class CsvRow {
  constructor(
    private readonly record: CsvRecord,
    private readonly columns: ReadonlyMap<string, number>,
    private readonly path: string,
  ) {
    if (record.fields.length !== columns.size) throw shapeError(path, `expected ${columns.size} fields, got ${record.fields.length}`);
  }

  /** `parse` returns undefined for a value it refuses. */
  read<T>(column: Column, what: string, parse: (raw: string) => T | undefined): T {
    const raw = this.record.fields[this.columns.get(column)!].trim();
    const value = parse(raw);
    // Values stay out of the message, as in every shape error: only whether the field was empty.
    if (value === undefined) throw shapeError(`${this.path}, column ${column}`, `expected ${what}, got ${raw === '' ? 'an empty field' : 'other text'}`);
    return value;
  }

  /** Null when the file has no such column or leaves the field empty. */
  readOptional<T>(column: Column, what: string, parse: (raw: string) => T | undefined): T | null {
    const index = this.columns.get(column);
    if (index === undefined || this.record.fields[index].trim() === '') return null;
    return this.read(column, what, parse);
  }
}

function readRecords(text: string, label: string): CsvRecord[] {
  try {
    return readCsvRecords(text);
  } catch (err) {
    if (err instanceof CsvSyntaxError) throw shapeError(label, `not CSV: ${err.message}`);
    throw err;
  }
}

function isBlank(record: CsvRecord): boolean {
  return record.fields.length === 1 && record.fields[0].trim() === '';
}

function columnIndexes(header: CsvRecord, label: string): Map<string, number> {
  const columns = new Map<string, number>();
  header.fields.forEach((name, index) => {
    const column = name.trim().toLowerCase();
    if (columns.has(column)) throw shapeError(`${label} header`, `column "${column}" appears twice`);
    columns.set(column, index);
  });
  const missing = BUILDER_FILLS_COLUMNS.filter((column) => !columns.has(column));
  if (missing.length > 0) throw shapeError(`${label} header`, `missing column${missing.length > 1 ? 's' : ''} ${missing.map((c) => `"${c}"`).join(', ')}`);
  return columns;
}

/** Decimal strings as sent; an exponent form ('1e-05') is rewritten exactly, never through a float. */
function parseDecimal(raw: string): string | undefined {
  if (DECIMAL.test(raw)) return raw;
  if (EXPONENT_DECIMAL.test(raw)) return new Decimal(raw).toFixed();
  return undefined;
}

function parseBoolean(raw: string): boolean | undefined {
  const value = raw.toLowerCase();
  return value === 'true' ? true : value === 'false' ? false : undefined;
}

function parseAddress(raw: string): string | undefined {
  return ADDRESS_PATTERN.test(raw) ? raw.toLowerCase() : undefined;
}

/** The files write 0 (older ones nothing) for a fill that is not a TWAP slice. */
function parseTwapId(raw: string): number | null | undefined {
  if (raw === '') return null;
  if (!DIGITS.test(raw) || !Number.isSafeInteger(Number(raw))) return undefined;
  const id = Number(raw);
  return id === 0 ? null : id;
}

/**
 * ISO-8601 with a zone (what the files write, whole seconds: `2026-09-18T00:03:40Z`), or epoch milliseconds
 * (what older files are reported to have written). Fractions past the millisecond are dropped; a date that
 * does not exist (Feb 30) is refused rather than rolled over.
 */
function parseTime(raw: string): number | undefined {
  if (DIGITS.test(raw)) {
    const ms = Number(raw);
    return Number.isSafeInteger(ms) && ms >= MIN_EPOCH_MS ? ms : undefined;
  }
  const match = ISO_TIME.exec(raw);
  if (!match) return undefined;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number);
  const millis = Number((match[7] ?? '').padEnd(3, '0').slice(0, 3));
  const local = Date.UTC(year, month - 1, day, hour, minute, second, millis);
  const check = new Date(local);
  const exists = check.getUTCFullYear() === year && check.getUTCMonth() === month - 1 && check.getUTCDate() === day && check.getUTCHours() === hour;
  if (!exists || minute > 59 || second > 59) return undefined;
  return local - zoneOffsetMs(match[8]);
}

function zoneOffsetMs(zone: string): number {
  if (zone === 'Z') return 0;
  const digits = zone.slice(1).replace(':', '');
  const minutes = Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2));
  return (zone.startsWith('-') ? -1 : 1) * minutes * 60_000;
}
