import { Decimal } from '../../src/common/decimal/decimal';
import { RWA_SORTS } from '../../src/modules/stocks/dto/rwa.dto';
import { makeAccount } from '../support/factories';
import { ISO_MS } from '../support/markets-stack';
import { startStocksStack, stocksClient, StocksStack } from '../support/stocks-stack';

type Data = Record<string, any>;

const ITEM_KEYS = [
  'rwaId',
  'rank',
  'symbol',
  'name',
  'slug',
  'assetType',
  'rwaPrice',
  'avgTokenPrice',
  'changePct',
  'marketCap',
  'volume',
  'tokenMcap',
  'tokenVol',
  'marketStatus',
  'tokenList',
  'linkedAssetId',
  'linkedAssetType',
  'linkedAssetSymbol',
  'updatedAt',
];
const TOKEN_FIGURES = ['avgTokenPrice', 'changePct', 'tokenMcap', 'tokenVol'];
const ASSET_TYPE_CODE: Record<string, number> = { STOCK: 1, ETF: 2, COMMODITY: 3 };
/** The route's rule: a listing quoted in the last 15 minutes is trading. */
const TRADING_NOW_MS = 15 * 60_000;
/** The token figures are computed from the catalogue's quotes: equal but for the average's 8 decimals and JSON numbers. */
const ROUNDING = 1e-9;

const expectClose = (actual: number, expected: InstanceType<typeof Decimal>) =>
  expect(Math.abs(actual - expected.toNumber())).toBeLessThanOrEqual(Math.abs(expected.toNumber()) * ROUNDING);

/** `items` in the order the route documents for `sort`: nulls last either way, ties by rank. */
function expectOrdered(items: Data[], sort: string, order: 'asc' | 'desc') {
  const sign = order === 'desc' ? -1 : 1;
  items.slice(1).forEach((item, i) => {
    const before = items[i];
    const where = { sort, order, before: before.rwaId, after: item.rwaId };
    if (sort === 'rank') return expect({ ...where, ok: sign * (before.rank - item.rank) > 0 }).toEqual({ ...where, ok: true });
    if (sort === 'symbol') return expect({ ...where, ok: sign * before.symbol.localeCompare(item.symbol) <= 0 }).toEqual({ ...where, ok: true });
    const [x, y] = [before[sort], item[sort]];
    if (y === null) return;
    expect({ ...where, nullBeforeValue: x === null }).toEqual({ ...where, nullBeforeValue: false });
    expect({ ...where, ok: x === y ? before.rank < item.rank : sign * (x - y) < 0 }).toEqual({ ...where, ok: true });
  });
}

describe('GET /rwa', () => {
  let stack: StocksStack;
  let client: ReturnType<typeof stocksClient>;
  let all: Data;
  /** Before the first /rwa call: an asset created later was added by it. */
  let startedAt: Date;

  beforeAll(async () => {
    stack = await startStocksStack();
    startedAt = new Date();
    client = stocksClient(stack.t, (await makeAccount(stack.t, { tier: 'pro' })).key);
    all = (await client.ok('/rwa?limit=100', 1)).body.data;
  });
  afterAll(() => stack.close());

  const list = async (query: string): Promise<Data> => (await client.ok(`/rwa${query}`, 1)).body.data;
  const assetsById = async (ids: number[]): Promise<Map<number, Data>> => {
    const rows: Data[] = await stack.t.db.query(
      `SELECT a.id, a.symbol, a.type, a.coingecko_id, q.price::text AS price, q.market_cap::text AS cap, q.volume24h::text AS volume,
              q.source_updated_at AS quoted_at
         FROM assets a LEFT JOIN asset_quotes q ON q.asset_id = a.id WHERE a.id = ANY($1::int[])`,
      [ids],
    );
    return new Map(rows.map((row) => [row.id, row]));
  };

  it('pages every RWA with the contract fields and types, ranked by token market cap', async () => {
    expect(all).toMatchObject({ page: 1, limit: 100, total: all.items.length, hasMore: false });
    expect(all.items.length).toBeGreaterThanOrEqual(10);
    expect(all.items.map((i: Data) => i.rank)).toEqual(all.items.map((_: Data, k: number) => k + 1));
    all.items.slice(1).forEach((item: Data, k: number) => expect(item.tokenMcap).toBeLessThanOrEqual(all.items[k].tokenMcap));
    for (const item of all.items) {
      expect(Object.keys(item).sort()).toEqual([...ITEM_KEYS].sort());
      for (const key of ['rwaId', 'symbol', 'name', 'slug']) expect({ key, type: typeof item[key] }).toEqual({ key, type: 'string' });
      expect(Object.values(ASSET_TYPE_CODE)).toContain(item.assetType);
      for (const key of TOKEN_FIGURES) expect({ rwa: item.rwaId, key, type: typeof item[key] }).toEqual({ rwa: item.rwaId, key, type: 'number' });
      expect(['open', 'closed']).toContain(item.marketStatus);
      expect(item.updatedAt).toMatch(ISO_MS);
      expect(item.tokenList.length).toBeGreaterThan(0);
    }
  });

  it("lists each token with its name, slug, symbol and our crypto asset's id", async () => {
    const tokens: Data[] = all.items.flatMap((item: Data) => item.tokenList);
    const assets = await assetsById(tokens.map((t) => t.cryptoId));
    for (const token of tokens) {
      expect(Object.keys(token).sort()).toEqual(['cryptoId', 'name', 'slug', 'symbol']);
      expect(Number.isInteger(token.cryptoId)).toBe(true);
      const asset = assets.get(token.cryptoId);
      expect({ slug: token.slug, asset: asset && { type: asset.type, coingeckoId: asset.coingecko_id, symbol: asset.symbol } }).toEqual({
        slug: token.slug,
        asset: { type: 'CRYPTO', coingeckoId: token.slug, symbol: token.symbol },
      });
    }
  });

  it("serves no row with a null number: every figure and the link are there, gold's market cap its price times the stock above ground", async () => {
    const numbers = ['rank', 'assetType', 'rwaPrice', 'avgTokenPrice', 'changePct', 'marketCap', 'volume', 'tokenMcap', 'tokenVol', 'linkedAssetId'];
    const nulls = all.items.flatMap((item: Data) => numbers.filter((key) => typeof item[key] !== 'number').map((key) => `${item.rwaId}.${key}`));
    expect(nulls).toEqual([]);
    expect(all.items.filter((item: Data) => typeof item.linkedAssetType !== 'string' || typeof item.linkedAssetSymbol !== 'string')).toEqual([]);
    const gold = all.items.find((item: Data) => item.linkedAssetType === 'COMMODITY');
    expect(gold).toMatchObject({ rwaId: 'gold', linkedAssetSymbol: 'GC' });
    // 216,265 t of 31.1034768 g troy ounces.
    const ounces = (216_265 * 1e6) / 31.1034768;
    expect(gold.marketCap / (gold.rwaPrice * ounces)).toBeCloseTo(1, 6);
  });

  it("adds a tokenized stock's underlier the catalogue lacks (COIN, CRCL), with the vendor's sector and industry, priced from its quote", async () => {
    const seeded: Data[] = await stack.t.db.query(`SELECT symbol FROM assets WHERE symbol = ANY($1) AND created_at < $2`, [['COIN', 'CRCL'], startedAt]);
    expect(seeded).toEqual([]);
    for (const [rwaId, symbol, industry] of [
      ['coinbase', 'COIN', 'Financial Data & Stock Exchanges'],
      ['circle', 'CRCL', 'Software - Infrastructure'],
    ]) {
      const item = all.items.find((i: Data) => i.rwaId === rwaId);
      expect(item).toMatchObject({ linkedAssetType: 'STOCK', linkedAssetSymbol: symbol, rwaPrice: expect.any(Number), marketCap: expect.any(Number) });
      const [asset] = await stack.t.db.query(
        `SELECT a.id, a.market, a.sector, a.industry, q.price::text AS price FROM assets a JOIN asset_quotes q ON q.asset_id = a.id WHERE a.symbol = $1`,
        [symbol],
      );
      expect(asset).toEqual({ id: item.linkedAssetId, market: 'US', sector: 'Financial Services', industry, price: String(item.rwaPrice) });
    }
  });

  it("links each RWA to its underlying in our catalogue, with the underlying's price, cap, volume and session", async () => {
    const linked = all.items.filter((item: Data) => item.linkedAssetId !== null);
    expect(linked).toHaveLength(all.items.length);
    const assets = await assetsById(linked.map((item: Data) => item.linkedAssetId));
    for (const item of linked) {
      const asset = assets.get(item.linkedAssetId)!;
      expect({ rwa: item.rwaId, type: item.linkedAssetType, symbol: item.linkedAssetSymbol }).toEqual({
        rwa: item.rwaId,
        type: asset.type,
        symbol: asset.symbol,
      });
      expect(item.assetType).toBe(ASSET_TYPE_CODE[asset.type]);
      expect(item.rwaPrice).toBe(Number(asset.price));
      // A commodity's cap is its price times the stock above ground (the test before).
      if (asset.type !== 'COMMODITY') expect(item.marketCap).toBe(Number(asset.cap));
      expect(item.volume).toBe(asset.volume === null ? null : Number(asset.volume));
      const trading = Date.now() - new Date(asset.quoted_at).getTime() < TRADING_NOW_MS;
      expect({ rwa: item.rwaId, marketStatus: item.marketStatus }).toEqual({ rwa: item.rwaId, marketStatus: trading ? 'open' : 'closed' });
      if (item.rwaId !== 'gold') expect(item.linkedAssetSymbol).toBe(item.symbol.toUpperCase());
    }
    expect(all.items.find((item: Data) => item.rwaId === 'gold')).toMatchObject({
      symbol: 'XAU',
      assetType: 3,
      linkedAssetType: 'COMMODITY',
      linkedAssetSymbol: 'GC',
    });
    expect(all.items.find((item: Data) => item.rwaId === 'apple')).toMatchObject({ assetType: 1, linkedAssetType: 'STOCK', linkedAssetSymbol: 'AAPL' });
    expect(all.items.find((item: Data) => item.rwaId === 'spdr-s-p-500-etf-trust')).toMatchObject({
      assetType: 2,
      linkedAssetType: 'ETF',
      linkedAssetSymbol: 'SPY',
    });
  });

  it("sums the tokens' market caps and volumes and averages their prices by volume", async () => {
    for (const item of all.items) {
      const tokens = [...(await assetsById(item.tokenList.map((t: Data) => t.cryptoId))).values()];
      const total = (figure: (token: Data) => InstanceType<typeof Decimal>) =>
        tokens.reduce<InstanceType<typeof Decimal>>((sum, token) => sum.plus(figure(token)), new Decimal(0));
      const cap = total((t) => new Decimal(t.cap));
      const volume = total((t) => new Decimal(t.volume));
      const weighted = total((t) => new Decimal(t.price).times(t.volume));
      expectClose(item.tokenMcap, cap);
      expectClose(item.tokenVol, volume);
      expectClose(item.avgTokenPrice, weighted.div(volume));
    }
  });

  it('keeps one class of underlying for type, stocks for STOCK', async () => {
    const stocks = await list('?type=STOCK&limit=100');
    expect(stocks.items.length).toBeGreaterThan(0);
    expect(stocks.items.every((i: Data) => i.assetType === 1 && i.linkedAssetType === 'STOCK')).toBe(true);
    expect((await list('?type=ETF&limit=100')).items.every((i: Data) => i.assetType === 2 && i.linkedAssetType === 'ETF')).toBe(true);
    expect((await list('?type=COMMODITY&limit=100')).items.map((i: Data) => i.rwaId)).toEqual(['gold']);
    expect(await list('?type=CRYPTO')).toMatchObject({ items: [], total: 0, hasMore: false });
  });

  it('puts every RWA of ALL in the class of its asset type', async () => {
    const byClass = await Promise.all(['STOCK', 'ETF', 'COMMODITY'].map((type) => list(`?type=${type}&limit=100`)));
    const classified = byClass.flatMap((page) => page.items.map((i: Data) => i.rwaId)).sort();
    expect(classified).toEqual(all.items.map((i: Data) => i.rwaId).sort());
    expect((await list('?type=STOCK&limit=100')).items.map((i: Data) => i.rwaId).sort()).toEqual(
      all.items
        .filter((i: Data) => i.assetType === 1)
        .map((i: Data) => i.rwaId)
        .sort(),
    );
  });

  describe('sorting', () => {
    it.each(RWA_SORTS.flatMap((sort) => [[sort, 'asc'] as const, [sort, 'desc'] as const]))('orders by %s %s', async (sort, order) => {
      const body = await list(`?sort=${sort}&order=${order}&limit=100`);
      expect(body.items.map((i: Data) => i.rwaId).sort()).toEqual(all.items.map((i: Data) => i.rwaId).sort());
      expectOrdered(body.items, sort, order);
    });

    it('sorts by rank largest first for desc, the default', async () => {
      expect((await list('?limit=100')).items.map((i: Data) => i.rank)).toEqual(all.items.map((i: Data) => i.rank));
      expect((await list('?sort=rank&order=desc&limit=3')).items.map((i: Data) => i.rank)).toEqual([1, 2, 3]);
    });

    it('pages the sorted list', async () => {
      const full = (await list('?sort=tokenVol&order=asc&limit=100')).items;
      const second = await list('?sort=tokenVol&order=asc&page=2&limit=3');
      expect(second).toMatchObject({ page: 2, limit: 3, total: full.length, hasMore: full.length > 6 });
      expect(second.items).toEqual(full.slice(3, 6));
    });
  });

  it('says how old the list is in Age, billed 1', async () => {
    const res = await client.ok('/rwa', 1);
    expect(res.headers.age).toMatch(/^\d+$/);
    expect(res.body.data).toMatchObject({ page: 1, limit: 20 });
  });

  it.each([
    ['?sort=price', 'sort'],
    ['?sort=RANK', 'sort'],
    ['?type=BOND', 'type'],
    ['?type=stock', 'type'],
    ['?order=up', 'order'],
    ['?limit=0', 'limit'],
    ['?limit=101', 'limit'],
    ['?page=0', 'page'],
  ])('answers %s 400 naming %s, unbilled', async (query, field) => {
    await client.expectInvalid(`/rwa${query}`, field);
  });
});
