/**
 * PostgreSQL's COPY text format: one line per row, tab-separated, `\N` for NULL, with backslash, tab, newline
 * and carriage return escaped. Arrays go as array literals with every element quoted.
 */
type CopyValue = string | number | null | undefined;

const ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

function field(value: CopyValue): string {
  if (value === null || value === undefined) return '\\N';
  if (typeof value === 'number') return String(value);
  return value.replace(/[\\\t\n\r]/g, (c) => ESCAPES[c]);
}

export function copyLine(values: readonly CopyValue[]): string {
  return `${values.map(field).join('\t')}\n`;
}

/** `{"a","b"}`: quoted so commas, spaces and braces in an element are data; the line escaping comes on top. */
export function copyArray(values: readonly string[]): string {
  return `{${values.map((v) => `"${v.replace(/["\\]/g, (c) => `\\${c}`)}"`).join(',')}}`;
}
