/** The exchange's price and size rules: prices on a tick of 5 significant figures, sizes on a lot. */
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

/** Rounds a size to the lot (szDecimals), never below one lot. */
export function roundSz(size: number, szDecimals: number): number {
  const factor = 10 ** szDecimals;
  return Math.max(1, Math.round(size * factor)) / factor;
}
