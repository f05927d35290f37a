import { JobRunResult } from '../../src/jobs/job.types';
import { canonicalUrl } from '../../src/providers/feeds/canonical-url';
import { ENGLISH_DESKS, OUTLET_FEEDS } from '../../src/simulator/news/news-feeds';
import { OutletItem } from '../../src/simulator/news/outlet-items';
import { makeAccount } from '../support/factories';
import { assetlessItems, BUILTIN_DIRECTION_THRESHOLD, expectNewestFirst, expectNewsItem, syndicatedPairs, uniqueIds } from '../support/news-contract';
import { FeedView, newsClient, NewsStack, runNewsJob, startNewsStack, WishContext } from '../support/news-stack';

type Data = Record<string, any>;

const englishItems = (view: FeedView) => ENGLISH_DESKS.flatMap((desk) => view.get(desk) ?? []);
const wireItems = (view: FeedView) => view.get('sim-wire') ?? [];
const zhCoinItems = (view: FeedView) => (view.get('sim-zh') ?? []).filter((item) => item.story.coin !== null);

/** A wire release that the company's own Yahoo headline feed republishes (same article, the wire's link with Yahoo's tracking). */
const republished = (item: OutletItem, { news, at }: WishContext): boolean =>
  news.headlines.items(item.story.listing!, at).some((headline) => headline.guid === `yahoo-finance-${item.guid}`);

/**
 * The feeds at the pinned instant show every case this suite checks: a headline naming "Bitcoin (BTC)", a linker
 * trap, the S&P 500 macro story (an index, not S&P Global), an article syndicated under two sources, a press
 * release cited on HKEX, one republished by a listed stock's headline feed, and Chinese flash news naming a coin
 * with its ticker in full-width brackets.
 */
const wish = (view: FeedView, context: WishContext) =>
  englishItems(view).some((item) => item.title.includes('Bitcoin (BTC)')) &&
  englishItems(view).some((item) => item.story.kind === 'guard') &&
  englishItems(view).some((item) => item.title.startsWith('S&P 500')) &&
  syndicatedPairs(view).length > 0 &&
  wireItems(view).some((item) => item.story.listing?.exchange === 'HKG') &&
  wireItems(view).some((item) => context.listedStocks.has(item.story.listing!.symbol) && republished(item, context)) &&
  zhCoinItems(view).some((item) => item.title.includes('（'));

describe('news ingestion through the simulated feeds (built-in analyser)', () => {
  let stack: NewsStack;
  let client: ReturnType<typeof newsClient>;
  let view: FeedView;
  let context: WishContext;
  let ingest: JobRunResult;
  let analyse: JobRunResult;
  let pending: Data[];
  let items: Data[];
  let byUrl: Map<string, Data[]>;

  beforeAll(async () => {
    stack = await startNewsStack({ wish });
    view = stack.view();
    context = { news: stack.news, at: stack.clock.at, listedStocks: new Set() };
    client = newsClient(stack.t, (await makeAccount(stack.t, { tier: 'pro' })).key);
    ingest = await runNewsJob(stack.t, 'news.ingest');
    pending = await client.walk('/news', 100, 1);
    analyse = await runNewsJob(stack.t, 'news.analyse');
    items = await client.walk('/news', 100, 1);
    byUrl = new Map();
    for (const item of items) byUrl.set(item.url, [...(byUrl.get(item.url) ?? []), item]);
  });
  afterAll(() => stack?.close());

  const storedCount = async (): Promise<number> => Number((await stack.t.db.query(`SELECT count(*)::int AS n FROM news_items`))[0].n);
  const storedFrom = (item: OutletItem): Data[] => byUrl.get(canonicalUrl(item.link) as string) ?? [];
  const catalogueIds = async (column: 'coingecko_id' | 'yahoo_symbol', keys: string[]): Promise<Map<string, number>> => {
    const rows: Data[] = await stack.t.db.query(`SELECT id, ${column} AS key FROM assets WHERE ${column} = ANY($1::text[])`, [keys]);
    return new Map(rows.map((row) => [row.key, Number(row.id)]));
  };

  it('reads every feed without a failure and stores what it read', async () => {
    expect(ingest.outcome).toMatchObject({ failures: 0 });
    expect(ingest.outcome?.rows).toBe(await storedCount());
    const feeds: Data[] = await stack.t.db.query(`SELECT name, kind, last_error, last_success_at FROM news_feeds`);
    expect(
      feeds
        .filter((feed) => feed.kind === 'outlet')
        .map((feed) => feed.name)
        .sort(),
    ).toEqual(OUTLET_FEEDS.map((feed) => feed.name).sort());
    expect(feeds.filter((feed) => feed.last_error !== null || feed.last_success_at === null)).toEqual([]);
  });

  it('serves every item before news.analyse with sentiment and analysis null (pending), newest first', async () => {
    expect(pending.length).toBe(await storedCount());
    uniqueIds(pending);
    expectNewestFirst(pending);
    for (const item of pending) expectNewsItem(item, { analysed: false });
  });

  it("serves each outlet item once under its feed's name, at its UTC publish time, by its author", () => {
    const reprinted = wireItems(view).filter((item) => republished(item, context));
    // An article two feeds carry is stored under whichever feed was read first.
    const shared = new Set([...syndicatedPairs(view).flatMap(({ original, copy }) => [original, copy]), ...reprinted]);
    for (const [outlet, shown] of view) {
      for (const item of shown) {
        const stored = storedFrom(item);
        expect({ outlet, title: item.title, stored: stored.length }).toEqual({ outlet, title: item.title, stored: 1 });
        if (shared.has(item)) continue;
        expect({ source: stored[0].source, publishedAt: stored[0].publishedAt, publisher: stored[0].publisher }).toEqual({
          source: outlet,
          publishedAt: new Date(item.publishedAt).toISOString(),
          publisher: item.author ?? outlet,
        });
      }
    }
  });

  it('removes tracking parameters from the links it stores', () => {
    const tracked = (view.get('sim-cointelegraph') ?? []).filter((item) => !item.story.syndicated);
    expect(tracked.length).toBeGreaterThan(0);
    for (const item of tracked) {
      expect(item.link).toContain('utm_source=');
      expect(storedFrom(item).map((stored) => stored.url)).toEqual([item.link.split('?')[0]]);
    }
    for (const item of items)
      expect({ url: item.url, tracking: /[?&](utm_[a-z]+|fbclid|gclid)=|#/i.test(item.url) }).toEqual({ url: item.url, tracking: false });
  });

  it('stores an article once when two feeds link to it, and the second feed still reads fine', async () => {
    const pairs = syndicatedPairs(view);
    for (const { original, copy } of pairs) {
      expect(canonicalUrl(copy.link)).toBe(canonicalUrl(original.link));
      expect(copy.link).not.toBe(original.link);
      expect(storedFrom(original).map((item) => item.source)).toEqual([expect.stringMatching(/^sim-(coindesk|theblock)$/)]);
    }
    const [state]: Data[] = await stack.t.db.query(`SELECT last_error, last_success_at FROM news_feeds WHERE name = 'sim-theblock'`);
    expect(state).toEqual({ last_error: null, last_success_at: expect.any(Date) });
  });

  it("links a wire release that a stock's headline feed republishes once, to that stock", async () => {
    const reprinted = wireItems(view).filter((item) => republished(item, context));
    expect(reprinted.length).toBeGreaterThan(0);
    const stocks = await catalogueIds(
      'yahoo_symbol',
      reprinted.map((item) => item.story.listing!.symbol),
    );
    const listed = reprinted.filter((release) => stocks.has(release.story.listing!.symbol));
    expect(listed.length).toBeGreaterThan(0);
    for (const item of listed) {
      const stored = storedFrom(item);
      expect(stored.length).toBe(1);
      expect(stored[0].assets.map((asset: Data) => asset.id)).toContain(stocks.get(item.story.listing!.symbol));
    }
  });

  it('links an item whose title names "Bitcoin (BTC)" to Bitcoin', () => {
    const named = englishItems(view).filter((item) => item.title.includes('Bitcoin (BTC)'));
    expect(named.length).toBeGreaterThan(0);
    for (const item of named) {
      const [stored] = storedFrom(item);
      expect({ title: item.title, linked: stored.assetLinked, btc: stored.assets.filter((a: Data) => a.symbol === 'BTC').map((a: Data) => a.type) }).toEqual({
        title: item.title,
        linked: true,
        btc: ['CRYPTO'],
      });
    }
  });

  it('links no asset to the linker traps ("one of the", "AI", "solution", "near", "dot-com")', () => {
    const traps = englishItems(view).filter((item) => item.story.kind === 'guard');
    expect(traps.length).toBeGreaterThan(0);
    for (const item of traps) expect({ title: item.title, assets: storedFrom(item)[0].assets }).toEqual({ title: item.title, assets: [] });
  });

  it('links no asset to stories that name none (an index such as the S&P 500 is not S&P Global)', () => {
    const assetless = assetlessItems(view);
    expect(assetless.some((item) => item.title.startsWith('S&P 500'))).toBe(true);
    for (const item of assetless) {
      const [stored] = storedFrom(item);
      expect({ title: item.title, assets: stored.assets.map((a: Data) => a.symbol), assetLinked: stored.assetLinked }).toEqual({
        title: item.title,
        assets: [],
        assetLinked: false,
      });
    }
  });

  it('links each press release to the company it is about and to no other stock (an exchange citation is not the exchange)', async () => {
    const releases = wireItems(view);
    const stocks = await catalogueIds(
      'yahoo_symbol',
      releases.map((item) => item.story.listing!.symbol),
    );
    expect(releases.some((item) => item.story.listing!.exchange === 'HKG' && stocks.has(item.story.listing!.symbol))).toBe(true);
    for (const item of releases) {
      const [stored] = storedFrom(item);
      const expected = stocks.has(item.story.listing!.symbol) ? [stocks.get(item.story.listing!.symbol)] : [];
      const linkedStocks = stored.assets.filter((a: Data) => a.type === 'STOCK').map((a: Data) => a.id);
      expect({ title: item.title, stocks: linkedStocks }).toEqual({ title: item.title, stocks: expected });
    }
  });

  it('links Chinese flash news to the coin whose ticker it brackets, in ASCII or full-width brackets', async () => {
    const flashes = zhCoinItems(view);
    const coins = await catalogueIds(
      'coingecko_id',
      flashes.map((item) => item.story.coin!.id),
    );
    for (const item of flashes.filter((flash) => coins.has(flash.story.coin!.id))) {
      const [stored] = storedFrom(item);
      expect({ title: item.title, coin: stored.assets.some((a: Data) => a.id === coins.get(item.story.coin!.id)) }).toEqual({ title: item.title, coin: true });
    }
  });

  it('analyses every item in English with the built-in analyser: sentiment in [-1, 1], direction from its sign', async () => {
    expect(items.map((item) => item.id).sort()).toEqual(pending.map((item) => item.id).sort());
    for (const item of items) {
      expectNewsItem(item, { analysed: true });
      const direction = item.sentiment > BUILTIN_DIRECTION_THRESHOLD ? 'bullish' : item.sentiment < -BUILTIN_DIRECTION_THRESHOLD ? 'bearish' : 'neutral';
      expect({ id: item.id, locale: item.analysis.locale, translationReady: item.translationReady, direction: item.analysis.direction }).toEqual({
        id: item.id,
        locale: 'en',
        translationReady: true,
        direction,
      });
    }
    const provenance: Data[] = await stack.t.db.query(`SELECT DISTINCT provider, locale FROM news_analyses`);
    expect(provenance).toEqual([{ provider: 'builtin', locale: 'en' }]);
  });

  it('reports as many rows from news.analyse as the analyses it stored', async () => {
    const [{ n }] = await stack.t.db.query(`SELECT count(*)::int AS n FROM news_analyses`);
    expect(n).toBe(items.length);
    expect(analyse.outcome).toMatchObject({ rows: n, failures: 0 });
  });
});
