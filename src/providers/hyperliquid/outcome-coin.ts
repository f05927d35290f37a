/**
 * HIP-4 outcome sides are addressed by `encoding = 10 * outcome + side`: the book/trade/fill/mid coin
 * is `#<encoding>`, the token in spotClearinghouseState balances is `+<encoding>`, and the asset id is
 * 100,000,000 + encoding (Hyperliquid docs "Asset IDs", as implemented by the Python SDK and
 * nautilus_trader).
 */
const SIDES_PER_OUTCOME = 10;

export interface OutcomeSideRef {
  outcome: number;
  side: number;
}

export function outcomeEncoding(outcome: number, side: number): number {
  if (!Number.isSafeInteger(outcome) || outcome < 0) throw new RangeError(`outcome must be a non-negative integer, got ${outcome}`);
  if (!Number.isInteger(side) || side < 0 || side >= SIDES_PER_OUTCOME) throw new RangeError(`side must be 0..9, got ${side}`);
  return outcome * SIDES_PER_OUTCOME + side;
}

/** The coin of an outcome side in trades, fills, mids and books: `#<10*outcome+side>`. */
export function outcomeCoin(outcome: number, side: number): string {
  return `#${outcomeEncoding(outcome, side)}`;
}

/** The balance coin of an outcome side token in spotClearinghouseState: `+<10*outcome+side>`. */
export function outcomeTokenCoin(outcome: number, side: number): string {
  return `+${outcomeEncoding(outcome, side)}`;
}

/** `#E` or `+E` -> {outcome, side}; null for any other coin. */
export function parseOutcomeCoin(coin: string): OutcomeSideRef | null {
  const match = /^[#+](0|[1-9]\d*)$/.exec(coin);
  if (!match) return null;
  const encoding = Number(match[1]);
  if (!Number.isSafeInteger(encoding)) return null;
  return { outcome: Math.floor(encoding / SIDES_PER_OUTCOME), side: encoding % SIDES_PER_OUTCOME };
}
