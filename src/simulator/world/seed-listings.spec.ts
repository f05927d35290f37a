import type { SeedEntry } from '../../modules/markets/seed/seed-entry';
import { SEED_LISTS } from '../../modules/markets/seed/seed-universe';
import { MarketBook } from './market-book';
import { SimWorld } from './sim-world';
import { seedListingDef, seedListingDefs } from './seed-listings';
import { LISTINGS } from './stock-listings';

const SEED = 7;
/** Wednesday 2026-09-23 15:00 UTC. */
const T0 = Date.UTC(2026, 8, 23, 15);

const stock = (yahooSymbol: string, market: SeedEntry['market'], currency: string): SeedEntry => ({
  yahooSymbol,
  type: 'STOCK',
  market,
  symbol: yahooSymbol.split('.')[0],
  name: `${yahooSymbol} Holdings`,
  sector: 'Industrials',
  industry: 'Conglomerates',
  currency,
});

describe(seedListingDefs.name, () => {
  let book: MarketBook;
  beforeAll(() => {
    book = new SimWorld({ wallets: 2, seed: SEED }).markets;
  });

  it('lists every seeded yahoo symbol in the world, once', () => {
    const symbols = SEED_LISTS.flat().map((entry) => entry.yahooSymbol);
    expect(symbols.filter((symbol) => !book.listing(symbol))).toEqual([]);
    expect(new Set(book.listings.map((listing) => listing.symbol)).size).toBe(book.listings.length);
  });

  it('keeps a named listing over a seed entry of the same symbol', () => {
    const derived = seedListingDefs(SEED, LISTINGS, [stock('AAPL', 'US', 'USD'), stock('ZZZZ', 'US', 'USD')]);
    expect(derived.map((def) => def.symbol)).toEqual(['ZZZZ']);
    expect(book.listing('AAPL')?.process.key).toBe('xyz:AAPL');
  });

  it('derives the same listing from the same world seed, and another from another seed', () => {
    const entry = stock('0001.HK', 'HK', 'HKD');
    expect(seedListingDef(SEED, entry)).toEqual(seedListingDef(SEED, entry));
    expect(seedListingDef(SEED + 1, entry)?.basePx).not.toBe(seedListingDef(SEED, entry)?.basePx);
  });

  it.each([
    ['0001.HK', 'HK', 'HKD', 'HKG', 1, 200],
    ['9432.T', 'JP', 'JPY', 'JPX', 300, 20_000],
    ['051910.KS', 'KR', 'KRW', 'KSC', 3_000, 600_000],
    ['ZZZZ', 'US', 'USD', /^(NMS|NYQ)$/, 10, 1_000],
  ] as const)('prices %s in its market range on its exchange, with shares', (symbol, market, currency, exchange, low, high) => {
    const def = seedListingDef(SEED, stock(symbol, market, currency));
    expect(def).toMatchObject({ type: 'EQUITY', currency, longName: `${symbol} Holdings`, sector: 'Industrials', industry: 'Conglomerates' });
    expect(def?.exchange).toMatch(exchange);
    expect(def?.basePx).toBeGreaterThanOrEqual(low);
    expect(def?.basePx).toBeLessThanOrEqual(high);
    expect(def?.shares).toBeGreaterThan(0);
  });

  it('maps FX pairs to CCY, futures to their exchange, neither with shares', () => {
    const chf = book.listing('CHF=X');
    expect(chf).toMatchObject({ type: 'CURRENCY', exchange: 'CCY', currency: 'CHF' });
    expect(chf?.shares).toBeUndefined();
    expect(book.listing('PL=F')).toMatchObject({ type: 'FUTURE', exchange: 'CMX' });
    expect(book.listing('BZ=F')).toMatchObject({ type: 'FUTURE', exchange: 'NYM' });
    expect(book.listing('ZC=F')).toMatchObject({ type: 'FUTURE', exchange: 'CBT' });
  });

  it('prices a cross pair from its USD legs at every instant', () => {
    const pair = (symbol: string, t: number) => book.listingPx(book.listing(symbol) as NonNullable<ReturnType<MarketBook['listing']>>, t);
    for (const t of [T0, T0 + 3_600_000, T0 - 86_400_000]) {
      expect(pair('EURJPY=X', t)).toBeCloseTo(pair('EURUSD=X', t) * pair('JPY=X', t), 9);
      expect(pair('EURCHF=X', t)).toBeCloseTo(pair('EURUSD=X', t) * pair('CHF=X', t), 9);
      expect(book.usdPerUnit('AUD', t)).toBe(pair('AUDUSD=X', t));
    }
  });
});
