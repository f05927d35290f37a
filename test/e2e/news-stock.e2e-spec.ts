import { canonicalUrl } from '../../src/providers/feeds/canonical-url';
import { makeAccount } from '../support/factories';
import { ISO_MS } from '../support/markets-stack';
import { expectNewestFirst, NEWS_ASSET_KEYS, STOCK_NEWS_ITEM_KEYS } from '../support/news-contract';
import { newsClient, NewsStack, runNewsJob, startNewsStack } from '../support/news-stack';
import { ASSET_NOT_FOUND } from '../support/stocks-stack';

type Data = Record<string, any>;

const BODY_KEYS = ['asset', 'source', 'items', 'page', 'limit', 'hasMore', 'errors'];
const SOURCE_KEYS = ['provider', 'readSource', 'freshness', 'sourceSymbol', 'lastSuccessAt', 'lastBackfilledTo'];
/** The stock whose headline feed the proxy fails. */
const FAILING = 'MSFT';

describe('GET /stock/{symbol}/news', () => {
  let stack: NewsStack;
  let client: ReturnType<typeof newsClient>;
  let pending: Data;
  let ingestedAt: number;

  beforeAll(async () => {
    stack = await startNewsStack();
    client = newsClient(stack.t, (await makeAccount(stack.t, { tier: 'pro' })).key);
    stack.upstream.fail(`/feeds/headline?s=${FAILING}`);
    ingestedAt = Date.now();
    await runNewsJob(stack.t, 'news.ingest');
    pending = await stockNews('AAPL', '?limit=100');
    await runNewsJob(stack.t, 'news.analyse');
  });
  afterAll(() => stack?.close());

  async function stockNews(symbol: string, query = ''): Promise<Data> {
    return (await client.ok(`/stock/${symbol}/news${query}`, 1)).body.data;
  }
  const headlinesOf = (yahooSymbol: string) => stack.news.headlines.items(stack.sim.world.markets.listing(yahooSymbol)!, stack.clock.at);
  const linkedIds = async (assetId: number): Promise<number[]> =>
    (await stack.t.db.query(`SELECT news_id FROM news_item_assets WHERE asset_id = $1 ORDER BY published_at DESC, news_id DESC`, [assetId])).map((row: Data) =>
      Number(row.news_id),
    );

  it("answers the contract's body: the stock, its headline feed's state read from our store, items and paging", async () => {
    const body = await stockNews('AAPL');
    expect(Object.keys(body).sort()).toEqual([...BODY_KEYS].sort());
    const asset = (await client.ok('/assets/AAPL', 1)).body.data;
    expect(body.asset).toEqual({ id: asset.id, symbol: 'AAPL', stockCode: 'AAPL-US', name: asset.name, market: 'US' });
    expect(Object.keys(body.source).sort()).toEqual([...SOURCE_KEYS].sort());
    const oldest = Math.min(...headlinesOf('AAPL').map((item) => item.publishedAt));
    expect(body.source).toEqual({
      provider: 'yahoo-finance',
      readSource: 'db',
      freshness: 'fresh',
      sourceSymbol: 'AAPL',
      lastSuccessAt: expect.stringMatching(ISO_MS),
      lastBackfilledTo: new Date(oldest).toISOString(),
    });
    expect(Date.parse(body.source.lastSuccessAt)).toBeGreaterThanOrEqual(ingestedAt - 1000);
    expect({ page: body.page, limit: body.limit, errors: body.errors }).toEqual({ page: 1, limit: 20, errors: [] });
  });

  it('lists every item linked to the stock, its own headlines and the outlets that name it, newest first', async () => {
    const body = await stockNews('AAPL', '?limit=100');
    expect(body.hasMore).toBe(false);
    expect(body.items.map((item: Data) => item.id)).toEqual(await linkedIds(body.asset.id));
    expectNewestFirst(body.items);
    const urls = new Set(body.items.map((item: Data) => item.url));
    const headlines = headlinesOf('AAPL');
    expect(headlines.length).toBeGreaterThan(0);
    expect(headlines.map((item) => canonicalUrl(item.link)).filter((url) => !urls.has(url))).toEqual([]);
    for (const item of body.items) {
      expect(Object.keys(item).sort()).toEqual([...STOCK_NEWS_ITEM_KEYS].sort());
      expect(item.publishedAt).toMatch(ISO_MS);
      for (const asset of item.assets) expect(Object.keys(asset).sort()).toEqual(NEWS_ASSET_KEYS);
      expect({ id: item.id, linked: item.assetLinked, aapl: item.assets.some((a: Data) => a.id === body.asset.id) }).toEqual({
        id: item.id,
        linked: true,
        aapl: true,
      });
    }
    const own = body.items.filter((item: Data) => headlines.some((headline) => canonicalUrl(headline.link) === item.url && headline.kind !== 'release'));
    for (const item of own) expect({ source: item.source, publisher: item.publisher }).toEqual({ source: 'yahoo-finance', publisher: 'Yahoo Finance' });
  });

  it('reads a stock by bare ticker, stock code or any case alike, and names the feed by its Yahoo symbol', async () => {
    const bare = await stockNews('AAPL');
    expect(await stockNews('AAPL-US')).toEqual(bare);
    expect(await stockNews('aapl')).toEqual(bare);
    const tencent = await stockNews('0700-HK');
    expect(tencent.asset).toMatchObject({ symbol: '0700', stockCode: '0700-HK', market: 'HK' });
    expect(tencent.source).toMatchObject({ sourceSymbol: '0700.HK', freshness: 'fresh' });
    expect(await stockNews('0700')).toEqual(tencent);
  });

  it('marks items pending before analysis and missing once the English-only analyser has run', async () => {
    const analysed = await stockNews('AAPL', '?limit=100');
    expect(pending.items.map((item: Data) => item.id)).toEqual(analysed.items.map((item: Data) => item.id));
    for (const item of pending.items) expect([item.id, item.translationStatus, item.translationReady]).toEqual([item.id, 'pending', false]);
    for (const item of analysed.items) expect([item.id, item.translationStatus, item.translationReady]).toEqual([item.id, 'missing', false]);
  });

  it('pages with limit 1 to 100, hasMore from one probe row; 0 and 101 are 400 naming limit, unbilled', async () => {
    const whole = (await stockNews('AAPL', '?limit=100')).items.map((item: Data) => item.id);
    expect(whole.length).toBeGreaterThan(1);
    const exact = await stockNews('AAPL', `?limit=${whole.length}`);
    expect({ n: exact.items.length, hasMore: exact.hasMore }).toEqual({ n: whole.length, hasMore: false });
    const short = await stockNews('AAPL', `?limit=${whole.length - 1}`);
    expect({ n: short.items.length, hasMore: short.hasMore }).toEqual({ n: whole.length - 1, hasMore: true });
    const last = await stockNews('AAPL', `?limit=1&page=${whole.length}`);
    expect({ ids: last.items.map((item: Data) => item.id), page: last.page, limit: last.limit, hasMore: last.hasMore }).toEqual({
      ids: [whole[whole.length - 1]],
      page: whole.length,
      limit: 1,
      hasMore: false,
    });
    await client.expectInvalid('/stock/AAPL/news?limit=0', 'limit');
    await client.expectInvalid('/stock/AAPL/news?limit=101', 'limit');
    await client.expectInvalid('/stock/AAPL/news?page=0', 'page');
  });

  it('answers an ETF, a coin or an unknown symbol 404 MARKET_ASSET_NOT_FOUND, unbilled', async () => {
    const [etf] = await stack.t.db.query(`SELECT symbol FROM assets WHERE type = 'ETF' AND listed ORDER BY id LIMIT 1`);
    for (const symbol of [etf.symbol, 'BTC', 'NOSUCHSTOCK']) await client.expectError(`/stock/${symbol}/news`, 404, { code: ASSET_NOT_FOUND });
  });

  it("is stale with one error entry when the stock's feed failed and was never read, its other items still served", async () => {
    const body = await stockNews(FAILING, '?limit=100');
    expect(body.source).toEqual({
      provider: 'yahoo-finance',
      readSource: 'db',
      freshness: 'stale',
      sourceSymbol: FAILING,
      lastSuccessAt: null,
      lastBackfilledTo: null,
    });
    expect(body.errors).toEqual([{ section: expect.any(String), endpoint: expect.any(String), message: expect.any(String) }]);
    expect(JSON.stringify(body.errors)).not.toMatch(/127\.0\.0\.1|simulated failure/);
    expect(body.items.map((item: Data) => item.id)).toEqual(await linkedIds(body.asset.id));
    const headlines = headlinesOf(FAILING).filter((item) => item.kind !== 'release');
    const urls = new Set(body.items.map((item: Data) => item.url));
    expect(headlines.filter((item) => urls.has(canonicalUrl(item.link)))).toEqual([]);
  });

  it('turns stale once NEWS_STOCK_FRESH_MS (1 hour) has passed since the last good read', async () => {
    const [feed] = await stack.t.db.query(`SELECT name, last_success_at FROM news_feeds WHERE source_symbol = 'AAPL'`);
    const readAt = new Date(Date.now() - 61 * 60_000);
    await stack.t.db.query(`UPDATE news_feeds SET last_success_at = $2 WHERE name = $1`, [feed.name, readAt]);
    try {
      const body = await stockNews('AAPL');
      expect(body.source).toMatchObject({ freshness: 'stale', lastSuccessAt: readAt.toISOString() });
      expect(body.errors).toEqual([]);
    } finally {
      await stack.t.db.query(`UPDATE news_feeds SET last_success_at = $2 WHERE name = $1`, [feed.name, feed.last_success_at]);
    }
    expect((await stockNews('AAPL')).source.freshness).toBe('fresh');
  });
});
