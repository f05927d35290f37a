import { Listing, MarketBook } from '../world/market-book';
import { hash2, unit } from '../world/prng';
import { lastTradeTime, latestSession, openSession } from '../world/trading-sessions';

const DAY_MS = 86_400_000;

/** Yahoo's decimals per listing: FX 4 (sent with more digits), Hong Kong 3, the rest 2. */
export function priceHint(listing: Listing): number {
  if (listing.type === 'CURRENCY') return 4;
  return listing.exchange === 'HKG' ? 3 : 2;
}

/** A price as Yahoo sends it: FX to 7 decimals, others to the hint's decimals. */
export function yahooPrice(listing: Listing, px: number): number {
  const decimals = listing.type === 'CURRENCY' ? 7 : priceHint(listing);
  return Number(px.toFixed(decimals));
}

/** Shares (or contracts, or coins' USD value / price) traded per hour of session. */
export function perHourVolume(book: MarketBook, listing: Listing, t: number): number {
  if (listing.type === 'CURRENCY') return 0;
  if (listing.coin !== undefined) {
    const coin = book.coin(listing.coin);
    return coin ? book.coinVolume24h(coin, t) / 24 / book.coinPx(coin, t) : 0;
  }
  const session = listing.exchangeDef;
  const hours = (session.closeMinute - session.openMinute) / 60;
  const dailyTurnover = 0.002 + 0.01 * unit(hash2(listing.seed, 0x70));
  return ((listing.shares ?? 2_000_000 / book.listingPx(listing, 0)) * dailyTurnover) / hours;
}

export interface DayStats {
  isOpen: boolean;
  lastTrade: number;
  sessionStart: number;
  price: number;
  previousClose: number;
  open: number;
  high: number;
  low: number;
  volume: number;
}

/** The trading day as of t: the open session, or the last closed one (weekends and nights show Friday's close). */
export function dayStats(book: MarketBook, listing: Listing, t: number): DayStats {
  const exchange = listing.exchangeDef;
  const session = latestSession(exchange, t);
  const previous = latestSession(exchange, session.start - 1);
  const lastTrade = lastTradeTime(exchange, t);
  const pxAt = (at: number) => book.listingPx(listing, at);
  const bar = book.bar({
    pxAt,
    seed: listing.seed,
    start: session.start,
    intervalMs: session.end - session.start,
    now: lastTrade,
    perHourVolume: perHourVolume(book, listing, t),
  });
  return {
    isOpen: openSession(exchange, t) !== null,
    lastTrade,
    sessionStart: session.start,
    price: bar.close,
    previousClose: pxAt(previous.end - 1000),
    open: bar.open,
    high: bar.high,
    low: bar.low,
    volume: Math.round(bar.volume),
  };
}

/** Daily closes over the last `days` days (for 52-week ranges and moving averages). */
export function dailyCloses(book: MarketBook, listing: Listing, t: number, days: number): number[] {
  const lastDay = Math.floor(t / DAY_MS) * DAY_MS;
  return Array.from({ length: days }, (_, k) => book.listingPx(listing, lastDay - k * DAY_MS));
}
