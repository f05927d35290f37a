import { jsonError } from '../json-reply';
import { CryptoCoin } from '../world/crypto-universe';
import { MarketBook } from '../world/market-book';
import { hash2, unit } from '../world/prng';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;
/** Binance weeks open on Monday 00:00 UTC; the epoch was a Thursday. */
const WEEK_OFFSET_MS = 4 * DAY_MS;
/** Fixed-length intervals; the calendar month (`1M`) is not simulated. */
export const INTERVAL_MS: Record<string, number> = {
  '1m': MINUTE_MS,
  '3m': 3 * MINUTE_MS,
  '5m': 5 * MINUTE_MS,
  '15m': 15 * MINUTE_MS,
  '30m': 30 * MINUTE_MS,
  '1h': HOUR_MS,
  '2h': 2 * HOUR_MS,
  '4h': 4 * HOUR_MS,
  '6h': 6 * HOUR_MS,
  '8h': 8 * HOUR_MS,
  '12h': 12 * HOUR_MS,
  '1d': DAY_MS,
  '3d': 3 * DAY_MS,
  '1w': 7 * DAY_MS,
};
const DEFAULT_LIMIT = 500;
const MAX_LIMIT = 1000;
/** Binance's share of a coin's traded volume. */
const VENUE_SHARE = 0.3;

/** A price on the pair's tick (about 6 significant digits), printed with spot's 8 decimals. */
function fmtPrice(px: number): string {
  const decimals = Math.max(0, Math.min(8, 5 - Math.floor(Math.log10(px))));
  return (Math.round(px * 10 ** decimals) / 10 ** decimals).toFixed(8);
}

function fmtQty(qty: number): string {
  return qty.toFixed(8);
}

function alignDown(t: number, intervalMs: number): number {
  const offset = intervalMs === INTERVAL_MS['1w'] ? WEEK_OFFSET_MS : 0;
  return Math.floor((t - offset) / intervalMs) * intervalMs + offset;
}

function optionalInt(query: URLSearchParams, name: string): number | undefined {
  const raw = query.get(name);
  if (raw === null) return undefined;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < 0)
    throw jsonError(400, { code: -1100, msg: `Illegal characters found in parameter '${name}'; legal range is '^[0-9]{1,20}$'.` });
  return value;
}

/** `GET /api/v3/klines`: rows `[openTime, "o", "h", "l", "c", "v", closeTime, "quoteVol", trades, "takerBase", "takerQuote", "0"]`. */
export function klines(book: MarketBook, query: URLSearchParams, now: number): unknown[][] {
  const symbol = query.get('symbol');
  if (!symbol) throw jsonError(400, { code: -1102, msg: "Mandatory parameter 'symbol' was not sent, was empty/null, or malformed." });
  const interval = query.get('interval');
  if (!interval) throw jsonError(400, { code: -1102, msg: "Mandatory parameter 'interval' was not sent, was empty/null, or malformed." });
  const coin = book.coinByPair(symbol.toUpperCase());
  if (!coin) throw jsonError(400, { code: -1121, msg: 'Invalid symbol.' });
  const intervalMs = INTERVAL_MS[interval];
  if (intervalMs === undefined) throw jsonError(400, { code: -1120, msg: 'Invalid interval.' });
  const limit = Math.min(MAX_LIMIT, Math.max(1, optionalInt(query, 'limit') ?? DEFAULT_LIMIT));
  const startTime = optionalInt(query, 'startTime');
  const endTime = Math.min(optionalInt(query, 'endTime') ?? now, now);
  const lastOpen = alignDown(endTime, intervalMs);
  const firstOpen = startTime === undefined ? lastOpen - (limit - 1) * intervalMs : Math.ceil(startTime / intervalMs) * intervalMs;
  const rows: unknown[][] = [];
  for (let open = firstOpen; open <= lastOpen && rows.length < limit; open += intervalMs) rows.push(klineRow(book, coin, open, intervalMs, now));
  return rows;
}

function klineRow(book: MarketBook, coin: CryptoCoin, open: number, intervalMs: number, now: number): unknown[] {
  const pxAt = (t: number) => book.coinPx(coin, t);
  const perHourVolume = (book.coinVolume24h(coin, open) * VENUE_SHARE) / 24 / pxAt(open);
  const bar = book.bar({ pxAt, seed: coin.seed, start: open, intervalMs, now, perHourVolume });
  const average = (bar.open + bar.high + bar.low + bar.close) / 4;
  const takerShare = 0.4 + 0.2 * unit(hash2(coin.seed ^ 0x7a, open / MINUTE_MS));
  const trades = Math.round((bar.volume * average) / (2000 + 6000 * unit(hash2(coin.seed ^ 0x7b, open / MINUTE_MS))));
  return [
    open,
    fmtPrice(bar.open),
    fmtPrice(bar.high),
    fmtPrice(bar.low),
    fmtPrice(bar.close),
    fmtQty(bar.volume),
    open + intervalMs - 1,
    fmtQty(bar.volume * average),
    trades,
    fmtQty(bar.volume * takerShare),
    fmtQty(bar.volume * takerShare * average),
    '0',
  ];
}
