import { Decimal } from '../../src/common/decimal/decimal';
import { GAINERS_MIN_VOLUME_USD } from '../../src/modules/markets/assets.service';
import { makeAccount } from '../support/factories';
import { expectAsset, marketsClient, MarketsStack, startMarketsStack } from '../support/markets-stack';

type Data = Record<string, any>;

const PRO_QUOTA = 10_000_000;
/** A real-world clash: the Grayscale Bitcoin Mini Trust trades as BTC. */
const CLASHING_ETF = { symbol: 'BTC', name: 'Grayscale Bitcoin Mini Trust ETF', yahooSymbol: 'BTC', marketCapUsd: '10000000000000000' };
const STOCK_CODE = /^[A-Z0-9.-]+-(US|HK|JP|KR)$/;
const SEVEN_ROUTES = [
  '/assets?type=ALL',
  '/assets/BTC',
  '/assets/BTC/klines',
  '/assets/BTC/tickers',
  '/search?q=bitcoin',
  '/trending-gainers',
  '/global-stats',
];

describe('Markets rules (symbols, search, gainers, Age, upstream calls, credits)', () => {
  let stack: MarketsStack;
  let client: ReturnType<typeof marketsClient>;
  let etfId: number;

  beforeAll(async () => {
    stack = await startMarketsStack();
    // Before any request, so no per-replica cache holds the catalogue as it was.
    [{ id: etfId }] = await query(
      `INSERT INTO assets (type, symbol, name, market, currency, yahoo_symbol) VALUES ('ETF', $1, $2, 'US', 'USD', $3) RETURNING id`,
      [CLASHING_ETF.symbol, CLASHING_ETF.name, CLASHING_ETF.yahooSymbol],
    );
    await query(`INSERT INTO asset_quotes (asset_id, price, market_cap, market_cap_usd, volume24h_usd) VALUES ($1, '45', $2, $2, '1')`, [
      etfId,
      CLASHING_ETF.marketCapUsd,
    ]);
  });
  afterAll(() => stack.close());

  // A fresh key per block keeps each block inside the Pro per-minute cap.
  async function freshKey(): Promise<void> {
    client = marketsClient(stack.t, (await makeAccount(stack.t, { tier: 'pro' })).key);
  }
  const data = async (path: string, cost?: number): Promise<any> => (await client.ok(path, cost)).body.data;
  function query(sql: string, params: unknown[] = []): Promise<Data[]> {
    return stack.t.db.query(sql, params);
  }
  /** The id every on-demand route resolves `symbol` to: detail, klines and tickers must agree. */
  async function resolvedId(symbol: string): Promise<number> {
    const detail = await data(`/assets/${encodeURIComponent(symbol)}`);
    const [bar] = await data(`/assets/${encodeURIComponent(symbol)}/klines?interval=D1&limit=1`);
    expect({ symbol, klines: bar.assetId }).toEqual({ symbol, klines: detail.id });
    return detail.id;
  }

  describe('symbol rules', () => {
    beforeAll(freshKey);

    it('matches case-insensitively', async () => {
      const ids = [await resolvedId('BTC'), await resolvedId('btc'), await resolvedId('Btc')];
      const [{ id }] = await query(`SELECT id FROM assets WHERE coingecko_id = 'bitcoin'`);
      expect(ids).toEqual([id, id, id]);
      const tickers = await Promise.all(['BTC', 'btc', 'Btc'].map(async (symbol) => (await data(`/assets/${symbol}/tickers?limit=100`)).items));
      expect(tickers[1]).toEqual(tickers[0]);
      expect(tickers[2]).toEqual(tickers[0]);
    });

    it.each([
      ['AAPL', 'AAPL-US', 'aapl-us'],
      ['0700', '0700-HK', '0700-hk'],
      ['brk-b', 'BRK-B-US', 'Brk-B-us'],
    ])('resolves the stock %s and its market-qualified forms %s, %s alike', async (...forms) => {
      const ids = [];
      for (const form of forms) ids.push(await resolvedId(form));
      const [{ id }] = await query(`SELECT id FROM assets WHERE stock_code = $1`, [forms[1].toUpperCase()]);
      expect(ids).toEqual([id, id, id]);
      const tickers = [];
      for (const form of forms) tickers.push(await data(`/assets/${form}/tickers`));
      expect(tickers[1]).toEqual(tickers[0]);
      expect(tickers[2]).toEqual(tickers[0]);
    });

    it('resolves a crypto ticker an ETF shares to the coin, even when the ETF is larger', async () => {
      const [{ id: coinId }] = await query(`SELECT id FROM assets WHERE coingecko_id = 'bitcoin'`);
      const coin = await data('/assets/BTC');
      expect(coin).toMatchObject({ id: coinId, type: 'CRYPTO', name: 'Bitcoin' });
      expect(coinId).not.toBe(etfId);
      expect((await data('/assets/btc/tickers')).items).toContainEqual(expect.objectContaining({ venue: 'Hyperliquid', pair: 'BTC/USDC' }));
    });

    it('resolves a ticker several coins share to the largest by market cap', async () => {
      const groups = await query(
        `SELECT lower(a.symbol) AS symbol, (array_agg(a.id ORDER BY q.market_cap_usd DESC NULLS LAST))[1] AS largest, min(a.id) AS oldest
           FROM assets a JOIN asset_quotes q ON q.asset_id = a.id WHERE a.type = 'CRYPTO' AND a.listed GROUP BY 1 HAVING count(*) > 1 ORDER BY 1`,
      );
      expect(groups.length).toBeGreaterThan(5);
      // One group whose largest coin is neither the oldest nor the best ranked, so neither tie-break can pass for the rule.
      const [moved] = await query(
        `WITH moved AS (UPDATE asset_quotes SET market_cap_usd = market_cap_usd * 1000
          WHERE asset_id = (SELECT max(a.id) FROM assets a WHERE a.type = 'CRYPTO' AND lower(a.symbol) = $1) RETURNING asset_id) SELECT * FROM moved`,
        [groups[0].symbol],
      );
      groups[0].largest = moved.asset_id;
      for (const group of groups) {
        const resolved = (await data(`/assets/${group.symbol.toUpperCase()}`)).id;
        expect({ symbol: group.symbol, resolved }).toEqual({ symbol: group.symbol, resolved: Number(group.largest) });
      }
      expect(Number(groups[0].largest)).not.toBe(Number(groups[0].oldest));
    });

    it.each(['/assets/NOPE', '/assets/nope/klines', '/assets/NOPE-US/tickers', `/assets/${'X'.repeat(64)}`])(
      'answers %s with 404 MARKET_ASSET_NOT_FOUND, unbilled',
      async (path) => {
        const before = Number((await client.ok('/trending-gainers?limit=1')).headers['x-credits-remaining']);
        const res = await client.call(path);
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ code: 'MARKET_ASSET_NOT_FOUND', msg: expect.stringMatching(/^symbol\b/), data: null });
        expect(res.headers['x-credits-cost']).toBe('0');
        const after = await client.ok('/trending-gainers?limit=1');
        expect(Number(after.headers['x-credits-remaining'])).toBe(before - 1);
      },
    );
  });

  describe('GET /search', () => {
    beforeAll(freshKey);

    /** 0 exact symbol or stock code, 1 symbol or name starting with q, 2 anything else (substring or fuzzy). */
    async function tiersOf(items: Data[], q: string): Promise<Array<{ tier: number; cap: string | null }>> {
      const rows = await query(
        `SELECT a.id, lower(a.symbol) AS symbol, lower(a.stock_code) AS code, lower(a.name) AS name, q.market_cap_usd::text AS cap
           FROM assets a LEFT JOIN asset_quotes q ON q.asset_id = a.id WHERE a.id = ANY($1::int[])`,
        [items.map((item) => item.id)],
      );
      const byId = new Map(rows.map((r) => [Number(r.id), r]));
      return items.map((item) => {
        const r = byId.get(item.id)!;
        const tier = r.symbol === q || r.code === q ? 0 : r.symbol.startsWith(q) || r.name.startsWith(q) ? 1 : 2;
        return { tier, cap: r.cap };
      });
    }

    it('ranks exact symbols first, then prefixes, then the rest, each tier by market cap', async () => {
      const page = await data('/search?q=neo&limit=100');
      expect(page.total).toBe(page.items.length);
      const tiers = await tiersOf(page.items, 'neo');
      expect(new Set(tiers.map((t) => t.tier))).toEqual(new Set([0, 1, 2]));
      for (let i = 1; i < tiers.length; i++) {
        const [a, b] = [tiers[i - 1], tiers[i]];
        expect({ at: i, tierOrdered: a.tier <= b.tier }).toEqual({ at: i, tierOrdered: true });
        if (a.tier === b.tier && a.cap !== null && b.cap !== null)
          expect({ at: i, capOrdered: new Decimal(a.cap).gte(b.cap) }).toEqual({ at: i, capOrdered: true });
      }
    });

    it.each([
      ['appl', 'AAPL-US'],
      ['AAPL', 'AAPL-US'],
      ['aapl-us', 'AAPL-US'],
      ['0700', '0700-HK'],
      ['tesla', 'TSLA-US'],
    ])('finds %s first as %s', async (q, symbol) => {
      const [first] = (await data(`/search?q=${encodeURIComponent(q)}`)).items;
      expect(first).toMatchObject({ symbol, type: 'STOCK' });
    });

    it('finds a name with one letter missing', async () => {
      const { items } = await data('/search?q=tencnt');
      expect(items).toContainEqual({ id: expect.any(Number), symbol: '0700-HK', name: 'Tencent Holdings', type: 'STOCK' });
    });

    it.each(['STOCK', 'ETF', 'CRYPTO'])('keeps type=%s only', async (type) => {
      const all = await data('/search?q=in&limit=100');
      const page = await data(`/search?q=in&type=${type}&limit=100`);
      expect(page.total).toBeGreaterThan(0);
      expect(page.items.every((item: Data) => item.type === type)).toBe(true);
      if (all.total <= 100) expect(page.items).toEqual(all.items.filter((item: Data) => item.type === type));
    });

    it('names stocks by their market-qualified code and other assets by their ticker', async () => {
      const { items } = await data('/search?q=in&limit=100');
      const rows = await query(`SELECT id, symbol, stock_code FROM assets WHERE id = ANY($1::int[])`, [items.map((item: Data) => item.id)]);
      const byId = new Map(rows.map((r) => [Number(r.id), r]));
      expect(items.some((item: Data) => item.type === 'STOCK')).toBe(true);
      for (const item of items) {
        const row = byId.get(item.id)!;
        if (item.type === 'STOCK') expect(item.symbol).toEqual(expect.stringMatching(STOCK_CODE));
        expect({ id: item.id, symbol: item.symbol }).toEqual({ id: item.id, symbol: row.stock_code ?? row.symbol });
      }
    });
  });

  describe('GET /trending-gainers', () => {
    let thin: number;
    let liquid: number;

    beforeAll(async () => {
      await freshKey();
      // The thinnest-traded asset gets the largest move of all, a liquid one the second largest.
      [{ id: thin }] = await query(
        `WITH moved AS (UPDATE asset_quotes SET change24h = 1000 WHERE asset_id = (SELECT q.asset_id FROM asset_quotes q JOIN assets a ON a.id = q.asset_id
          WHERE a.listed AND a.type <> 'FOREX' AND q.volume24h_usd < $1::numeric ORDER BY q.volume24h_usd LIMIT 1) RETURNING asset_id AS id) SELECT * FROM moved`,
        [GAINERS_MIN_VOLUME_USD],
      );
      [{ id: liquid }] = await query(
        `WITH moved AS (UPDATE asset_quotes SET change24h = 999 WHERE asset_id = (SELECT q.asset_id FROM asset_quotes q JOIN assets a ON a.id = q.asset_id
          WHERE a.listed AND a.type = 'STOCK' AND q.volume24h_usd >= $1::numeric ORDER BY q.volume24h_usd DESC LIMIT 1) RETURNING asset_id AS id) SELECT * FROM moved`,
        [GAINERS_MIN_VOLUME_USD],
      );
    });

    async function allGainers(type = 'ALL'): Promise<Data[]> {
      const items: Data[] = [];
      for (let page = 1; ; page++) {
        const body = await data(`/trending-gainers?type=${type}&limit=100&page=${page}`);
        items.push(...body.items);
        if (!body.hasMore) return items;
      }
    }

    it('orders by change24h, largest first, across pages', async () => {
      const items = await allGainers();
      expect(items[0].id).toBe(liquid);
      for (let i = 1; i < items.length; i++) {
        expect({ at: i, ordered: new Decimal(items[i - 1].change24h).gte(items[i].change24h) }).toEqual({ at: i, ordered: true });
      }
      items.forEach((asset) => expectAsset(asset));
    });

    it(`leaves out every asset but FX pairs with less than ${GAINERS_MIN_VOLUME_USD} USD of 24 h volume`, async () => {
      const items = await allGainers();
      const ids = items.map((asset) => asset.id);
      expect(ids).not.toContain(thin);
      const rows = await query(`SELECT asset_id, volume24h_usd::text AS v FROM asset_quotes WHERE asset_id = ANY($1::int[])`, [ids]);
      const volume = new Map(rows.map((r) => [Number(r.asset_id), r.v as string | null]));
      const thinItems = items.filter((a) => a.type !== 'FOREX' && (volume.get(a.id) === null || new Decimal(volume.get(a.id)!).lt(GAINERS_MIN_VOLUME_USD)));
      expect(thinItems.map((a) => a.symbol)).toEqual([]);
      expect(items.filter((a) => a.type === 'FOREX').length).toBeGreaterThan(0);
    });

    it.each(['CRYPTO', 'FOREX', 'ETF'])('keeps type=%s only', async (type) => {
      const items = await allGainers(type);
      expect(items.length).toBeGreaterThan(0);
      expect(new Set(items.map((a) => a.type))).toEqual(new Set([type]));
    });
  });

  describe('Age header', () => {
    beforeAll(freshKey);

    it.each(SEVEN_ROUTES)('is a whole number of seconds on %s', async (path) => {
      const res = await client.ok(path);
      expect(res.headers.age).toMatch(/^\d+$/);
    });

    it.each(['/search?q=zzzzqq', '/assets?type=FOREX&category=technology', '/trending-gainers?page=50'])(
      'is 0 on %s, an empty page (nothing in it left an upstream)',
      async (path) => {
        const res = await client.ok(path);
        expect(res.body.data.items).toEqual([]);
        expect(res.headers.age).toBe('0');
      },
    );

    it('grows while the catalogue is not refreshed', async () => {
      const before = Number((await client.ok('/assets?type=COMMODITY')).headers.age);
      await new Promise((resolve) => setTimeout(resolve, 2_100));
      const after = Number((await client.ok('/assets?type=COMMODITY')).headers.age);
      expect(after).toBeGreaterThanOrEqual(before + 2);
    });
  });

  describe('upstream calls', () => {
    beforeAll(freshKey);
    afterEach(() => {
      stack.upstream.down = false;
    });

    it('serves the catalogue lists without calling the upstream, and reaches it for candles never read', async () => {
      stack.upstream.hits.length = 0;
      await data('/assets?type=ETF&sort=volume24h&limit=7');
      await data('/search?q=toyota');
      await data('/trending-gainers?type=STOCK&limit=9');
      expect(stack.upstream.hits).toEqual([]);

      await data('/assets/7203-JP/klines?interval=D1&limit=3');
      expect(stack.upstream.hits).toEqual([expect.stringMatching(/^\/yahoo\/v8\/finance\/chart\/7203\.T\?/)]);
      await data('/assets/7203-JP/klines?interval=D1&limit=3');
      expect(stack.upstream.hits).toHaveLength(1);
    });

    it('serves the lists while the upstream is down, when on-demand reads of uncached data fail unbilled', async () => {
      stack.upstream.down = true;
      stack.upstream.hits.length = 0;
      await data('/assets?type=ALL&sort=change7d&limit=3');
      await data('/search?q=sony');
      await data('/trending-gainers?type=ETF');
      expect(stack.upstream.hits).toEqual([]);

      const res = await client.call('/assets/6758-JP/klines');
      expect(res.status).toBe(502);
      expect(res.body).toEqual({ code: 'MARKET_UPSTREAM_ERROR', msg: expect.any(String), data: null });
      expect(res.headers['x-credits-cost']).toBe('0');
      expect(stack.upstream.hits.length).toBeGreaterThan(0);
    });
  });

  describe('credits', () => {
    it('bills a Pro key 2 for search and klines, 1 for the others, nothing for a 4xx', async () => {
      const { key } = await makeAccount(stack.t, { tier: 'pro' });
      const pro = marketsClient(stack.t, key);
      let remaining = PRO_QUOTA;
      const steps: Array<[string, number]> = [
        ['/assets?type=CRYPTO', 1],
        ['/assets/ETH', 1],
        ['/assets/ETH/klines', 2],
        ['/assets/ETH/tickers', 1],
        ['/search?q=ether', 2],
        ['/trending-gainers', 1],
        ['/global-stats', 1],
        ['/assets?type=NOPE', 0],
        ['/assets/NOT-A-COIN', 0],
        ['/assets/ETH/klines?limit=501', 0],
        ['/search?q=e', 0],
      ];
      for (const [path, cost] of steps) {
        const res = await pro.call(path);
        expect({ path, status: res.status < 300, cost: res.headers['x-credits-cost'] }).toEqual({ path, status: cost > 0, cost: String(cost) });
        remaining -= cost;
        expect({ path, remaining: Number(res.headers['x-credits-remaining']) }).toEqual({ path, remaining });
      }
      const balance = await pro.ok('/account/credits', 1);
      expect(balance.body.data.balance).toBe(String(remaining - 1));
    });
  });
});
