import { Decimal, toDecimalString } from '../../../common/decimal/decimal';
import { Candle } from '../../../providers/market-data-provider';

const HOUR_MS = 3_600_000;
/** Bar lengths of our intervals; buckets are aligned to UTC hours and days, as Binance's are. */
export const INTERVAL_MS = { H1: HOUR_MS, D1: 24 * HOUR_MS } as const;
/** Percent changes keep this many decimals: more than any display needs, and still exact text. */
const PERCENT_DECIMALS = 8;

/**
 * Finer candles (CoinGecko's 30 min or 4 h) merged into `bucketMs` bars, ascending. A bucket whose first
 * finer bar is missing is dropped, since its open would not be the bar's open; the last bucket may be still
 * forming, as the last Binance bar is. Volume stays null: CoinGecko's ohlc has none.
 */
export function mergeCandles(candles: readonly Candle[], bucketMs: number): Candle[] {
  const buckets = new Map<number, Candle[]>();
  for (const candle of candles) {
    const start = Math.floor(Date.parse(candle.openTime) / bucketMs) * bucketMs;
    const bucket = buckets.get(start);
    if (bucket) bucket.push(candle);
    else buckets.set(start, [candle]);
  }
  const merged: Candle[] = [];
  for (const [start, bars] of [...buckets].sort(([a], [b]) => a - b)) {
    bars.sort((a, b) => a.openTime.localeCompare(b.openTime));
    if (Date.parse(bars[0].openTime) !== start) continue;
    merged.push({
      openTime: new Date(start).toISOString(),
      open: bars[0].open,
      high: toDecimalString(Decimal.max(...bars.map((bar) => bar.high))),
      low: toDecimalString(Decimal.min(...bars.map((bar) => bar.low))),
      close: bars[bars.length - 1].close,
      volume: null,
    });
  }
  return merged;
}

/** `(to / from - 1) * 100`, as a decimal string; null when either side is missing or `from` is zero. */
export function percentChange(from: string | null | undefined, to: string | null | undefined): string | null {
  if (from === null || from === undefined || to === null || to === undefined) return null;
  const base = new Decimal(from);
  if (base.isZero()) return null;
  return toDecimalString(new Decimal(to).minus(base).div(base).times(100).decimalPlaces(PERCENT_DECIMALS));
}

/** Whether two decimal prices are within `tolerance` (a fraction) of each other. */
export function pricesAgree(a: string, b: string, tolerance: number): boolean {
  const reference = new Decimal(b);
  if (reference.isZero()) return false;
  return new Decimal(a).minus(reference).abs().div(reference).lte(tolerance);
}
