import { makeAccount } from '../support/factories';
import { expectNewestFirst, expectNewsItem, uniqueIds } from '../support/news-contract';
import { ENGLISH_DESKS } from '../../src/simulator/news/news-feeds';
import { FeedView, newsClient, NewsStack, runNewsJob, startNewsStack } from '../support/news-stack';
import { ASSET_NOT_FOUND } from '../support/stocks-stack';

type Data = Record<string, any>;

const sorted = (ids: number[]) => [...ids].sort((a, b) => a - b);

/** Bitcoin in a few English headlines (small pages to walk), and a story naming a coin and a company (two linked assets). */
const wish = (view: FeedView) => {
  const english = ENGLISH_DESKS.flatMap((desk) => view.get(desk) ?? []);
  return english.filter((item) => item.story.coin?.id === 'bitcoin').length >= 3 && english.some((item) => item.story.kind === 'partnership');
};

describe('GET /news (the feed, its filters and locales) and GET /news/{id}', () => {
  let stack: NewsStack;
  let client: ReturnType<typeof newsClient>;
  let all: Data[];

  beforeAll(async () => {
    stack = await startNewsStack({ wish });
    client = newsClient(stack.t, (await makeAccount(stack.t, { tier: 'pro' })).key);
    await runNewsJob(stack.t, 'news.ingest');
    await runNewsJob(stack.t, 'news.analyse');
    all = await client.walk('/news', 100, 1);
  });
  afterAll(() => stack?.close());

  const ids = async (sql: string, params: unknown[] = []): Promise<number[]> =>
    sorted((await stack.t.db.query(sql, params)).map((row: Data) => Number(row.id)));
  const linkedTo = (where: string, params: unknown[]) =>
    ids(`SELECT DISTINCT l.news_id AS id FROM news_item_assets l JOIN assets s ON s.id = l.asset_id WHERE ${where}`, params);

  describe('paging', () => {
    it('pages every stored item newest first, with total null and no item twice', async () => {
      expect(sorted(uniqueIds(all))).toEqual(await ids(`SELECT id FROM news_items`));
      expectNewestFirst(all);
      for (const item of all) expectNewsItem(item, { analysed: true });
    });

    it('finds hasMore with one probe row: false on an exactly full last page, true one row short of it', async () => {
      const btc = await client.walk('/news?assetSymbol=BTC', 100, 1);
      expect(btc.length).toBeGreaterThan(2);
      expect(btc.length).toBeLessThanOrEqual(100);
      const exact = await client.list(`/news?assetSymbol=BTC&limit=${btc.length}`, 1);
      expect({ items: exact.items.length, hasMore: exact.hasMore }).toEqual({ items: btc.length, hasMore: false });
      const short = await client.list(`/news?assetSymbol=BTC&limit=${btc.length - 1}`, 1);
      expect({ items: short.items.length, hasMore: short.hasMore }).toEqual({ items: btc.length - 1, hasMore: true });
      const rest = await client.list(`/news?assetSymbol=BTC&limit=${btc.length - 1}&page=2`, 1);
      expect({ items: rest.items.map((i: Data) => i.id), hasMore: rest.hasMore }).toEqual({ items: [btc[btc.length - 1].id], hasMore: false });
      const past = await client.list(`/news?assetSymbol=BTC&limit=${btc.length}&page=2`, 1);
      expect({ items: past.items, hasMore: past.hasMore }).toEqual({ items: [], hasMore: false });
      // Small pages walk the same rows in the same order.
      expect((await client.walk('/news?assetSymbol=BTC', 5, 1)).map((i) => i.id)).toEqual(btc.map((i) => i.id));
    });

    it('takes limit 100 and refuses 101 or 0, a bad type, category or locale, or a page past 10,000 rows, with 400 naming the field, unbilled', async () => {
      expect((await client.list('/news?limit=100', 1)).items.length).toBe(Math.min(100, all.length));
      await client.expectInvalid('/news?limit=101', 'limit');
      await client.expectInvalid('/news?limit=0', 'limit');
      await client.expectInvalid('/news?type=BOND', 'type');
      await client.expectInvalid('/news?category=hot-1h', 'category');
      await client.expectInvalid('/news?locale=de', 'locale');
      await client.expectInvalid('/news/search?q=bitcoin&locale=pt', 'locale');
      // Offset paging stops at 10,000 rows (contract 4.1 rule 6): page 101 of 100 would start at row 10,000.
      await client.expectInvalid('/news?page=101&limit=100', 'page');
      expect(await client.list('/news?page=100&limit=100', 1)).toMatchObject({ items: [], hasMore: false });
    });
  });

  describe('filters', () => {
    it('keeps only, and every, item linked to assetSymbol, named in any case or as a stock code', async () => {
      const btc = await client.walk('/news?assetSymbol=BTC', 100, 1);
      for (const item of btc) expect({ id: item.id, btc: item.assets.some((a: Data) => a.symbol === 'BTC') }).toEqual({ id: item.id, btc: true });
      expect(sorted(btc.map((i) => i.id))).toEqual(await linkedTo(`s.symbol = 'BTC' AND s.type = 'CRYPTO'`, []));
      expect((await client.walk('/news?assetSymbol=btc', 100, 1)).map((i) => i.id)).toEqual(btc.map((i) => i.id));
      const aapl = await client.walk('/news?assetSymbol=AAPL', 100, 1);
      expect(aapl.length).toBeGreaterThan(0);
      expect((await client.walk('/news?assetSymbol=AAPL-US', 100, 1)).map((i) => i.id)).toEqual(aapl.map((i) => i.id));
    });

    it('answers an unknown assetSymbol 404 MARKET_ASSET_NOT_FOUND, naming assetSymbol, unbilled', async () => {
      const res = await client.expectError('/news?assetSymbol=NOSUCHCOIN', 404, { code: ASSET_NOT_FOUND });
      expect(res.body.msg).toMatch(/^assetSymbol\b/);
    });

    it.each(['STOCK', 'CRYPTO'])('type=%s keeps only, and every, item linked to an asset of that class', async (type) => {
      const typed = await client.walk(`/news?type=${type}`, 100, 1);
      expect(typed.length).toBeGreaterThan(0);
      expectNewestFirst(typed);
      for (const item of typed) expect({ id: item.id, typed: item.assets.some((a: Data) => a.type === type) }).toEqual({ id: item.id, typed: true });
      expect(sorted(typed.map((i) => i.id))).toEqual(await linkedTo(`s.type = $1`, [type]));
    });
  });

  describe('locales', () => {
    it('serves the English analysis with translationReady false for a locale the built-in analyser does not write', async () => {
      const en = await client.list('/news?limit=30', 1);
      const fr = await client.list('/news?limit=30&locale=fr', 1);
      expect(fr.items.map((i: Data) => i.id)).toEqual(en.items.map((i: Data) => i.id));
      en.items.forEach((item: Data, k: number) => {
        expect({ id: item.id, ready: item.translationReady, locale: item.analysis.locale }).toEqual({ id: item.id, ready: true, locale: 'en' });
        expect(fr.items[k]).toEqual({ ...item, translationReady: false });
      });
      const detail = (await client.ok(`/news/${en.items[0].id}?locale=fr`, 1)).body.data;
      expect(detail).toEqual({ ...en.items[0], translationReady: false });
    });
  });

  describe('GET /news/{id}', () => {
    it('serves one item exactly as the feed does, for 1 credit', async () => {
      for (const item of [all[0], all[all.length - 1]]) expect((await client.ok(`/news/${item.id}`, 1)).body.data).toEqual(item);
    });

    it('answers an unknown id 404 NOT_FOUND and a malformed one 400 naming id, unbilled', async () => {
      const [{ max }] = await stack.t.db.query(`SELECT max(id)::int AS max FROM news_items`);
      await client.expectError(`/news/${max + 1000}`, 404, { code: 'NOT_FOUND' });
      for (const id of ['abc', '0', '-1', '1.5', '99999999999']) await client.expectInvalid(`/news/${id}`, 'id');
    });

    it('says the id bound the document states: 2147483647 is a 404, 2147483648 a 400 naming the range', async () => {
      await client.expectError('/news/2147483647', 404, { code: 'NOT_FOUND' });
      await client.expectError('/news/2147483648', 400, { code: 'VALIDATION_ERROR', msg: 'id: must be an integer from 1 to 2147483647, got "2147483648"' });
    });

    it('scopes an item to one linked asset with assetSymbol: it alone listed and named as affected', async () => {
      const multi = all.filter((item) => item.assets.length >= 2);
      expect(multi.length).toBeGreaterThan(0);
      for (const item of multi.slice(0, 5)) {
        for (const asset of item.assets) {
          const scoped = (await client.ok(`/news/${item.id}?assetSymbol=${encodeURIComponent(asset.symbol)}`, 1)).body.data;
          expect(scoped).toEqual({ ...item, assets: [asset], analysis: { ...item.analysis, affectedAssets: expect.any(String) } });
          const others = item.assets.filter((other: Data) => other.id !== asset.id).map((other: Data) => other.symbol);
          const named = (symbol: string) =>
            new RegExp(`(^|[^A-Za-z0-9])${symbol.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}([^A-Za-z0-9]|$)`).test(scoped.analysis.affectedAssets);
          expect({ id: item.id, asset: asset.symbol, self: named(asset.symbol), others: others.filter(named) }).toEqual({
            id: item.id,
            asset: asset.symbol,
            self: true,
            others: [],
          });
        }
      }
    });

    it('answers an asset the item is not linked to 404 NOT_FOUND and an unknown asset 404 MARKET_ASSET_NOT_FOUND', async () => {
      const unlinked = all.find((item) => item.assets.length === 0 || !item.assets.some((a: Data) => a.symbol === 'ETH'))!;
      await client.expectError(`/news/${unlinked.id}?assetSymbol=ETH`, 404, { code: 'NOT_FOUND' });
      await client.expectError(`/news/${unlinked.id}?assetSymbol=NOSUCHCOIN`, 404, { code: ASSET_NOT_FOUND });
    });
  });
});
