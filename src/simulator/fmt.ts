/** Decimal strings as the upstream writes them: no exponent, trailing zeros trimmed, at least one decimal ("2.0"). */
export function fmt(value: number, decimals: number): string {
  if (!Number.isFinite(value)) throw new RangeError(`fmt: not a finite number (${value})`);
  // toFixed switches to exponent notation from 1e21; such values only arise from a bug, so write the integer part.
  let text = Math.abs(value) < 1e21 ? value.toFixed(decimals) : `${BigInt(Math.round(value))}.0`;
  if (text.includes('.')) {
    text = text.replace(/0+$/, '');
    if (text.endsWith('.')) text += '0';
  } else {
    text += '.0';
  }
  return text === '-0.0' ? '0.0' : text;
}

const MAX_SIGNIFICANT = 5;

/** Decimals the exchange allows for a price: 5 significant figures, at most (6 perp | 8 spot) - szDecimals places. */
export function pxDecimals(px: number, szDecimals: number, spot: boolean): number {
  const maxDecimals = (spot ? 8 : 6) - szDecimals;
  if (px <= 0) return Math.max(0, maxDecimals);
  const magnitude = Math.floor(Math.log10(px));
  return Math.max(0, Math.min(maxDecimals, MAX_SIGNIFICANT - 1 - magnitude));
}

/** Rounds a price to a valid tick (as a number). */
export function roundPx(px: number, szDecimals: number, spot: boolean): number {
  const decimals = pxDecimals(px, szDecimals, spot);
  const factor = 10 ** decimals;
  return Math.round(px * factor) / factor;
}

export function fmtPx(px: number, szDecimals: number, spot: boolean): string {
  return fmt(roundPx(px, szDecimals, spot), pxDecimals(px, szDecimals, spot));
}

/** Rounds a size to the lot (szDecimals), never below one lot. */
export function roundSz(size: number, szDecimals: number): number {
  const factor = 10 ** szDecimals;
  return Math.max(1, Math.round(size * factor)) / factor;
}

