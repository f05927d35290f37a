import { ENGLISH_DESKS } from '../../src/simulator/news/news-feeds';
import { makeAccount } from '../support/factories';
import { expectNewestFirst, expectNewsItem, uniqueIds } from '../support/news-contract';
import { FeedView, newsClient, NewsStack, runNewsJob, startNewsStack } from '../support/news-stack';
import { minus } from '../support/stocks-stack';

type Data = Record<string, any>;

const sorted = (ids: number[]) => [...ids].sort((a, b) => a - b);
const idsOf = (items: Data[]) => sorted(uniqueIds(items));
const textOf = (item: Data) => `${item.title}\n${item.summary}`.toLowerCase();
const search = (q: string, extra = '') => `/news/search?q=${encodeURIComponent(q)}${extra}`;

/** English headlines naming Bitcoin (the misspelling's target) and Chinese flash news naming 比特币. */
const wish = (view: FeedView) =>
  ENGLISH_DESKS.some((desk) => (view.get(desk) ?? []).some((item) => /\bBitcoin\b/.test(item.title))) &&
  (view.get('sim-zh') ?? []).some((item) => item.title.includes('比特币'));

describe('GET /news/search', () => {
  let stack: NewsStack;
  let client: ReturnType<typeof newsClient>;

  beforeAll(async () => {
    stack = await startNewsStack({ wish });
    client = newsClient(stack.t, (await makeAccount(stack.t, { tier: 'pro' })).key);
    await runNewsJob(stack.t, 'news.ingest');
    await runNewsJob(stack.t, 'news.analyse');
  });
  afterAll(() => stack?.close());

  /** Every match, page after page at the largest page size. */
  const all = (q: string, extra = '') => client.walk(search(q, extra), 50, 2);
  const idsWhere = async (sql: string, params: unknown[]): Promise<number[]> =>
    sorted((await stack.t.db.query(`SELECT id FROM news_items WHERE ${sql}`, params)).map((row: Data) => Number(row.id)));

  describe('parameters and billing', () => {
    it('refuses q of 1 or 121 characters (after trimming) or none, and limit 51, with 400 naming the field, unbilled', async () => {
      await client.expectInvalid(search('b'), 'q');
      await client.expectInvalid(search('  b  '), 'q');
      await client.expectInvalid(search('b'.repeat(121)), 'q');
      await client.expectInvalid('/news/search', 'q');
      await client.expectInvalid(search('bitcoin', '&limit=51'), 'limit');
      await client.expectInvalid(search('bitcoin', '&sort=oldest'), 'sort');
    });

    it('takes q of 2 and 120 characters and limit 50', async () => {
      await client.ok(search('ab'), 2);
      await client.ok(search(`bitcoin ${'x'.repeat(112)}`), 2);
      const page = await client.list(search('today', '&limit=50'), 2);
      expect(page).toMatchObject({ page: 1, limit: 50, total: null, hasMore: true });
      expect(page.items.length).toBe(50);
    });

    it('costs 2 credits a search and 1 a feed page', async () => {
      const before = await client.balance();
      await client.ok(search('bitcoin'), 2);
      await client.ok('/news?limit=5', 1);
      // The balance read itself costs 1.
      expect(await client.balance()).toBe(minus(before, 2 + 1 + 1));
    });
  });

  describe('query syntax', () => {
    it('finds a quoted phrase: exactly the items that contain it, a subset of the same words unquoted', async () => {
      const phrase = 'price target';
      const found = await all(`"${phrase}"`);
      expect(found.length).toBeGreaterThan(0);
      for (const item of found) expect({ id: item.id, phrase: textOf(item).includes(phrase) }).toEqual({ id: item.id, phrase: true });
      expect(idsOf(found)).toEqual(await idsWhere(`title || ' ' || summary ILIKE $1`, [`%${phrase}%`]));
      const loose = idsOf(await all(phrase));
      expect(idsOf(found).filter((id) => !loose.includes(id))).toEqual([]);
      for (const item of found) expectNewsItem(item, { analysed: true });
    });

    it('answers a OR b with the union of a and b', async () => {
      const [either, ups, downs] = await Promise.all([all('upgrades OR downgrades'), all('upgrades'), all('downgrades')]);
      expect(ups.length).toBeGreaterThan(0);
      expect(downs.length).toBeGreaterThan(0);
      expect(idsOf(either)).toEqual(sorted([...new Set([...idsOf(ups), ...idsOf(downs)])]));
      expect(idsOf(either).length).toBeGreaterThan(Math.max(ups.length, downs.length));
    });

    it('answers a -b with the items of a that do not match b', async () => {
      const [today, climbing, excluded] = await Promise.all([all('today'), all('climbing'), all('today -climbing')]);
      const climbingIds = new Set(idsOf(climbing));
      expect(idsOf(today).some((id) => climbingIds.has(id))).toBe(true);
      expect(idsOf(excluded)).toEqual(idsOf(today).filter((id) => !climbingIds.has(id)));
      expect(excluded.length).toBeGreaterThan(0);
      for (const item of excluded) expect({ id: item.id, climbing: /\bclimb/.test(textOf(item)) }).toEqual({ id: item.id, climbing: false });
    });

    it('applies the feed filters to a search: type=STOCK keeps only items linked to a stock', async () => {
      const stocks = await all('today', '&type=STOCK');
      expect(stocks.length).toBeGreaterThan(0);
      for (const item of stocks) expect({ id: item.id, stock: item.assets.some((a: Data) => a.type === 'STOCK') }).toEqual({ id: item.id, stock: true });
    });
  });

  describe('sort', () => {
    // Upgrades say "upside" in the title; downgrades say "price target" only in the summary.
    const q = 'upside OR target';

    it('orders by publish time by default (latest)', async () => {
      const latest = await all(q);
      expect(latest.length).toBeGreaterThan(2);
      expectNewestFirst(latest);
      expect(idsOf(await all(q, '&sort=latest'))).toEqual(idsOf(latest));
    });

    it('ranks by match quality with sort=relevance: a title match above a summary-only match', async () => {
      const [latest, relevant] = await Promise.all([all(q), all(q, '&sort=relevance')]);
      expect(idsOf(relevant)).toEqual(idsOf(latest));
      const inTitle = relevant.map((item, k) => ({ k, title: /\bupside\b/i.test(item.title), summary: /\btarget\b/i.test(item.summary) }));
      const titled = inTitle.filter((entry) => entry.title).map((entry) => entry.k);
      const summaryOnly = inTitle.filter((entry) => !entry.title && entry.summary).map((entry) => entry.k);
      expect(titled.length).toBeGreaterThan(0);
      expect(summaryOnly.length).toBeGreaterThan(0);
      expect(Math.max(...titled)).toBeLessThan(Math.min(...summaryOnly));
      // And in the order of PostgreSQL's own rank of the stored text.
      const ranks: Data[] = await stack.t.db.query(
        `SELECT id, ts_rank_cd(search, websearch_to_tsquery('english', $1), 32) AS rank FROM news_items WHERE id = ANY($2::int[])`,
        [q, relevant.map((item) => item.id)],
      );
      const rankOf = new Map(ranks.map((row) => [Number(row.id), Number(row.rank)]));
      relevant.slice(1).forEach((item, k) => expect({ k, ok: rankOf.get(item.id)! <= rankOf.get(relevant[k].id)! }).toEqual({ k, ok: true }));
    });
  });

  describe('text without words to stem, and typos', () => {
    it('matches Chinese text as a substring: 比特币 finds the Chinese desk items that contain it', async () => {
      const found = await all('比特币');
      expect(found.length).toBeGreaterThan(0);
      for (const item of found)
        expect({ id: item.id, source: item.source, has: textOf(item).includes('比特币') }).toEqual({ id: item.id, source: 'sim-zh', has: true });
      expect(idsOf(found)).toEqual(await idsWhere(`title LIKE $1 OR summary LIKE $1`, ['%比特币%']));
    });

    it('finds the Bitcoin headlines for the misspelling "bitcoinn"', async () => {
      const found = (await client.list(search('bitcoinn', '&limit=50'), 2)).items as Data[];
      expect(found.length).toBeGreaterThan(0);
      for (const item of found) expect({ title: item.title, bitcoin: /bitcoin/i.test(item.title) }).toEqual({ title: item.title, bitcoin: true });
      const named = ENGLISH_DESKS.flatMap((desk) => stack.view().get(desk) ?? []).filter((item) => /\bBitcoin\b/.test(item.title));
      const titles = new Set(found.map((item) => item.title));
      expect(named.filter((item) => !titles.has(item.title)).map((item) => item.title)).toEqual([]);
    });

    it('pages a misspelling like any search: small pages walk the same items as one large page', async () => {
      const onePage = (await client.list(search('bitcoinn', '&limit=50'), 2)).items as Data[];
      expect(onePage.length).toBeGreaterThan(3);
      expect((await client.walk(search('bitcoinn'), 3, 2)).map((item) => item.id)).toEqual(onePage.map((item) => item.id));
    });
  });
});
