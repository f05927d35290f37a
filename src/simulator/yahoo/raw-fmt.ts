/**
 * Yahoo's formatted figures, `{raw, fmt, longFmt}`, as it sends them inside lists even when asked for
 * unformatted modules (officers' pay, holdings, insider trades).
 */
const SUFFIXES: [number, string][] = [
  [1e12, 'T'],
  [1e9, 'B'],
  [1e6, 'M'],
  [1e3, 'k'],
];
const DAY_MS = 86_400_000;

function trimmed(value: number): string {
  return value.toFixed(2).replace(/\.?0+$/, '');
}

/** 16239562 as "16.24M"; smaller than a thousand as is. */
export function shortFmt(value: number): string {
  const found = SUFFIXES.find(([size]) => Math.abs(value) >= size);
  return found ? `${trimmed(value / found[0])}${found[1]}` : trimmed(value);
}

/** A count or an amount: `{raw, fmt: "16.24M", longFmt: "16,239,562"}`. */
export function amount(value: number): { raw: number; fmt: string; longFmt: string } {
  return { raw: value, fmt: shortFmt(value), longFmt: Math.round(value).toLocaleString('en-US') };
}

/** A fraction: `{raw: 0.0929, fmt: "9.29%"}`. */
export function percent(value: number): { raw: number; fmt: string } {
  return { raw: value, fmt: `${(value * 100).toFixed(2)}%` };
}

/** A day: `{raw: <Unix seconds of midnight UTC>, fmt: "2024-12-31"}`. */
export function day(ms: number): { raw: number; fmt: string } {
  const midnight = Math.floor(ms / DAY_MS) * DAY_MS;
  return { raw: midnight / 1000, fmt: new Date(midnight).toISOString().slice(0, 10) };
}

/** The time series' own style: always two decimals ("99.80B", "6.15", "-334.00M"). */
export function seriesFmt(value: number): string {
  const found = SUFFIXES.find(([size]) => Math.abs(value) >= size && size >= 1e6);
  return found ? `${(value / found[0]).toFixed(2)}${found[1]}` : value.toFixed(2);
}
