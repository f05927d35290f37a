import { Catalog } from './catalog';
import { buildCryptoUniverse, CryptoCoin } from './crypto-universe';
import { PriceModel } from './price-model';
import { hash2, stringHash, unit } from './prng';
import { seedListingDefs } from './seed-listings';
import { EXCHANGES, ExchangeDef, LISTINGS, ListingDef } from './stock-listings';
import { UnderlyingDef } from './universe';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** Points sampled inside a bar for its high and low: enough for a plausible range, cheap for 1000 bars. */
const BAR_SAMPLES = 12;

/** A Yahoo listing with its exchange and the process its price follows resolved. */
export interface Listing extends Omit<ListingDef, 'process'> {
  exchangeDef: ExchangeDef;
  process: UnderlyingDef;
  scale: number;
  seed: number;
}

export interface Bar {
  /** Open time, ms. */
  t: number;
  open: number;
  high: number;
  low: number;
  close: number;
  /** Traded quantity in base units (coins, shares). */
  volume: number;
}

/**
 * The non-Hyperliquid markets of the world: a few hundred coins and the stock/ETF/FX/futures listings (the named
 * ones, then one per asset the service's Markets catalogue seeds). Prices come from the same PriceModel paths, so
 * BTC on every protocol is one number at one instant (up to each venue's rounding). Volumes are deterministic draws
 * per hour bucket.
 */
export class MarketBook {
  readonly coins: CryptoCoin[];
  readonly listings: Listing[];
  private readonly coinsById: Map<string, CryptoCoin>;
  private readonly coinsByPair: Map<string, CryptoCoin>;
  private readonly listingsBySymbol: Map<string, Listing>;

  constructor(
    seed: number,
    catalog: Catalog,
    readonly prices: PriceModel,
  ) {
    this.coins = buildCryptoUniverse(seed, catalog.underlyings);
    this.coinsById = new Map(this.coins.map((coin) => [coin.id, coin]));
    this.coinsByPair = new Map(this.coins.filter((coin) => coin.binanceSymbol).map((coin) => [coin.binanceSymbol as string, coin]));
    const byKey = new Map(catalog.underlyings.map((u) => [u.key, u]));
    this.listings = [...LISTINGS, ...seedListingDefs(seed, LISTINGS)].map((def) => {
      const coin = def.coin === undefined ? undefined : this.coinsById.get(def.coin);
      const shared = def.process === undefined ? undefined : byKey.get(def.process);
      if ((def.coin !== undefined && !coin) || (def.process !== undefined && !shared)) throw new Error(`listings: ${def.symbol} follows nothing`);
      return {
        ...def,
        exchangeDef: EXCHANGES[def.exchange],
        process: coin?.process ?? shared ?? { key: `listing:${def.symbol}`, basePx: def.basePx ?? 1, vol: def.vol ?? 0.5 },
        scale: coin?.scale ?? 1,
        seed: stringHash(`${seed}:listing:${def.symbol}`),
      };
    });
    this.listingsBySymbol = new Map(this.listings.map((listing) => [listing.symbol, listing]));
  }

  coin(id: string): CryptoCoin | undefined {
    return this.coinsById.get(id);
  }

  coinByPair(symbol: string): CryptoCoin | undefined {
    return this.coinsByPair.get(symbol);
  }

  listing(symbol: string): Listing | undefined {
    return this.listingsBySymbol.get(symbol);
  }

  /** Unrounded USD price of a coin at t; each protocol rounds it its own way. */
  coinPx(coin: CryptoCoin, t: number): number {
    return this.prices.processPx(coin.process, t) * coin.scale;
  }

  /** Unrounded price of a listing in its own currency at t, whether or not its market is open. */
  listingPx(listing: Listing, t: number): number {
    if (listing.cross) return this.usdPerUnit(listing.cross.base, t) / this.usdPerUnit(listing.cross.quote, t);
    return this.prices.processPx(listing.process, t) * listing.scale;
  }

  /** USD value of one unit of an ISO currency at t, from the FX listings (USD/JPY is quoted as JPY=X). */
  usdPerUnit(currency: string, t: number): number {
    if (currency === 'USD') return 1;
    const direct = this.listing(`${currency}USD=X`);
    if (direct) return this.listingPx(direct, t);
    const inverse = this.listing(`${currency}=X`);
    if (inverse) return 1 / this.listingPx(inverse, t);
    throw new Error(`no FX listing for ${currency}`);
  }

  /** Coin market cap in USD at t. */
  coinMarketCap(coin: CryptoCoin, t: number): number {
    return coin.circulating * this.coinPx(coin, t);
  }

  /** Rolling 24 h traded value in USD, a share of the market cap that wanders per hour. */
  coinVolume24h(coin: CryptoCoin, t: number): number {
    const turnover = 0.01 + 0.05 * unit(hash2(coin.seed, 0x7077));
    const wobble = 0.7 + 0.6 * unit(hash2(coin.seed ^ 0x40b, Math.floor(t / HOUR_MS)));
    return this.coinMarketCap(coin, t) * turnover * wobble;
  }

  /** Coins by market cap at t, largest first (CoinGecko's market_cap_desc, and its ranks). */
  coinsByMarketCap(t: number): CryptoCoin[] {
    const caps = new Map(this.coins.map((coin) => [coin, this.coinMarketCap(coin, t)]));
    return [...this.coins].sort((a, b) => (caps.get(b) ?? 0) - (caps.get(a) ?? 0) || (a.id < b.id ? -1 : 1));
  }

  /**
   * One OHLCV bar of a price path: open at `start`, close at the bar's end or at `now` while it is still forming,
   * high and low from samples in between. Volume is `perHourVolume` scaled to the bar's elapsed length.
   */
  bar({ pxAt, seed, start, intervalMs, now, perHourVolume }: BarRequest): Bar {
    const end = Math.min(start + intervalMs - 1, now);
    const open = pxAt(start);
    const close = pxAt(end);
    let high = Math.max(open, close);
    let low = Math.min(open, close);
    for (let k = 1; k < BAR_SAMPLES; k++) {
      const px = pxAt(start + ((end - start) * k) / BAR_SAMPLES);
      high = Math.max(high, px);
      low = Math.min(low, px);
    }
    const elapsedHours = Math.max(0, end - start + 1) / HOUR_MS;
    const volume = perHourVolume * elapsedHours * (0.4 + 1.2 * unit(hash2(seed ^ 0xb0a, Math.floor(start / 60_000))));
    return { t: start, open, high, low, close, volume };
  }

  /** Highest and lowest prices of a path over the 24 h before t, sampled hourly plus now. */
  range24h(pxAt: (t: number) => number, t: number): { high: number; low: number } {
    let high = pxAt(t);
    let low = high;
    for (let h = 1; h <= 24; h++) {
      const px = pxAt(Math.floor(t / HOUR_MS) * HOUR_MS - (h - 1) * HOUR_MS);
      high = Math.max(high, px);
      low = Math.min(low, px);
    }
    return { high, low };
  }

  /** All-time high and low: a deterministic multiple of the base price, never beyond the current one. */
  extremes(seed: number, basePx: number, currentPx: number): { ath: number; athAt: number; atl: number; atlAt: number } {
    const ath = Math.max(currentPx, basePx * (1.3 + 2.5 * unit(hash2(seed, 0xa7))));
    const atl = Math.min(currentPx, basePx * (0.002 + 0.3 * unit(hash2(seed, 0xa71))));
    const athAt = Date.UTC(2021, 0, 1) + Math.floor(unit(hash2(seed, 0xa72)) * 1500) * DAY_MS;
    const atlAt = Date.UTC(2015, 0, 1) + Math.floor(unit(hash2(seed, 0xa73)) * 1500) * DAY_MS;
    return { ath, athAt, atl, atlAt };
  }
}

export interface BarRequest {
  pxAt: (t: number) => number;
  seed: number;
  start: number;
  intervalMs: number;
  now: number;
  perHourVolume: number;
}
