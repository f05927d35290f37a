import type { SeedEntry } from '../../modules/markets/seed/seed-entry';
import { SEED_LISTS } from '../../modules/markets/seed/seed-universe';
import { hash2, stringHash, unit } from './prng';
import { EXCHANGES, ListingDef, QuoteType } from './stock-listings';

type Range = [low: number, high: number];
/** Crypto is seeded from CoinGecko, not Yahoo. */
type SeededQuoteType = Exclude<QuoteType, 'CRYPTOCURRENCY'>;

const QUOTE_TYPES: Record<SeedEntry['type'], SeededQuoteType | null> = { STOCK: 'EQUITY', ETF: 'ETF', FOREX: 'CURRENCY', COMMODITY: 'FUTURE', CRYPTO: null };
/** Where most shares of a market trade, in its currency: Tokyo and Seoul in thousands, Hong Kong in tens. */
const STOCK_PX: Record<string, Range> = { USD: [15, 600], HKD: [3, 150], JPY: [500, 12_000], KRW: [5_000, 400_000] };
const ETF_PX: Range = [20, 600];
const OTHER_PX: Range = [10, 500];
/** Shares outstanding per market, so market caps land between mid and mega caps. */
const STOCK_SHARES: Record<string, Range> = { US: [3e8, 8e9], HK: [1e9, 2e10], JP: [5e8, 1e10], KR: [5e7, 2e9] };
const ETF_SHARES: Range = [2e7, 1e9];
const VOLS: Record<SeededQuoteType, Range> = { EQUITY: [0.25, 0.7], ETF: [0.12, 0.35], CURRENCY: [0.04, 0.1], FUTURE: [0.25, 0.7] };
/** Units per US dollar, rounded 2025 figures: a pair's price is a ratio of two of these, which no hash range gives. */
// prettier-ignore
const UNITS_PER_USD: Record<string, number> = {
  USD: 1, EUR: 0.916, GBP: 0.771, JPY: 148.6, CHF: 0.885, AUD: 1.53, CAD: 1.37, NZD: 1.67, CNY: 7.18, HKD: 7.84, KRW: 1392, SGD: 1.34, INR: 85.8,
};
/** Front-month prices in Yahoo's units (grains in cents a bushel), rounded 2025 figures, for the roots no named listing has. */
const FUTURE_PX: Record<string, number> = { PL: 1580, PA: 1250, HG: 4.9, BZ: 65.2, RB: 1.95, HO: 2.3, ZC: 425, ZW: 530, ZS: 1030 };
const FUTURE_RANGE: Range = [1, 2000];
/** A reference price moves this far either way with the world seed, so worlds differ but stay plausible. */
const REFERENCE_SPREAD = 0.05;
const US_STOCK_EXCHANGES = ['NMS', 'NYQ'] as const;
const MARKET_EXCHANGES: Record<string, keyof typeof EXCHANGES> = { HK: 'HKG', JP: 'JPX', KR: 'KSC' };
const FX_PAIR = /^([A-Z]{3})?([A-Z]{3})=X$/;

/** Deterministic draws for one symbol in one world. */
class Draws {
  private readonly seed: number;

  constructor(worldSeed: number, symbol: string) {
    this.seed = stringHash(`${worldSeed}:seed-listing:${symbol}`);
  }

  unit(salt: number): number {
    return unit(hash2(this.seed, salt));
  }

  /** Log-uniform in the range: prices and share counts spread over orders of magnitude. */
  logUniform([low, high]: Range, salt: number): number {
    return low * (high / low) ** this.unit(salt);
  }

  around(reference: number, salt: number): number {
    return reference * (1 - REFERENCE_SPREAD + 2 * REFERENCE_SPREAD * this.unit(salt));
  }
}

/** Four significant figures, as a quoted figure reads. */
function tidy(value: number): number {
  return Number(value.toPrecision(4));
}

function exchangeOf(entry: SeedEntry, type: SeededQuoteType, draws: Draws): keyof typeof EXCHANGES {
  if (type === 'CURRENCY') return 'CCY';
  if (type === 'FUTURE') {
    if (/metal/i.test(entry.sector ?? '')) return 'CMX';
    return /agricult|grain/i.test(entry.sector ?? '') ? 'CBT' : 'NYM';
  }
  const byMarket = entry.market === null ? undefined : MARKET_EXCHANGES[entry.market];
  if (byMarket) return byMarket;
  // Most US funds list on NYSE Arca; US shares split between Nasdaq and NYSE.
  return type === 'ETF' ? 'PCX' : US_STOCK_EXCHANGES[Math.floor(draws.unit(1) * US_STOCK_EXCHANGES.length)];
}

/** Base and quote currency of `EURJPY=X`, or USD and JPY for `JPY=X` (Yahoo drops a leading USD). */
function fxLegs(symbol: string): { base: string; quote: string } | null {
  const match = FX_PAIR.exec(symbol);
  return match ? { base: match[1] ?? 'USD', quote: match[2] } : null;
}

function fxPrice(symbol: string, draws: Draws): number {
  const legs = fxLegs(symbol);
  const base = legs ? UNITS_PER_USD[legs.base] : undefined;
  const quote = legs ? UNITS_PER_USD[legs.quote] : undefined;
  if (base === undefined || quote === undefined) return tidy(draws.logUniform([0.5, 2], 2));
  return Number(draws.around(quote / base, 2).toPrecision(5));
}

function basePrice(entry: SeedEntry, type: SeededQuoteType, draws: Draws): number {
  if (type === 'CURRENCY') return fxPrice(entry.yahooSymbol, draws);
  if (type === 'FUTURE') {
    const reference = FUTURE_PX[entry.yahooSymbol.replace(/=F$/, '')];
    return tidy(reference === undefined ? draws.logUniform(FUTURE_RANGE, 2) : draws.around(reference, 2));
  }
  const range = type === 'ETF' ? ETF_PX : (STOCK_PX[entry.currency] ?? OTHER_PX);
  return tidy(draws.logUniform(range, 2));
}

function sharesOf(entry: SeedEntry, type: SeededQuoteType, draws: Draws): number | undefined {
  if (type !== 'EQUITY' && type !== 'ETF') return undefined;
  const range = type === 'ETF' ? ETF_SHARES : (STOCK_SHARES[entry.market ?? 'US'] ?? STOCK_SHARES.US);
  return Math.round(draws.logUniform(range, 3) / 100_000) * 100_000;
}

/**
 * A cross pair whose two legs both have a USD listing follows them (EUR/JPY = EUR/USD × USD/JPY at every
 * instant); the service converts currencies with both, so they must agree.
 */
function crossOf(symbol: string, usdListed: (currency: string) => boolean): ListingDef['cross'] {
  const legs = fxLegs(symbol);
  if (!legs || legs.base === 'USD' || legs.quote === 'USD') return undefined;
  return usdListed(legs.base) && usdListed(legs.quote) ? legs : undefined;
}

/** One listing for a seed entry, from the entry and a hash of (world seed, symbol); null for a class Yahoo is not used for. */
export function seedListingDef(worldSeed: number, entry: SeedEntry, usdListed: (currency: string) => boolean = () => false): ListingDef | null {
  const type = QUOTE_TYPES[entry.type];
  if (!type) return null;
  const symbol = entry.yahooSymbol.toUpperCase();
  const draws = new Draws(worldSeed, symbol);
  const def: ListingDef = {
    symbol,
    longName: entry.name,
    shortName: entry.name,
    type,
    exchange: exchangeOf(entry, type, draws),
    currency: entry.currency,
    sector: entry.sector ?? null,
    industry: entry.industry ?? null,
    basePx: basePrice(entry, type, draws),
    vol: Number((VOLS[type][0] + (VOLS[type][1] - VOLS[type][0]) * draws.unit(4)).toFixed(3)),
  };
  const shares = sharesOf(entry, type, draws);
  if (shares !== undefined) def.shares = shares;
  const cross = type === 'CURRENCY' ? crossOf(symbol, usdListed) : undefined;
  if (cross) def.cross = cross;
  return def;
}

/**
 * Listings for every seed entry that no named listing covers (a named listing keeps its price, shares and the
 * process it follows), so every asset the service seeds has a Yahoo quote. The first entry of a symbol wins.
 */
export function seedListingDefs(worldSeed: number, named: readonly ListingDef[], entries: readonly SeedEntry[] = SEED_LISTS.flat()): ListingDef[] {
  const symbols = new Set([...named.map((def) => def.symbol), ...entries.map((entry) => entry.yahooSymbol.toUpperCase())]);
  const usdListed = (currency: string) => symbols.has(`${currency}USD=X`) || symbols.has(`${currency}=X`);
  const taken = new Set(named.map((def) => def.symbol));
  const defs: ListingDef[] = [];
  for (const entry of entries) {
    const def = taken.has(entry.yahooSymbol.toUpperCase()) ? null : seedListingDef(worldSeed, entry, usdListed);
    if (!def) continue;
    taken.add(def.symbol);
    defs.push(def);
  }
  return defs;
}
