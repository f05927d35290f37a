const COMMA = 0x2c;
const QUOTE = 0x22;
const LF = 0x0a;
const CR = 0x0d;
const BYTE_ORDER_MARK = 0xfeff;

/** One record of a CSV text and the line it starts on (1-based), for error messages. */
export interface CsvRecord {
  fields: string[];
  line: number;
}

/** Text that is not CSV, at the line named. */
export class CsvSyntaxError extends Error {
  constructor(
    readonly line: number,
    problem: string,
  ) {
    super(`line ${line}: ${problem}`);
    this.name = 'CsvSyntaxError';
  }
}

/**
 * Splits RFC 4180 CSV into records: comma-separated, fields optionally in double quotes (which may hold
 * commas, line breaks and doubled quotes), LF or CRLF line ends, a leading byte-order mark ignored, the
 * final line end optional. A quote inside an unquoted field or text after a closing quote is a
 * CsvSyntaxError rather than a guess. An empty line is a record of one empty field; the caller skips it.
 */
export function readCsvRecords(text: string): CsvRecord[] {
  const records: CsvRecord[] = [];
  const length = text.length;
  let at = text.charCodeAt(0) === BYTE_ORDER_MARK ? 1 : 0;
  let line = 1;
  while (at < length) {
    const record: CsvRecord = { fields: [], line };
    for (;;) {
      const field = text.charCodeAt(at) === QUOTE ? readQuoted(text, at, line) : readPlain(text, at, line);
      record.fields.push(field.value);
      at = field.end;
      line += field.lineBreaks;
      if (at >= length) break;
      const next = text.charCodeAt(at);
      at += next === CR && text.charCodeAt(at + 1) === LF ? 2 : 1;
      if (next !== COMMA) {
        line += 1;
        break;
      }
      // A comma that ends the text leaves one more, empty, field.
      if (at >= length) {
        record.fields.push('');
        break;
      }
    }
    records.push(record);
  }
  return records;
}

interface Field {
  value: string;
  /** Index just past the field: a comma, a line end or the end of the text. */
  end: number;
  /** Line breaks inside a quoted field. */
  lineBreaks: number;
}

function readPlain(text: string, start: number, line: number): Field {
  let end = start;
  for (; end < text.length; end++) {
    const code = text.charCodeAt(end);
    if (code === COMMA || code === LF || code === CR) break;
    if (code === QUOTE) throw new CsvSyntaxError(line, 'quote inside an unquoted field');
  }
  return { value: text.slice(start, end), end, lineBreaks: 0 };
}

function readQuoted(text: string, start: number, line: number): Field {
  let value = '';
  let from = start + 1;
  for (;;) {
    const close = text.indexOf('"', from);
    if (close < 0) throw new CsvSyntaxError(line, 'quoted field not closed');
    value += text.slice(from, close);
    if (text.charCodeAt(close + 1) !== QUOTE) {
      const end = close + 1;
      const next = text.charCodeAt(end);
      if (end < text.length && next !== COMMA && next !== LF && next !== CR) throw new CsvSyntaxError(line, 'text after a closing quote');
      return { value, end, lineBreaks: countLineFeeds(value) };
    }
    value += '"';
    from = close + 2;
  }
}

function countLineFeeds(value: string): number {
  let count = 0;
  for (let i = value.indexOf('\n'); i >= 0; i = value.indexOf('\n', i + 1)) count += 1;
  return count;
}
