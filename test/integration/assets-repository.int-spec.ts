import { DataSource } from 'typeorm';
import type { AssetQuoteInput, CatalogueAsset } from '../../src/modules/markets/asset-row';
import { AssetsRepository } from '../../src/modules/markets/assets.repository';
import { loadSeedUniverse } from '../../src/modules/markets/seed/seed-universe';
import { openTestDbInOwnSchema } from '../support/test-db';
import { NO_FIGURES } from '../support/market-quotes';

const coin = (coingeckoId: string, symbol: string, name: string): CatalogueAsset => ({ type: 'CRYPTO', symbol, name, coingeckoId });
const stock = (yahooSymbol: string, symbol: string, market: 'US' | 'HK' | 'JP' | 'KR', name: string, sector?: string): CatalogueAsset => ({
  type: 'STOCK',
  symbol,
  name,
  market,
  stockCode: `${symbol}-${market}`,
  yahooSymbol,
  sector: sector ?? null,
  categories: sector ? [sector.toLowerCase()] : [],
});
const other = (type: 'ETF' | 'FOREX' | 'COMMODITY', yahooSymbol: string, symbol: string, name: string): CatalogueAsset => ({
  type,
  symbol,
  name,
  market: type === 'ETF' ? 'US' : null,
  yahooSymbol,
});

function quote(assetId: number, q: Partial<AssetQuoteInput>): AssetQuoteInput {
  return {
    assetId,
    ...NO_FIGURES,
    marketCapUsd: null,
    volume24hUsd: null,
    sourceUpdatedAt: null,
    ...q,
  };
}

/**
 * The Markets catalogue's SQL on real PostgreSQL, in a schema of its own (migrated from scratch, dropped at
 * the end), so these tests can empty the catalogue without touching other suites.
 */
describe(AssetsRepository.name, () => {
  let drop: () => Promise<void>;
  let db: DataSource;
  let sut: AssetsRepository;
  let ids: Record<string, number>;

  beforeAll(async () => {
    ({ db, drop } = await openTestDbInOwnSchema('assets_repo', 2));
    sut = new AssetsRepository(db);
  });

  afterAll(() => drop());

  /** A small world: [key, entry, quote]; the entries go in this order, so ids follow it. */
  async function seedWorld(): Promise<void> {
    const world: Array<[string, CatalogueAsset, Partial<AssetQuoteInput> | null]> = [
      ['gld-etf', other('ETF', 'GLD', 'GLD', 'SPDR Gold Shares'), { marketCapUsd: '100000000000', volume24hUsd: '2000000000', change24h: '0.5', price: '240' }],
      ['uni-small', coin('universe-token', 'UNI', 'Universe Token'), { marketCapUsd: '1000000', volume24hUsd: '5000', change24h: '900', price: '0.01' }],
      [
        'bitcoin',
        coin('bitcoin', 'BTC', 'Bitcoin'),
        { marketCapUsd: '1200000000000', volume24hUsd: '30000000000', change24h: '2', change7d: '5', price: '61000.5' },
      ],
      [
        'ethereum',
        coin('ethereum', 'ETH', 'Ethereum'),
        { marketCapUsd: '400000000000', volume24hUsd: '15000000000', change24h: '5', change7d: '-3', price: '3000' },
      ],
      ['uniswap', coin('uniswap', 'UNI', 'Uniswap'), { marketCapUsd: '5000000000', volume24hUsd: '200000000', change24h: '-4', price: '7.5' }],
      ['gld-coin', coin('gold-token', 'GLD', 'Gold Token'), { marketCapUsd: '2000000', volume24hUsd: '10000', change24h: '1', price: '1' }],
      [
        'wbtc',
        coin('wrapped-bitcoin', 'WBTC', 'Wrapped Bitcoin'),
        { marketCapUsd: '10000000000', volume24hUsd: '300000000', change24h: '2.1', price: '61000' },
      ],
      ['bch', coin('bitcoin-cash', 'BCH', 'Bitcoin Cash'), { marketCapUsd: '8000000000', volume24hUsd: '400000000', change24h: '12', price: '400' }],
      ['btcst', coin('btc-standard-hashrate-token', 'BTCST', 'BTC Standard Hashrate Token'), null],
      [
        'aapl',
        stock('AAPL', 'AAPL', 'US', 'Apple Inc.', 'Technology'),
        { marketCapUsd: '3000000000000', volume24hUsd: '9000000000', change24h: '1.5', price: '230' },
      ],
      ['xyz-hk', stock('XYZ.HK', 'XYZ', 'HK', 'XYZ Hong Kong line'), { marketCapUsd: '900000000000', volume24hUsd: '1000000000', price: '50' }],
      ['xyz-us', stock('XYZ', 'XYZ', 'US', 'XYZ US line'), { marketCapUsd: '100000000', volume24hUsd: '1000000000', price: '7' }],
      ['2222-jp', stock('2222.T', '2222', 'JP', 'Two Japan', 'Technology'), { marketCapUsd: '700000000000', price: '100' }],
      ['2222-hk', stock('2222.HK', '2222', 'HK', 'Two Hong Kong'), { marketCapUsd: '10000000', price: '3' }],
      [
        'tencent',
        stock('0700.HK', '0700', 'HK', 'Tencent Holdings', 'Communication Services'),
        { marketCapUsd: '500000000000', volume24hUsd: '2000000000', change24h: '3', price: '400.2' },
      ],
      ['eurusd', other('FOREX', 'EURUSD=X', 'EURUSD', 'Euro / US Dollar'), { change24h: '0.8', price: '1.0845' }],
      ['gold', other('COMMODITY', 'GC=F', 'GC', 'Gold Futures'), { volume24hUsd: '50000000000', change24h: '1.2', price: '2650.1' }],
      ['old', coin('old-coin', 'OLD', 'Old Coin'), { marketCapUsd: '999999999999999', volume24hUsd: '999999999999', change24h: '50' }],
    ];
    ids = {};
    for (const [key, entry] of world) {
      const [target] = await sut.upsertCatalogue([entry]);
      ids[key] = target.id;
    }
    await sut.upsertQuotes(world.filter(([, , q]) => q !== null).map(([key, , q]) => quote(ids[key], q ?? {})));
    const listedCoins = world.filter(([key, e]) => e.coingeckoId && key !== 'old').map(([, e]) => e.coingeckoId as string);
    await sut.delistCryptoExcept(listedCoins);
  }

  beforeEach(async () => {
    // News links and stock feeds point at assets: they go with them.
    await db.query('TRUNCATE asset_quotes, assets CASCADE');
    await seedWorld();
  });

  const symbols = (rows: Array<{ symbol: string }>) => rows.map((r) => r.symbol);

  describe('schema', () => {
    it('applies the migration with its indexes, a trigram index where pg_trgm is available', async () => {
      const indexes: Array<{ indexname: string }> = await db.query(`SELECT indexname FROM pg_indexes WHERE tablename = 'assets' ORDER BY 1`);
      const names = indexes.map((i) => i.indexname);
      expect(names).toEqual(expect.arrayContaining(['assets_symbol_idx', 'assets_type_idx', 'assets_market_idx', 'assets_symbol_prefix_idx']));
      const trgm: unknown[] = await db.query(`SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm'`);
      expect(names.includes('assets_search_trgm_idx')).toBe(trgm.length === 1);
    });

    it('refuses an explicit id and an unknown type', async () => {
      await expect(db.query(`INSERT INTO assets (id, type, symbol, name, coingecko_id) VALUES (1, 'CRYPTO', 'X', 'X', 'x')`)).rejects.toThrow(
        /non-DEFAULT value into column "id"/,
      );
      await expect(db.query(`INSERT INTO assets (type, symbol, name, coingecko_id) VALUES ('BOND', 'X', 'X', 'x')`)).rejects.toThrow(/check constraint/);
    });

    it('takes the whole seed universe', async () => {
      const entries = loadSeedUniverse();
      const targets = await sut.upsertCatalogue(entries);
      expect(targets).toHaveLength(entries.length);
      expect((await sut.resolveSymbol('7203-jp'))?.name).toBe('Toyota Motor');
    });
  });

  describe('upserts', () => {
    it('keeps an id for its vendor id across updates, delisting and relisting, and never reuses one', async () => {
      const [again] = await sut.upsertCatalogue([{ ...coin('bitcoin', 'BTC', 'Bitcoin (renamed)'), marketCapRank: 1 }]);
      expect(again.id).toBe(ids.bitcoin);
      expect(await sut.delistCryptoExcept(['ethereum'])).toBeGreaterThan(0);
      expect(await sut.resolveSymbol('BTC')).toMatchObject({ id: ids.bitcoin, listed: false });
      const [relisted] = await sut.upsertCatalogue([coin('bitcoin', 'BTC', 'Bitcoin')]);
      expect(relisted.id).toBe(ids.bitcoin);
      const [fresh] = await sut.upsertCatalogue([coin('brand-new', 'NEW', 'Brand New')]);
      expect(fresh.id).toBeGreaterThan(Math.max(...Object.values(ids)));
      expect(await sut.resolveSymbol('btc')).toMatchObject({ id: ids.bitcoin, listed: true, name: 'Bitcoin', marketCapRank: null });
    });

    it('keys by yahoo symbol and keeps metadata an update leaves empty', async () => {
      await sut.upsertCatalogue([{ ...stock('AAPL', 'AAPL', 'US', 'Apple'), sector: null, categories: [] }]);
      expect(await sut.resolveSymbol('AAPL')).toMatchObject({ id: ids.aapl, name: 'Apple', sector: 'Technology', categories: ['technology'] });
    });

    it('rejects an entry without a vendor id', async () => {
      await expect(sut.upsertCatalogue([{ type: 'STOCK', symbol: 'NOPE', name: 'Nope' }])).rejects.toThrow('NOPE has no vendor id');
    });

    it('replaces quotes in one statement, keeping decimals exact and without exponents', async () => {
      const at = new Date('2026-11-24T10:00:00.123Z');
      await sut.upsertQuotes([
        quote(ids.bitcoin, { price: '61234.123456789012345678', sparkline7d: ['60000.1', '0.00000001', '61000'], sourceUpdatedAt: at }),
        quote(ids.ethereum, { price: '1e-7' }),
      ]);
      const btc = await sut.resolveSymbol('BTC');
      expect(btc).toMatchObject({ price: '61234.123456789012345678', change24h: null, marketCap: null, sparkline7d: ['60000.1', '0.00000001', '61000'] });
      expect(btc?.sourceUpdatedAt?.toISOString()).toBe(at.toISOString());
      expect((await sut.resolveSymbol('ETH'))?.price).toBe('0.0000001');
    });
  });

  describe('listAssets', () => {
    const window = { limit: 20, offset: 0 };

    it('sorts by market cap, largest first, with assets without a quote last', async () => {
      const page = await sut.listAssets({ type: 'CRYPTO', sort: 'marketCap', order: 'desc', ...window });
      expect(symbols(page.rows)).toEqual(['BTC', 'ETH', 'WBTC', 'BCH', 'UNI', 'GLD', 'UNI', 'BTCST']);
      expect(page.total).toBe(8);
    });

    it('keeps nulls last in ascending order too, and pages with a total', async () => {
      const page = await sut.listAssets({ type: 'CRYPTO', sort: 'marketCap', order: 'asc', limit: 3, offset: 5 });
      expect(page.rows.map((r) => r.id)).toEqual([ids.ethereum, ids.bitcoin, ids.btcst]);
      expect(page.total).toBe(8);
    });

    it('filters by market, category and type, and sorts by symbol', async () => {
      expect(symbols((await sut.listAssets({ type: 'STOCK', market: 'HK', sort: 'symbol', order: 'asc', ...window })).rows)).toEqual(['0700', '2222', 'XYZ']);
      expect(symbols((await sut.listAssets({ category: 'technology', sort: 'symbol', order: 'asc', ...window })).rows)).toEqual(['2222', 'AAPL']);
      expect(symbols((await sut.listAssets({ type: 'FOREX', sort: 'price', order: 'desc', ...window })).rows)).toEqual(['EURUSD']);
    });

    it('lists every class when no type is given, delisted assets excepted', async () => {
      const page = await sut.listAssets({ sort: 'change24h', order: 'desc', limit: 3, offset: 0 });
      expect(symbols(page.rows)).toEqual(['UNI', 'BCH', 'ETH']);
      expect(page.total).toBe(17);
    });
  });

  describe('resolveSymbol', () => {
    it('matches case-insensitively', async () => {
      expect((await sut.resolveSymbol('eTh'))?.id).toBe(ids.ethereum);
    });

    it('resolves AAPL and AAPL-US to the same stock', async () => {
      expect((await sut.resolveSymbol('AAPL'))?.id).toBe(ids.aapl);
      expect((await sut.resolveSymbol('aapl-us'))?.id).toBe(ids.aapl);
      expect((await sut.resolveSymbol('0700-HK'))?.id).toBe(ids.tencent);
    });

    it('resolves a bare crypto ticker to the crypto asset, not the same-symbol ETF', async () => {
      expect((await sut.resolveSymbol('GLD'))?.id).toBe(ids['gld-coin']);
    });

    it('resolves a ticker several coins share to the largest by market cap', async () => {
      expect((await sut.resolveSymbol('UNI'))?.id).toBe(ids.uniswap);
    });

    it('resolves a bare ticker on several stock markets to its primary listing: US first, then HK, JP, KR', async () => {
      expect((await sut.resolveSymbol('XYZ'))?.id).toBe(ids['xyz-us']);
      expect((await sut.resolveSymbol('XYZ-HK'))?.id).toBe(ids['xyz-hk']);
      expect((await sut.resolveSymbol('2222'))?.id).toBe(ids['2222-hk']);
      expect((await sut.resolveSymbol('2222-JP'))?.id).toBe(ids['2222-jp']);
    });

    it('still finds a delisted asset when nothing listed matches, and nothing for an unknown symbol', async () => {
      expect(await sut.resolveSymbol('OLD')).toMatchObject({ id: ids.old, listed: false });
      expect(await sut.resolveSymbol('NOPE')).toBeUndefined();
      expect(await sut.resolveSymbol('AAPL-KR')).toBeUndefined();
    });
  });

  describe('searchAssets', () => {
    const window = { limit: 10, offset: 0 };

    it('puts the exact symbol first, then prefix matches, then fuzzy ones, each by market cap', async () => {
      const { hits, total } = await sut.searchAssets({ q: 'BTC', ...window });
      expect(symbols(hits)).toEqual(['BTC', 'BTCST', 'WBTC']);
      expect(total).toBe(3);
      expect(symbols((await sut.searchAssets({ q: 'bitcoin', ...window })).hits)).toEqual(['BTC', 'BCH', 'WBTC']);
    });

    it('finds a stock by its code and returns the code for stocks', async () => {
      const { hits } = await sut.searchAssets({ q: 'aapl-us', ...window });
      expect(hits[0]).toMatchObject({ id: ids.aapl, symbol: 'AAPL', stockCode: 'AAPL-US', market: 'US' });
    });

    it('filters by type and pages', async () => {
      expect(symbols((await sut.searchAssets({ q: 'gld', type: 'ETF', ...window })).hits)).toEqual(['GLD']);
      const second = await sut.searchAssets({ q: 'bitcoin', limit: 1, offset: 1 });
      expect(symbols(second.hits)).toEqual(['BCH']);
      expect(second.total).toBe(3);
    });

    it('treats LIKE wildcards in the query as text', async () => {
      expect((await sut.searchAssets({ q: '%_', ...window })).total).toBe(0);
    });

    it('matches a misspelling where pg_trgm is installed', async () => {
      const trgm: unknown[] = await db.query(`SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm'`);
      const { hits } = await sut.searchAssets({ q: 'etherium', ...window });
      expect(symbols(hits)).toEqual(trgm.length === 1 ? ['ETH'] : []);
      const misspeltName = await sut.searchAssets({ q: 'tencnt', ...window });
      expect(symbols(misspeltName.hits)).toEqual(trgm.length === 1 ? ['0700'] : []);
    });
  });

  describe('topGainers', () => {
    it('ranks by 24 h change above the liquidity floor, FX exempt, unquoted and delisted left out', async () => {
      const page = await sut.topGainers({ minVolume24hUsd: '100000000', limit: 20, offset: 0 });
      expect(symbols(page.rows)).toEqual(['BCH', 'ETH', '0700', 'WBTC', 'BTC', 'AAPL', 'GC', 'EURUSD', 'GLD', 'UNI']);
      expect(page.total).toBe(10);
    });

    it('lets the floor through illiquid assets when it is zero, and filters by type', async () => {
      const page = await sut.topGainers({ type: 'CRYPTO', minVolume24hUsd: '0', limit: 2, offset: 0 });
      expect(symbols(page.rows)).toEqual(['UNI', 'BCH']);
      expect(page.rows[0].id).toBe(ids['uni-small']);
      expect(page.total).toBe(7);
    });
  });
});
