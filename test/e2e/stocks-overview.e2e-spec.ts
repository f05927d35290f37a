import { Decimal } from '../../src/common/decimal/decimal';
import { LIMIT_PER_CATEGORY } from '../../src/modules/stocks/stock-overview.service';
import { makeAccount } from '../support/factories';
import { ISO_MS, marketsClient, MarketsStack, startMarketsStack } from '../support/markets-stack';

type Data = Record<string, any>;

const ITEM_KEYS = [
  'assetId',
  'symbol',
  'name',
  'market',
  'stockCode',
  'price',
  'priceUsd',
  'change24h',
  'marketCap',
  'volume24h',
  'sector',
  'industry',
  'priceUpdatedAt',
];

describe('GET /stock/overview (the sector heatmap)', () => {
  let stack: MarketsStack;
  let client: ReturnType<typeof marketsClient>;

  beforeAll(async () => {
    stack = await startMarketsStack();
    client = marketsClient(stack.t, (await makeAccount(stack.t, { tier: 'pro' })).key);
  });
  afterAll(() => stack.close());

  const overview = async (query = ''): Promise<Data> => (await client.ok(`/stock/overview${query}`, 1)).body.data;
  const usdCaps = async (): Promise<Map<number, string>> => {
    const rows: Data[] = await stack.t.db.query(`SELECT asset_id, market_cap_usd::text AS cap FROM asset_quotes`);
    return new Map(rows.map((r) => [Number(r.asset_id), r.cap]));
  };

  it('groups every market by market and sector without a market, at most the documented count each, largest USD cap first', async () => {
    const body = await overview();
    expect(body).toMatchObject({ market: 'ALL', limitPerCategory: LIMIT_PER_CATEGORY });
    expect(new Set(body.categories.map((c: Data) => c.market))).toEqual(new Set(['US', 'HK', 'JP', 'KR']));
    const caps = await usdCaps();
    for (const group of body.categories) {
      expect(group.items.length).toBeGreaterThan(0);
      expect(group.items.length).toBeLessThanOrEqual(LIMIT_PER_CATEGORY);
      for (const item of group.items) {
        expect(Object.keys(item).sort()).toEqual([...ITEM_KEYS].sort());
        expect({ market: item.market, sector: item.sector }).toEqual({ market: group.market, sector: group.label });
        expect(item.stockCode).toBe(`${item.symbol}-${item.market}`);
        for (const field of ['price', 'priceUsd', 'change24h', 'marketCap', 'volume24h']) expect(typeof item[field]).toBe('number');
        expect(item.priceUpdatedAt).toMatch(ISO_MS);
      }
      const groupCaps = group.items.map((item: Data) => new Decimal(caps.get(item.assetId)!));
      groupCaps.slice(1).forEach((cap: InstanceType<typeof Decimal>, i: number) => expect(cap.lte(groupCaps[i])).toBe(true));
    }
    const groups = body.categories.map((c: Data) => `${c.market}:${c.label}`);
    expect(new Set(groups).size).toBe(groups.length);
  });

  it.each(['US', 'HK', 'JP', 'KR'])("gives every %s item its vendor's sector and industry", async (market) => {
    const items: Data[] = (await overview(`?market=${market}`)).categories.flatMap((c: Data) => c.items);
    expect(items.length).toBeGreaterThan(0);
    const missing = items.filter((item) => typeof item.sector !== 'string' || !item.sector || typeof item.industry !== 'string' || !item.industry);
    expect(missing.map((item) => item.stockCode)).toEqual([]);
  });

  it('keeps one market and one sector when asked, its slug in category', async () => {
    const hk = await overview('?market=HK');
    expect(hk.market).toBe('HK');
    expect(hk.categories.every((c: Data) => c.market === 'HK' && c.items.every((i: Data) => i.market === 'HK'))).toBe(true);
    const tech = await overview('?market=US&category=technology');
    expect(tech.categories).toHaveLength(1);
    expect(tech.categories[0]).toMatchObject({ category: 'technology', label: 'Technology', market: 'US' });
    const listed: Data[] = await stack.t.db.query(
      `SELECT count(*)::int AS n FROM assets WHERE listed AND type = 'STOCK' AND market = 'US' AND sector = 'Technology'`,
    );
    expect(tech.categories[0].items).toHaveLength(Math.min(LIMIT_PER_CATEGORY, listed[0].n));
  });

  it('converts a Hong Kong price to USD at the catalogue HKD quote', async () => {
    const hk = await overview('?market=HK');
    const item = hk.categories[0].items[0];
    const [{ rate }] = await stack.t.db.query(
      `SELECT q.price::text AS rate FROM assets a JOIN asset_quotes q ON q.asset_id = a.id WHERE a.yahoo_symbol = 'HKD=X'`,
    );
    expect(item.priceUsd).toBeCloseTo(new Decimal(item.price).div(rate).toNumber(), 4);
    expect(item.priceUsd).toBeLessThan(item.price);
  });

  it('answers an unknown market, a malformed category or one no stock carries 400 naming it, unbilled', async () => {
    await client.expectInvalid('/stock/overview?market=CN', 'market');
    await client.expectInvalid('/stock/overview?category=Tech%20Stocks', 'category');
    await client.expectInvalid('/stock/overview?limit=5', 'limit');
    await client.expectInvalid('/stock/overview?category=no-such-sector', 'category');
  });

  it('names the sector slugs of listed stocks when the category is unknown', async () => {
    const known: Array<{ slug: string }> = await stack.t.db.query(
      `SELECT DISTINCT unnest(categories) AS slug FROM assets WHERE listed AND type = 'STOCK' ORDER BY 1`,
    );
    expect(known.map((k) => k.slug)).toContain('technology');
    const res = await client.call('/stock/overview?category=no-such-sector');
    expect(res.body.msg).toBe(`category: must be one of the following values: ${known.map((k) => k.slug).join(', ')}`);
  });

  it('answers a sector slug no stock of the market carries with no group', async () => {
    const slugs: Array<{ slug: string; market: string }> = await stack.t.db.query(
      `SELECT DISTINCT unnest(categories) AS slug, market FROM assets WHERE listed AND type = 'STOCK'`,
    );
    const missing = slugs.find((s) => !slugs.some((o) => o.slug === s.slug && o.market === 'KR'));
    expect(missing).toBeDefined();
    expect((await overview(`?market=KR&category=${missing!.slug}`)).categories).toEqual([]);
  });

  it('says how old its prices are in Age', async () => {
    const res = await client.ok('/stock/overview?market=JP', 1);
    expect(res.headers.age).toMatch(/^\d+$/);
  });
});
