import { Instrument } from '../world/catalog';
import { PriceModel } from '../world/price-model';
import { hash2, hash3, hexHash, unit } from '../world/prng';
import { fmt, fmtPx } from './fmt';
import { pxDecimals, roundPx, roundSz } from '../world/tick-rules';

export const RECENT_TRADES_COUNT = 50;
const BOOK_LEVELS = 20;
/** Buckets scanned back at most when a market is quiet. */
const MAX_BUCKETS_SCANNED = 20_000;
const TID_TIME_FACTOR = 128;

interface TapeSettings {
  bucketMs: number;
  /** Median trade notional in USD. */
  notional: number;
}

/** Busier markets get shorter buckets: a liquid perp trades every few hundred ms, an outcome every ~10 s. */
function tapeSettings(instrument: Instrument): TapeSettings {
  if (instrument.kind === 'outcome') return { bucketMs: 10_000, notional: 40 };
  if (instrument.kind === 'spot') return { bucketMs: Math.round(8_000 / Math.max(0.5, instrument.popularity)), notional: 300 };
  return { bucketMs: Math.min(20_000, Math.max(400, Math.round(4_000 / instrument.popularity))), notional: 2_000 };
}

function tradesInBucket(seed: number, bucket: number): number {
  const u = unit(hash2(seed, bucket));
  return u < 0.35 ? 0 : u < 0.7 ? 1 : u < 0.9 ? 2 : 3;
}

/**
 * The last trades of a coin at time t, oldest first, generated from time buckets so any poll sees the same
 * history. Buyer and seller are wallets of the synthetic set, so trades lead to address discovery.
 */
export function recentTrades(prices: PriceModel, instrument: Instrument, addresses: string[], walletCount: number, t: number): object[] {
  const { bucketMs, notional } = tapeSettings(instrument);
  const seed = instrument.seed;
  const trades: object[] = [];
  const last = Math.floor(t / bucketMs);
  for (let bucket = last; bucket > last - MAX_BUCKETS_SCANNED && trades.length < RECENT_TRADES_COUNT; bucket--) {
    const count = tradesInBucket(seed, bucket);
    for (let j = count - 1; j >= 0 && trades.length < RECENT_TRADES_COUNT; j--) {
      const time = bucket * bucketMs + Math.floor(((j + unit(hash3(seed, bucket, j + 10))) * bucketMs) / count);
      if (time > t) continue;
      const h = hash3(seed, bucket, j);
      const px = roundPx(prices.pxAt(instrument, time) * (1 + (unit(mixed(h, 1)) - 0.5) * 0.0006), instrument.szDecimals, instrument.spotPx);
      const usd = Math.min(notional * 500, notional * (1 - unit(mixed(h, 2))) ** -0.9);
      const buyer = Math.floor(unit(mixed(h, 3)) * walletCount);
      let seller = Math.floor(unit(mixed(h, 4)) * walletCount);
      if (seller === buyer) seller = (seller + 1) % walletCount;
      trades.push({
        coin: instrument.coin,
        side: unit(mixed(h, 5)) < 0.5 ? 'B' : 'A',
        px: fmtPx(px, instrument.szDecimals, instrument.spotPx),
        sz: fmt(roundSz(usd / px, instrument.szDecimals), instrument.szDecimals),
        time,
        hash: hexHash(h),
        tid: time * TID_TIME_FACTOR + (instrument.id & 63),
        users: [addresses[buyer], addresses[seller]],
      });
    }
  }
  return trades.reverse();
}

function mixed(h: number, salt: number): number {
  return hash2(h, salt);
}

/** A 20 x 20 book around the current price. */
export function l2Book(prices: PriceModel, instrument: Instrument, t: number): object {
  const mid = prices.px(instrument, t);
  const tick = 10 ** -pxDecimals(mid, instrument.szDecimals, instrument.spotPx);
  const step = prices.step(t);
  const side = (direction: 1 | -1) => {
    const levels: object[] = [];
    let px = mid;
    for (let k = 0; k < BOOK_LEVELS; k++) {
      const h = hash3(instrument.seed ^ (direction > 0 ? 0xa5 : 0x5a), step, k);
      px += direction * tick * (1 + Math.floor(unit(h) * 3));
      if (px <= 0) break;
      const usd = tapeSettings(instrument).notional * (1 + 20 * unit(mixed(h, 1)));
      levels.push({
        px: fmtPx(px, instrument.szDecimals, instrument.spotPx),
        sz: fmt(roundSz(usd / px, instrument.szDecimals), instrument.szDecimals),
        n: 1 + Math.floor(unit(mixed(h, 2)) * 5),
      });
    }
    return levels;
  };
  return { coin: instrument.coin, time: t, levels: [side(-1), side(1)] };
}
