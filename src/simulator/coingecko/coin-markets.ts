import { CryptoCoin } from '../world/crypto-universe';
import { MarketBook } from '../world/market-book';

export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;
/** The `price_change_percentage` windows CoinGecko accepts, and how far back each looks. */
export const PCT_WINDOWS: Record<string, number> = {
  '1h': HOUR_MS,
  '24h': DAY_MS,
  '7d': 7 * DAY_MS,
  '14d': 14 * DAY_MS,
  '30d': 30 * DAY_MS,
  '200d': 200 * DAY_MS,
  '1y': 365 * DAY_MS,
};
const SPARKLINE_HOURS = 168;

/** CoinGecko prints prices with about 7 significant digits (49053, 0.083973). */
export function cgPrice(value: number): number {
  return Number(value.toPrecision(7));
}

export function round(value: number, decimals: number): number {
  const factor = 10 ** decimals;
  return Math.round(value * factor) / factor;
}

/** Percent change from `then` to `now`, or null when there is no earlier price (as CoinGecko sends). */
export function pctChange(now: number, then: number): number | null {
  return then > 0 ? ((now - then) / then) * 100 : null;
}

export function isoMs(t: number): string {
  return new Date(t).toISOString();
}

export function imageUrl(coin: CryptoCoin, size: 'thumb' | 'small' | 'large'): string {
  return `https://assets.coingecko.com/coins/images/${coin.imageId}/${size}/${coin.id}.png?1696501400`;
}

export interface MarketsOptions {
  /** Units of the vs-currency per USD at a time. */
  rate: (t: number) => number;
  sparkline: boolean;
  /** Requested `price_change_percentage` windows, each answered as `price_change_percentage_<w>_in_currency`. */
  windows: string[];
}

/** Fully diluted value: price × max supply, or × total supply when there is no max; null when neither is known. */
function fdv(coin: CryptoCoin, px: number): number | null {
  const supply = coin.max ?? coin.total;
  return supply === null ? null : Math.round(px * supply);
}

/** One `/coins/markets` item, in the upstream's key order. */
export function marketItem(book: MarketBook, coin: CryptoCoin, rank: number, t: number, options: MarketsOptions): Record<string, unknown> {
  const pxIn = (at: number) => book.coinPx(coin, at) * options.rate(at);
  const px = pxIn(t);
  const px24 = pxIn(t - DAY_MS);
  const cap = coin.circulating * px;
  const cap24 = coin.circulating * px24;
  const range = book.range24h(pxIn, t);
  const extremes = book.extremes(coin.seed, coin.process.basePx * coin.scale * options.rate(t), px);
  const item: Record<string, unknown> = {
    id: coin.id,
    symbol: coin.symbol,
    name: coin.name,
    image: imageUrl(coin, 'large'),
    current_price: cgPrice(px),
    market_cap: Math.round(cap),
    market_cap_rank: rank,
    fully_diluted_valuation: fdv(coin, px),
    total_volume: Math.round(book.coinVolume24h(coin, t) * options.rate(t)),
    high_24h: cgPrice(range.high),
    low_24h: cgPrice(range.low),
    price_change_24h: cgPrice(px - px24),
    price_change_percentage_24h: round(pctChange(px, px24) ?? 0, 5),
    market_cap_change_24h: round(cap - cap24, 2),
    market_cap_change_percentage_24h: round(pctChange(cap, cap24) ?? 0, 5),
    circulating_supply: coin.circulating,
    total_supply: coin.total,
    max_supply: coin.max,
    ath: cgPrice(extremes.ath),
    ath_change_percentage: round(pctChange(px, extremes.ath) ?? 0, 5),
    ath_date: isoMs(extremes.athAt),
    atl: cgPrice(extremes.atl),
    atl_change_percentage: round(pctChange(px, extremes.atl) ?? 0, 5),
    atl_date: isoMs(extremes.atlAt),
    roi: null,
    last_updated: isoMs(t),
  };
  if (options.sparkline) {
    const lastHour = Math.floor(t / HOUR_MS) * HOUR_MS;
    const price = Array.from({ length: SPARKLINE_HOURS }, (_, k) => pxIn(lastHour - (SPARKLINE_HOURS - 1 - k) * HOUR_MS));
    item.sparkline_in_7d = { price };
  }
  for (const window of options.windows) item[`price_change_percentage_${window}_in_currency`] = pctChange(px, pxIn(t - PCT_WINDOWS[window]));
  return item;
}

/** `/coins/{id}/ohlc` granularity by `days`, as on the public plan: 30 min up to 2 days, 4 h up to 30, then 4 days. */
function ohlcStepMs(days: number): number {
  if (days <= 2) return 30 * 60_000;
  if (days <= 30) return 4 * HOUR_MS;
  return 4 * DAY_MS;
}

/** `[[closeTimeMs, open, high, low, close], ...]`; each time is the candle's end, the last candle still forming. */
export function coinOhlc(book: MarketBook, coin: CryptoCoin, t: number, days: number, rate: (at: number) => number): number[][] {
  const step = ohlcStepMs(days);
  const count = Math.max(1, Math.round((days * DAY_MS) / step));
  const lastEnd = Math.ceil(t / step) * step;
  return Array.from({ length: count }, (_, k) => {
    const end = lastEnd - (count - 1 - k) * step;
    const bar = book.bar({ pxAt: (at) => book.coinPx(coin, at) * rate(at), seed: coin.seed, start: end - step, intervalMs: step, now: t, perHourVolume: 0 });
    return [end, cgPrice(bar.open), cgPrice(bar.high), cgPrice(bar.low), cgPrice(bar.close)];
  });
}
