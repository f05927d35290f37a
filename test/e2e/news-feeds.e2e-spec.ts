import { NewsIngestJob } from '../../src/modules/news/jobs/news-ingest.job';
import { canonicalUrl } from '../../src/providers/feeds/canonical-url';
import { BROKEN_FEED_PATH, OUTLET_FEEDS, OutletName } from '../../src/simulator/news/news-feeds';
import { STORY_SLOT_MS } from '../../src/simulator/news/story-stream';
import { createTestApp } from '../support/create-test-app';
import { feedView, NewsStack, runNewsJob, startNewsStack } from '../support/news-stack';
import { testConfig } from '../support/test-env';

type Data = Record<string, any>;

const BROKEN = 'sim-broken';
/** The least interval the settings allow between two reads of a feed; outlets whose `ttl` asks for more wait longer. */
const MIN_INTERVAL_MS = 1_000;
/** Outlets without a `ttl` of their own: due again after MIN_INTERVAL_MS. */
const NO_TTL: OutletName[] = OUTLET_FEEDS.filter((feed) => feed.channel.ttlMinutes === null).map((feed) => feed.name);
const WITH_TTL: OutletName[] = OUTLET_FEEDS.filter((feed) => feed.channel.ttlMinutes !== null).map((feed) => feed.name);

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('news.ingest against failing and unchanged feeds', () => {
  let stack: NewsStack;
  let stockSymbols: string[];

  beforeAll(async () => {
    stack = await startNewsStack({
      env: (upstream) => ({
        NEWS_FEEDS: [...OUTLET_FEEDS.map((feed) => `${feed.name}=${upstream}${feed.path}`), `${BROKEN}=${upstream}${BROKEN_FEED_PATH}`].join(','),
        NEWS_FEED_MIN_INTERVAL_MS: String(MIN_INTERVAL_MS),
        NEWS_STOCK_FEED_INTERVAL_MS: String(MIN_INTERVAL_MS),
      }),
    });
  });
  afterAll(() => stack?.close());

  const feeds = async (): Promise<Map<string, Data>> => {
    const rows: Data[] = await stack.t.db.query(`SELECT * FROM news_feeds`);
    return new Map(rows.map((row) => [row.name, row]));
  };
  const storedUrls = async (): Promise<string[]> => (await stack.t.db.query(`SELECT url FROM news_items ORDER BY url`)).map((row: Data) => row.url);
  /** Canonical URLs of what the given outlets show at `at`, and (unless `outletsOnly`) every stock's headline feed. */
  const shownAt = (at: number, outlets: readonly OutletName[], outletsOnly = false): string[] => {
    const view = feedView(stack.news, at);
    const outletLinks = outlets.flatMap((name) => (view.get(name) ?? []).map((item) => item.link));
    const headlineLinks = outletsOnly
      ? []
      : stockSymbols.flatMap((symbol) => stack.news.headlines.items(stack.sim.world.markets.listing(symbol)!, at).map((item) => item.link));
    return [...outletLinks, ...headlineLinks].map((link) => canonicalUrl(link) as string);
  };
  const union = (...lists: string[][]) => [...new Set(lists.flat())].sort();

  describe('a feed that answers an HTML page', () => {
    let first: Data;

    beforeAll(async () => {
      first = (await runNewsJob(stack.t, 'news.ingest')).outcome!;
      stockSymbols = [...(await feeds()).values()].filter((feed) => feed.kind === 'stock').map((feed) => feed.source_symbol);
    });

    it('records its failure on that feed alone: last_error set, no last success, the run not stopped', async () => {
      expect(first).toMatchObject({ failures: 1 });
      const state = await feeds();
      expect(state.get(BROKEN)).toMatchObject({ last_error: expect.any(String), last_success_at: null, failures: 1, last_attempt_at: expect.any(Date) });
      expect(state.get(BROKEN)!.last_error).not.toMatch(/127\.0\.0\.1|<|moment/i);
      const others = [...state.values()].filter((feed) => feed.name !== BROKEN);
      expect(others.filter((feed) => feed.last_error !== null || feed.last_success_at === null).map((feed) => feed.name)).toEqual([]);
    });

    it('stores every item the other feeds show, each once', async () => {
      expect(await storedUrls()).toEqual(
        union(
          shownAt(
            stack.clock.at,
            OUTLET_FEEDS.map((feed) => feed.name),
          ),
        ),
      );
      expect(first.rows).toBe((await storedUrls()).length);
      const sources: Data[] = await stack.t.db.query(`SELECT DISTINCT source FROM news_items ORDER BY source`);
      expect(sources.map((row) => row.source)).toEqual([...OUTLET_FEEDS.map((feed) => feed.name), 'yahoo-finance'].sort());
    });
  });

  describe('the next runs', () => {
    it('reads a due feed again with a conditional GET: 304, nothing stored, outlets asking a longer ttl left alone', async () => {
      const before = await storedUrls();
      await pause(MIN_INTERVAL_MS + 200);
      stack.news.resetCounters();
      const second = (await runNewsJob(stack.t, 'news.ingest')).outcome!;
      const { requestsByFeed, notModifiedByFeed } = stack.news.counters;
      for (const name of NO_TTL)
        expect({ name, requests: requestsByFeed[name], notModified: notModifiedByFeed[name] }).toEqual({ name, requests: 1, notModified: 1 });
      for (const name of WITH_TTL) expect({ name, requests: requestsByFeed[name] ?? 0 }).toEqual({ name, requests: 0 });
      expect({ requests: requestsByFeed.headline, notModified: notModifiedByFeed.headline }).toEqual({
        requests: stockSymbols.length,
        notModified: stockSymbols.length,
      });
      expect(requestsByFeed.broken).toBe(1);
      expect(second).toMatchObject({ rows: 0, failures: 1, details: { notModified: NO_TTL.length + stockSymbols.length } });
      expect(await storedUrls()).toEqual(before);
      expect((await feeds()).get(BROKEN)).toMatchObject({ last_success_at: null, failures: 2 });
    });

    it("keeps a feed's last success time when a later read fails", async () => {
      const name = NO_TTL[0];
      const feed = OUTLET_FEEDS.find((candidate) => candidate.name === name)!;
      const succeeded = (await feeds()).get(name)!;
      await pause(MIN_INTERVAL_MS + 200);
      stack.upstream.fail(feed.path);
      try {
        const third = (await runNewsJob(stack.t, 'news.ingest')).outcome!;
        expect(third).toMatchObject({ rows: 0, failures: 2 });
      } finally {
        stack.upstream.heal();
      }
      const failed = (await feeds()).get(name)!;
      expect(failed).toMatchObject({ last_success_at: succeeded.last_success_at, last_error: expect.any(String), failures: 1, etag: succeeded.etag });
      expect(failed.last_error).not.toMatch(/127\.0\.0\.1|simulated/);
    });

    it('stores what the feeds published since, and nothing twice', async () => {
      const t0 = stack.clock.at;
      const before = await storedUrls();
      // On to the first story slot after which an outlet read again shows something new.
      let next = t0 + STORY_SLOT_MS;
      while (shownAt(next, NO_TTL, true).every((url) => before.includes(url)) && next < t0 + 40 * STORY_SLOT_MS) next += STORY_SLOT_MS;
      stack.clock.at = next;
      await pause(MIN_INTERVAL_MS + 200);
      const fourth = (await runNewsJob(stack.t, 'news.ingest')).outcome!;
      const stored = await storedUrls();
      // Every outlet item shown since; a headline feed's document is the simulator's cached one while its newest item stays the same.
      const atLeast = union(before, shownAt(stack.clock.at, NO_TTL, true));
      const atMost = union(before, shownAt(stack.clock.at, NO_TTL));
      expect(atLeast.filter((url) => !stored.includes(url))).toEqual([]);
      expect(stored.filter((url) => !atMost.includes(url))).toEqual([]);
      expect(atLeast.length).toBeGreaterThan(before.length);
      expect(fourth.rows).toBe(stored.length - before.length);
      const [{ n }] = await stack.t.db.query(`SELECT count(DISTINCT (source, guid))::int AS n FROM news_items`);
      expect(n).toBe(stored.length);
    });
  });

  describe('settings', () => {
    it('reads no outlet and no stock feed when NEWS_FEEDS and NEWS_STOCK_FEED_URL are none', async () => {
      const t = await createTestApp(testConfig({ NEWS_FEEDS: 'none', NEWS_STOCK_FEED_URL: 'none' }));
      try {
        const stock = { id: 1, symbol: 'AAPL', name: 'Apple', type: 'STOCK', yahooSymbol: 'AAPL', marketCapUsd: 3e12 };
        expect(t.app.get(NewsIngestJob).feedsOf([stock])).toEqual([]);
      } finally {
        await t.close();
      }
    });
  });
});
