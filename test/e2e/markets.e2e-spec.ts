import { runJob } from '../support/hl-stack';
import { Decimal } from '../../src/common/decimal/decimal';
import { makeAccount } from '../support/factories';
import { ASSET_TYPES, DECIMAL, expectAsset, ISO_MS, marketsClient, MarketsStack, startMarketsStack } from '../support/markets-stack';

type Data = Record<string, any>;

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const ASSET_DETAIL_KEYS = [
  'description',
  'categories',
  'links',
  'imageUrl',
  'genesisDate',
  'hashingAlgorithm',
  'contracts',
  'marketCapRank',
  'circulatingSupply',
  'totalSupply',
  'maxSupply',
  'fullyDilutedValuation',
  'allTimeHigh',
  'allTimeLow',
  'exchange',
  'sector',
  'industry',
  'country',
  'marketState',
];
const KLINE_KEYS = ['assetId', 'interval', 'openTime', 'open', 'high', 'low', 'close', 'volume'];
const TICKER_KEYS = ['pair', 'venue', 'venueKind', 'marketType', 'price', 'volume24h'];
const PAGE_KEYS = ['items', 'page', 'limit', 'total', 'hasMore'];
/** /assets sort key → the figure it orders by: USD values from asset_quotes, or the served field. */
const SORTED_BY: Record<string, { column?: string; field?: string }> = {
  marketCap: { column: 'market_cap_usd' },
  volume24h: { column: 'volume24h_usd' },
  price: { field: 'price' },
  change24h: { field: 'change24h' },
  change7d: { field: 'change7d' },
  symbol: { field: 'symbol' },
};

/** Consecutive values are in `order` (nulls last either way); strings compare lower-cased, numbers as decimals. */
function expectOrdered(values: Array<string | null>, order: 'asc' | 'desc', numeric: boolean): void {
  for (let i = 1; i < values.length; i++) {
    const [a, b] = [values[i - 1], values[i]];
    if (a === null) expect({ at: i, value: b }).toEqual({ at: i, value: null });
    if (a === null || b === null) continue;
    const cmp = numeric ? (new Decimal(a).comparedTo(b) ?? 0) : a.toLowerCase() < b.toLowerCase() ? -1 : a.toLowerCase() > b.toLowerCase() ? 1 : 0;
    expect({ at: i, a, b, ordered: order === 'asc' ? cmp <= 0 : cmp >= 0 }).toEqual({ at: i, a, b, ordered: true });
  }
}

function expectPage(data: Data, { page, limit }: { page: number; limit: number }): void {
  expect(Object.keys(data).sort()).toEqual([...PAGE_KEYS].sort());
  expect(data).toMatchObject({ page, limit });
  expect(Number.isInteger(data.total)).toBe(true);
  expect(data.items.length).toBeLessThanOrEqual(limit);
  expect(data.hasMore).toBe(page * limit < data.total);
}

describe('Markets reads (contract 2.3, 4.2, 4.8)', () => {
  let stack: MarketsStack;
  let client: ReturnType<typeof marketsClient>;

  beforeAll(async () => {
    stack = await startMarketsStack();
    client = marketsClient(stack.t, (await makeAccount(stack.t, { tier: 'pro' })).key);
  });
  afterAll(() => stack.close());

  // A fresh key per block keeps each block inside the Pro per-minute cap.
  async function freshKey(): Promise<void> {
    client = marketsClient(stack.t, (await makeAccount(stack.t, { tier: 'pro' })).key);
  }
  const data = async (path: string, cost?: number): Promise<any> => (await client.ok(path, cost)).body.data;
  const query = (sql: string, params: unknown[] = []): Promise<Data[]> => stack.t.db.query(sql, params);
  const listedCount = async (where = 'true', params: unknown[] = []): Promise<number> =>
    Number((await query(`SELECT count(*)::int AS n FROM assets WHERE listed AND ${where}`, params))[0].n);

  describe('GET /assets', () => {
    beforeAll(freshKey);

    it('answers a page of Assets with the default limit 20, total the listed catalogue', async () => {
      const page = await data('/assets?type=ALL', 1);
      expectPage(page, { page: 1, limit: 20 });
      expect(page.items).toHaveLength(20);
      expect(page.total).toBe(await listedCount());
      page.items.forEach((asset: Data) => expectAsset(asset));
    });

    it('requires type', async () => {
      await client.expectInvalid('/assets', 'type');
      await client.expectInvalid('/assets?type=crypto', 'type');
    });

    it.each(ASSET_TYPES)('type=%s lists that class only, all of it', async (type) => {
      const page = await data(`/assets?type=${type}&limit=100`);
      expect(page.total).toBe(await listedCount('type = $1', [type]));
      expect(page.items.length).toBe(Math.min(100, page.total));
      expect(new Set(page.items.map((a: Data) => a.type))).toEqual(new Set([type]));
      page.items.forEach((asset: Data) => expectAsset(asset));
    });

    it.each(Object.keys(SORTED_BY).flatMap((sort) => [`${sort}:asc`, `${sort}:desc`]))('sort %s orders the rows', async (sortOrder) => {
      const [sort, order] = sortOrder.split(':') as [string, 'asc' | 'desc'];
      const { items } = await data(`/assets?type=ALL&limit=100&sort=${sort}&order=${order}`);
      expect(items).toHaveLength(100);
      const { column, field } = SORTED_BY[sort];
      let values: Array<string | null> = items.map((a: Data) => a[field!] ?? null);
      if (column) {
        const rows = await query(`SELECT asset_id, ${column}::text AS v FROM asset_quotes WHERE asset_id = ANY($1::int[])`, [items.map((a: Data) => a.id)]);
        const byId = new Map(rows.map((r) => [Number(r.asset_id), r.v as string | null]));
        values = items.map((a: Data) => byId.get(a.id) ?? null);
      }
      expectOrdered(values, order, sort !== 'symbol');
      expect(values[0]).not.toBeNull();
    });

    it('sorts by marketCap, largest first, by default', async () => {
      const byDefault = await data('/assets?type=ALL&limit=50');
      const explicit = await data('/assets?type=ALL&limit=50&sort=marketCap&order=desc');
      expect(byDefault.items.map((a: Data) => a.id)).toEqual(explicit.items.map((a: Data) => a.id));
    });

    it.each([
      ['/assets?type=ALL&sort=name', 'sort'],
      ['/assets?type=ALL&sort=change1h', 'sort'],
      ['/assets?type=ALL&order=up', 'order'],
      ['/assets?type=ALL&limit=0', 'limit'],
      ['/assets?type=ALL&limit=101', 'limit'],
      ['/assets?type=ALL&page=0', 'page'],
      ['/assets?type=ALL&page=501', 'page'],
      ['/assets?type=ALL&type=CRYPTO', 'type'],
      ['/assets?type=STOCK&market=CN', 'market'],
      ['/assets?type=ALL&category=Tech%20Stocks', 'category'],
    ])('answers %s with 400 naming %s', async (path, field) => {
      await client.expectInvalid(path, field);
    });

    it('answers a well-formed category no listed asset carries 400 naming category with the known slugs, unbilled', async () => {
      await client.expectInvalid('/assets?type=ALL&category=no-such-category', 'category');
      const res = await client.call('/assets?type=ALL&category=no-such-category');
      const known: Array<{ slug: string }> = await stack.t.db.query(`SELECT DISTINCT unnest(categories) AS slug FROM assets WHERE listed ORDER BY 1`);
      expect(known.length).toBeGreaterThan(1);
      expect(res.body.msg).toBe(`category: must be one of the following values: ${known.map((k) => k.slug).join(', ')}`);
    });

    it('answers a known category with no asset of the class an empty page', async () => {
      expect((await data('/assets?type=FOREX&category=technology')).items).toEqual([]);
    });

    it('market=HK lists Hong Kong stocks only, all of them', async () => {
      const page = await data('/assets?type=ALL&market=HK&limit=100');
      expect(page.total).toBe(await listedCount(`market = 'HK'`));
      expect(page.items.length).toBe(page.total);
      for (const asset of page.items)
        expect({ type: asset.type, market: asset.market, code: asset.stockCode }).toEqual({ type: 'STOCK', market: 'HK', code: expect.stringMatching(/-HK$/) });
    });

    it('category=technology lists exactly the assets whose detail has that category', async () => {
      const page = await data('/assets?type=ALL&category=technology&limit=100');
      expect(page.total).toBe(await listedCount(`categories @> ARRAY['technology']`));
      expect(page.total).toBeGreaterThan(0);
      expect(page.items).toHaveLength(page.total);
      for (const asset of page.items) {
        const detail = await data(`/assets/${encodeURIComponent(asset.stockCode ?? asset.symbol)}`);
        expect({ symbol: asset.symbol, categories: detail.categories }).toEqual({ symbol: asset.symbol, categories: expect.arrayContaining(['technology']) });
      }
    });

    it('pages consistently: page 2 continues page 1, the total holds, the last page ends it', async () => {
      const whole = await data('/assets?type=STOCK&market=US&limit=40');
      const first = await data('/assets?type=STOCK&market=US&limit=20');
      const second = await data('/assets?type=STOCK&market=US&limit=20&page=2');
      expect([...first.items, ...second.items].map((a: Data) => a.id)).toEqual(whole.items.map((a: Data) => a.id));
      expect([first.total, second.total]).toEqual([whole.total, whole.total]);
      expectPage(second, { page: 2, limit: 20 });
      const lastPage = Math.ceil(whole.total / 20);
      const last = await data(`/assets?type=STOCK&market=US&limit=20&page=${lastPage}`);
      expect(last).toMatchObject({ hasMore: false, total: whole.total });
      expect(last.items).toHaveLength(whole.total - (lastPage - 1) * 20);
      const beyond = await data(`/assets?type=STOCK&market=US&limit=20&page=${lastPage + 1}`);
      expect(beyond).toMatchObject({ items: [], hasMore: false, total: whole.total });
    });
  });

  describe('GET /assets/{symbol}', () => {
    beforeAll(freshKey);

    it('answers a coin with its extended metadata', async () => {
      const btc = await data('/assets/BTC', 1);
      expectAsset(btc, ASSET_DETAIL_KEYS);
      expect(btc).toMatchObject({ symbol: 'BTC', type: 'CRYPTO', market: null, currency: 'USD', marketCapRank: 1, exchange: null, country: null });
      expect(btc.description).toEqual(expect.stringMatching(/\S/));
      expect(btc.links).toEqual(expect.any(Object));
      expect(Object.values(btc.links).every((urls) => Array.isArray(urls))).toBe(true);
      for (const field of ['circulatingSupply', 'totalSupply', 'fullyDilutedValuation'])
        expect({ [field]: btc[field] }).toEqual({ [field]: expect.stringMatching(DECIMAL) });
      for (const extreme of [btc.allTimeHigh, btc.allTimeLow]) {
        expect(extreme).toEqual({ price: expect.stringMatching(DECIMAL), at: expect.stringMatching(ISO_MS), changePercent: expect.stringMatching(DECIMAL) });
      }
      expect(new Decimal(btc.allTimeHigh.price).gte(btc.allTimeLow.price)).toBe(true);
    });

    it('answers a stock with its listing metadata', async () => {
      const aapl = await data('/assets/AAPL', 1);
      expectAsset(aapl, ASSET_DETAIL_KEYS);
      expect(aapl).toMatchObject({
        symbol: 'AAPL',
        type: 'STOCK',
        market: 'US',
        stockCode: 'AAPL-US',
        currency: 'USD',
        sector: 'Technology',
        country: 'United States',
      });
      expect(aapl.exchange).toEqual(expect.stringMatching(/\S/));
      expect(aapl.categories).toContain('technology');
      expect([aapl.description, aapl.circulatingSupply, aapl.allTimeHigh]).toEqual([null, null, null]);
    });

    it('takes no query parameter', async () => {
      await client.expectInvalid('/assets/BTC?foo=1', 'foo');
    });
  });

  describe('GET /assets/{symbol}/klines', () => {
    beforeAll(freshKey);

    function expectKlines(bars: Data[], { assetId, interval }: { assetId: number; interval: string }): void {
      expect(Array.isArray(bars)).toBe(true);
      for (const bar of bars) {
        expect(Object.keys(bar).sort()).toEqual([...KLINE_KEYS].sort());
        expect(bar).toMatchObject({ assetId, interval, openTime: expect.stringMatching(ISO_MS) });
        for (const field of ['open', 'high', 'low', 'close']) expect(bar[field]).toMatch(DECIMAL);
        if (bar.volume !== null) expect(bar.volume).toMatch(DECIMAL);
        expect(new Decimal(bar.high).gte(bar.low)).toBe(true);
      }
      const times = bars.map((bar) => Date.parse(bar.openTime));
      expect(times).toEqual([...times].sort((a, b) => a - b));
      expect(times[times.length - 1]).toBeLessThanOrEqual(Date.now());
    }

    it('answers a bare array of the last 100 H1 bars, oldest first, an hour apart', async () => {
      const btc = await data('/assets/BTC');
      const bars = await data('/assets/BTC/klines', 2);
      expectKlines(bars, { assetId: btc.id, interval: 'H1' });
      expect(bars).toHaveLength(100);
      const times = bars.map((bar: Data) => Date.parse(bar.openTime));
      expect(times.slice(1).map((time: number, i: number) => time - times[i])).toEqual(Array(99).fill(HOUR_MS));
      expect(Date.now() - times[99]).toBeLessThan(2 * HOUR_MS);
    });

    it('answers D1 bars a day apart, the most recent `limit` of them', async () => {
      const bars = await data('/assets/BTC/klines?interval=D1&limit=30');
      expectKlines(bars, { assetId: bars[0].assetId, interval: 'D1' });
      expect(bars).toHaveLength(30);
      const times = bars.map((bar: Data) => Date.parse(bar.openTime));
      expect(times.slice(1).map((time: number, i: number) => time - times[i])).toEqual(Array(29).fill(DAY_MS));
      expect((await data('/assets/BTC/klines?interval=D1&limit=5')).map((bar: Data) => bar.openTime)).toEqual(bars.slice(-5).map((bar: Data) => bar.openTime));
      expect(await data('/assets/BTC/klines?limit=500')).toHaveLength(500);
    });

    it("answers a stock's D1 sessions, oldest first, at least a day apart", async () => {
      const aapl = await data('/assets/AAPL');
      const bars = await data('/assets/AAPL/klines?interval=D1&limit=20');
      expectKlines(bars, { assetId: aapl.id, interval: 'D1' });
      expect(bars).toHaveLength(20);
      const times = bars.map((bar: Data) => Date.parse(bar.openTime));
      for (let i = 1; i < times.length; i++) expect(times[i] - times[i - 1]).toBeGreaterThanOrEqual(DAY_MS);
    });

    it('answers CoinGecko candles for a coin without a Binance pair: at most 24 H1 bars, no volume', async () => {
      const usdt = await data('/assets/USDT');
      const bars = await data('/assets/USDT/klines');
      expectKlines(bars, { assetId: usdt.id, interval: 'H1' });
      expect(bars.length).toBeGreaterThan(0);
      expect(bars.length).toBeLessThanOrEqual(24);
      expect(bars.map((bar: Data) => bar.volume)).toEqual(Array(bars.length).fill(null));
      const times = bars.map((bar: Data) => Date.parse(bar.openTime));
      for (let i = 1; i < times.length; i++) expect(times[i] - times[i - 1]).toBe(HOUR_MS);
    });

    it.each([
      ['/assets/BTC/klines?limit=0', 'limit'],
      ['/assets/BTC/klines?limit=501', 'limit'],
      ['/assets/BTC/klines?interval=M5', 'interval'],
      ['/assets/BTC/klines?interval=h1', 'interval'],
    ])('answers %s with 400 naming %s', async (path, field) => {
      await client.expectInvalid(path, field);
    });
  });

  describe('GET /assets/{symbol}/tickers', () => {
    beforeAll(freshKey);

    function expectTickers(page: Data, limit = 20): void {
      expectPage(page, { page: page.page, limit });
      for (const ticker of page.items) {
        expect(Object.keys(ticker).sort()).toEqual([...TICKER_KEYS].sort());
        expect(ticker.pair).toMatch(/^[^/]+\/[^/]+$/);
        expect(['cex', 'dex']).toContain(ticker.venueKind);
        expect(['spot', 'perp', 'futures']).toContain(ticker.marketType);
        expect(ticker.price).toMatch(DECIMAL);
        if (ticker.volume24h !== null) expect(ticker.volume24h).toMatch(DECIMAL);
      }
      expectOrdered(
        page.items.map((ticker: Data) => ticker.volume24h),
        'desc',
        true,
      );
    }

    it("answers a coin's venues, Hyperliquid included, by 24 h volume, 20 a page", async () => {
      const all = await data('/assets/BTC/tickers?limit=100');
      expectTickers(all, 100);
      expect(all.items).toContainEqual(expect.objectContaining({ venue: 'Hyperliquid', venueKind: 'dex', marketType: 'perp', pair: 'BTC/USDC' }));
      const first = await data('/assets/BTC/tickers', 1);
      expectTickers(first);
      expect(first.items).toEqual(all.items.slice(0, 20));
      const second = await data('/assets/BTC/tickers?page=2&limit=5');
      expect(second.items).toEqual(all.items.slice(5, 10));
    });

    it.each([
      ['venue=dex', (t: Data) => t.venueKind === 'dex'],
      ['venue=cex', (t: Data) => t.venueKind === 'cex'],
      ['marketType=perp', (t: Data) => t.marketType === 'perp'],
      ['marketType=spot', (t: Data) => t.marketType === 'spot'],
      ['venue=cex&marketType=futures', (t: Data) => t.venueKind === 'cex' && t.marketType === 'futures'],
    ])('filters by %s', async (filter, keeps) => {
      const all = await data('/assets/BTC/tickers?limit=100');
      const page = await data(`/assets/BTC/tickers?limit=100&${filter}`);
      expectTickers(page, 100);
      expect(page.items).toEqual(all.items.filter(keeps));
      expect(page.total).toBe(all.items.filter(keeps).length);
    });

    it("answers a stock's Hyperliquid HIP-3 perps", async () => {
      const page = await data('/assets/TSLA/tickers');
      expectTickers(page);
      expect(page.items.map((t: Data) => t.pair)).toContain('xyz:TSLA/USDC');
      for (const ticker of page.items) expect(ticker).toMatchObject({ venue: 'Hyperliquid', venueKind: 'dex', marketType: 'perp' });
    });

    it.each([
      ['/assets/BTC/tickers?venue=foo', 'venue'],
      ['/assets/BTC/tickers?marketType=foo', 'marketType'],
      ['/assets/BTC/tickers?limit=101', 'limit'],
      ['/assets/BTC/tickers?limit=0', 'limit'],
    ])('answers %s with 400 naming %s', async (path, field) => {
      await client.expectInvalid(path, field);
    });
  });

  describe('GET /search and /trending-gainers (shape and bounds)', () => {
    beforeAll(freshKey);

    it('answers search items, 10 a page', async () => {
      const page = await data('/search?q=an', 2);
      expectPage(page, { page: 1, limit: 10 });
      expect(page.items).toHaveLength(10);
      for (const item of page.items) {
        expect(Object.keys(item).sort()).toEqual(['id', 'name', 'symbol', 'type']);
        expect(ASSET_TYPES).toContain(item.type);
      }
    });

    it('answers gainers as Assets, 20 a page', async () => {
      const page = await data('/trending-gainers', 1);
      expectPage(page, { page: 1, limit: 20 });
      expect(page.items).toHaveLength(20);
      page.items.forEach((asset: Data) => expectAsset(asset));
    });

    it('takes q of 2 to 64 characters', async () => {
      await data(`/search?q=${'b'.repeat(64)}`);
      await data('/search?q=bt');
    });

    it.each([
      ['/search', 'q'],
      ['/search?q=b', 'q'],
      ['/search?q=%20%20', 'q'],
      ['/search?q=%20b%20', 'q'],
      [`/search?q=${'b'.repeat(65)}`, 'q'],
      ['/search?q=bitcoin&type=COIN', 'type'],
      ['/search?q=bitcoin&limit=101', 'limit'],
      ['/trending-gainers?type=COIN', 'type'],
      ['/trending-gainers?limit=101', 'limit'],
      ['/trending-gainers?limit=0', 'limit'],
    ])('answers %s with 400 naming %s', async (path, field) => {
      await client.expectInvalid(path, field);
    });
  });

  describe('GET /global-stats', () => {
    beforeAll(freshKey);

    it('answers crypto totals, our catalogue per class and Hyperliquid', async () => {
      const stats = await data('/global-stats', 1);
      expect(stats).toEqual({
        totalMarketCapUsd: expect.stringMatching(DECIMAL),
        totalVolume24hUsd: expect.stringMatching(DECIMAL),
        marketCapChange24h: expect.stringMatching(DECIMAL),
        btcDominance: expect.stringMatching(DECIMAL),
        ethDominance: expect.stringMatching(DECIMAL),
        activeCryptocurrencies: expect.any(Number),
        activeAssets: expect.any(Object),
        hyperliquid: {
          openInterestUsd: expect.stringMatching(DECIMAL),
          volume24hUsd: expect.stringMatching(DECIMAL),
          perpMarkets: expect.any(Number),
          spotMarkets: expect.any(Number),
          updatedAt: expect.stringMatching(ISO_MS),
        },
        updatedAt: expect.stringMatching(ISO_MS),
      });
      const counts = Object.fromEntries((await query(`SELECT type, count(*)::int AS n FROM assets WHERE listed GROUP BY type`)).map((r) => [r.type, r.n]));
      expect(stats.activeAssets).toEqual({ ...Object.fromEntries(ASSET_TYPES.map((type) => [type, counts[type] ?? 0])), total: await listedCount() });
      expect(new Decimal(stats.btcDominance).gt(0) && new Decimal(stats.btcDominance).lt(100)).toBe(true);
      expect(new Decimal(stats.hyperliquid.openInterestUsd).gt(0)).toBe(true);
      // USDC's own row prices it at 1 for valuations: no market.
      const hlMarkets = await query(`SELECT market, count(*)::int AS n FROM hl_markets WHERE NOT (market = 'spot' AND coin = 'USDC') GROUP BY market`);
      const hl = Object.fromEntries(hlMarkets.map((r) => [r.market, r.n]));
      expect(stats.hyperliquid).toMatchObject({ perpMarkets: hl.perp, spotMarkets: hl.spot });
    });
  });

  describe('FX pairs', () => {
    beforeAll(freshKey);

    it('report no volume (Yahoo says 0 for currencies), on the asset and its bars', async () => {
      const eurusd = await data('/assets/EURUSD');
      expect(eurusd).toMatchObject({ type: 'FOREX', volume24h: null, price: expect.stringMatching(DECIMAL) });
      const bars = await data('/assets/EURUSD/klines?interval=D1&limit=5');
      expect(bars.length).toBeGreaterThan(0);
      expect(bars.map((bar: Data) => bar.volume)).toEqual(bars.map(() => null));
    });
  });

  describe('the crypto refresh run again', () => {
    it('delists nothing when the universe did not change, and says so', async () => {
      const run = await runJob(stack.t, 'markets.crypto');
      expect(run.outcome).toMatchObject({ rows: await listedCount(`type = 'CRYPTO'`), details: { delisted: 0 } });
    });
  });
});
