import { loadSeedUniverse, SEED_LISTS, toCategorySlug } from './seed-universe';
import type { SeedEntry } from './seed-entry';

const aapl: SeedEntry = {
  yahooSymbol: 'AAPL',
  type: 'STOCK',
  market: 'US',
  symbol: 'AAPL',
  name: 'Apple Inc.',
  sector: 'Technology',
  industry: 'Consumer Electronics',
  currency: 'USD',
};

describe(loadSeedUniverse.name, () => {
  it('accepts the shipped universe: unique yahoo symbols, one entry per asset', () => {
    const entries = loadSeedUniverse();
    expect(entries).toHaveLength(SEED_LISTS.flat().length);
    expect(new Set(entries.map((e) => e.yahooSymbol)).size).toBe(entries.length);
  });

  it('ships at least the promised size of each list', () => {
    const entries = loadSeedUniverse();
    const count = (type: string, market: string | null) => entries.filter((e) => e.type === type && e.market === market).length;
    expect(count('STOCK', 'US')).toBeGreaterThanOrEqual(50);
    expect(count('STOCK', 'JP')).toBeGreaterThanOrEqual(50);
    expect(count('STOCK', 'KR')).toBeGreaterThanOrEqual(30);
    expect(count('STOCK', 'HK')).toBeGreaterThanOrEqual(50);
    expect(count('ETF', 'US')).toBeGreaterThanOrEqual(8);
    expect(count('FOREX', null)).toBeGreaterThanOrEqual(7);
    expect(count('COMMODITY', null)).toBeGreaterThanOrEqual(5);
  });

  it('gives every stock a <TICKER>-<MARKET> code and nothing else one', () => {
    for (const entry of loadSeedUniverse()) {
      if (entry.type === 'STOCK') expect(entry.stockCode).toBe(`${entry.symbol}-${entry.market}`);
      else expect(entry.stockCode).toBeNull();
    }
  });

  it('maps Yahoo symbols of each market to display symbols', () => {
    const bySymbol = new Map(loadSeedUniverse().map((e) => [e.yahooSymbol, e]));
    expect(bySymbol.get('0700.HK')).toMatchObject({ symbol: '0700', market: 'HK', stockCode: '0700-HK' });
    expect(bySymbol.get('7203.T')).toMatchObject({ symbol: '7203', market: 'JP', stockCode: '7203-JP' });
    expect(bySymbol.get('005930.KS')).toMatchObject({ symbol: '005930', market: 'KR', stockCode: '005930-KR' });
    expect(bySymbol.get('JPY=X')).toMatchObject({ symbol: 'USDJPY', type: 'FOREX', market: null, currency: 'JPY' });
    expect(bySymbol.get('EURUSD=X')).toMatchObject({ symbol: 'EURUSD', currency: 'USD' });
    expect(bySymbol.get('GC=F')).toMatchObject({ symbol: 'GC', type: 'COMMODITY' });
  });

  it('turns the sector into a category slug', () => {
    expect(loadSeedUniverse([[aapl]])[0].categories).toEqual(['technology']);
    expect(toCategorySlug('Consumer Cyclical')).toBe('consumer-cyclical');
  });

  it('rejects a duplicate yahoo symbol', () => {
    expect(() => loadSeedUniverse([[aapl], [aapl]])).toThrow('AAPL: duplicate yahoo symbol');
  });

  it('rejects a crypto entry, a stock without a market and an unknown market', () => {
    const crypto: SeedEntry = { ...aapl, yahooSymbol: 'BTC-USD', symbol: 'BTC', type: 'CRYPTO', market: null };
    const noMarket: SeedEntry = { ...aapl, yahooSymbol: 'MSFT', symbol: 'MSFT', market: null };
    const badMarket = { ...aapl, yahooSymbol: 'SPY', symbol: 'SPY', type: 'ETF', market: 'UK' } as unknown as SeedEntry;
    expect(() => loadSeedUniverse([[crypto, noMarket, badMarket]])).toThrow(
      /BTC-USD: type CRYPTO cannot be seeded\nMSFT: a stock needs a market.*\nSPY: unknown market UK/,
    );
  });

  it("ships every stock of every market with its vendor's sector and industry", () => {
    const stocks = loadSeedUniverse().filter((entry) => entry.type === 'STOCK');
    expect(stocks.filter((entry) => !entry.sector || !entry.industry).map((entry) => entry.yahooSymbol)).toEqual([]);
    expect(stocks.find((entry) => entry.yahooSymbol === '1378.HK')).toMatchObject({ sector: 'Basic Materials', industry: 'Aluminum' });
  });

  it('rejects a stock without its sector or industry', () => {
    const noIndustry: SeedEntry = { ...aapl, industry: undefined };
    const noSector: SeedEntry = { ...aapl, yahooSymbol: 'MSFT', symbol: 'MSFT', sector: undefined };
    expect(() => loadSeedUniverse([[noIndustry, noSector]])).toThrow(
      /AAPL: a stock needs its vendor's sector and industry\nMSFT: a stock needs its vendor's sector and industry/,
    );
  });

  it('rejects a stock whose symbol does not match its Yahoo symbol and market', () => {
    const wrongSuffix: SeedEntry = { ...aapl, yahooSymbol: '0700.T', symbol: '0700', market: 'HK' };
    expect(() => loadSeedUniverse([[wrongSuffix]])).toThrow('0700.T: symbol 0700 on HK must be the yahoo symbol without its suffix');
  });
});
