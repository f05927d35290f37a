import { createServer, request } from 'node:http';
import { AddressInfo } from 'node:net';
import { DataSource } from 'typeorm';
import { JobRunResult } from '../../src/jobs/job.types';
import { NewsSimulation } from '../../src/simulator/news/news-handler';
import { OUTLET_FEEDS, OutletName } from '../../src/simulator/news/news-feeds';
import { OutletItem, outletItems } from '../../src/simulator/news/outlet-items';
import { STORY_SLOT_MS } from '../../src/simulator/news/story-stream';
import { RunningSimulator, startSimulator } from '../../src/simulator/simulator.server';
import { createTestApp, TestApp } from './create-test-app';
import { runJob } from './hl-stack';
import { CATALOGUE_JOBS } from './markets-stack';
import { resetDb } from './reset-db';
import { RuledProxy, startRuledProxy, stocksClient } from './stocks-stack';
import { testConfig } from './test-env';

type Data = Record<string, any>;

/**
 * What every news suite sets over the simulator's settings: the feed and analysis budgets out of the way (these
 * suites are about what is stored and served, not pacing) and the offline analyser unless a suite asks for another.
 */
export const NEWS_SUITE_ENV: Record<string, string> = {
  NEWS_FEED_REQUESTS_PER_MINUTE: '100000',
  NEWS_ANALYSIS_VENDOR: 'builtin',
  NEWS_ANALYSIS_CALLS_PER_HOUR: '100000',
  NEWS_ANALYSIS_BATCH: '5000',
};

/** The items each outlet feed shows at one instant of the simulator's clock, newest first. */
export type FeedView = ReadonlyMap<OutletName, readonly OutletItem[]>;

/** What a wish can look at besides the outlet feeds: the simulation at that instant, and the catalogue's stocks. */
export interface WishContext {
  news: NewsSimulation;
  at: number;
  /** Yahoo symbols of the listed stocks: those with a headline feed. */
  listedStocks: ReadonlySet<string>;
}

/** What a suite needs the feeds to show at the pinned instant (a story shared by two desks, a linker trap, ...). */
export type FeedWish = (view: FeedView, context: WishContext) => boolean;

/** How far back from now the stack looks for an instant whose feeds show what a suite needs: well inside `hot-24h`. */
const SEARCH_BACK_MS = 8 * 3_600_000;

export interface NewsStack {
  sim: RunningSimulator;
  news: NewsSimulation;
  /** What the app sends to the simulator passes here (and can be made to fail), behind a proxy that can hold answers back. */
  upstream: RuledProxy;
  t: TestApp;
  /** The simulator's clock, pinned so two reads of a feed see the same document (and a 304 is certain). */
  clock: { at: number };
  /** The outlet items at the pinned instant, as the feeds serve them. */
  view(): FeedView;
  close(): Promise<void>;
}

export interface NewsStackOptions {
  /** Settings over the simulator's (pointed at the proxies) and NEWS_SUITE_ENV; given the proxies' base URL. */
  env?: (upstreamUrl: string) => Record<string, string>;
  /** The feeds at the chosen instant must show this; the latest such instant within 8 hours is taken. */
  wish?: FeedWish;
  /** Answers to requests whose path contains the key are held back this many ms (feeds that answer at their own pace). */
  slowPaths?: Record<string, number>;
}

/** Items each outlet shows at `at`. */
export function feedView(news: NewsSimulation, at: number): FeedView {
  return new Map(OUTLET_FEEDS.map((feed) => [feed.name, outletItems(news.stories, feed, at)]));
}

/**
 * The simulator behind a ruled proxy, the app pointed at it, the catalogue filled by the real jobs and the news
 * tables empty. The simulator's clock is pinned at the latest instant whose feeds show what the suite wishes
 * for: the simulated world publishes a story every 2.5 minutes, so which stories a window holds depends on the
 * time, and a suite must not.
 */
export async function startNewsStack({ env = () => ({}), wish = () => true, slowPaths = {} }: NewsStackOptions = {}): Promise<NewsStack> {
  const clock = { at: Date.now() };
  const sim = await startSimulator({ wallets: 50, coingeckoCallsPerMinute: 0, yahooCallsPerMinute: 0, clock: () => clock.at });
  const news = sim.protocols.news;
  const upstream = await startRuledProxy(sim.url);
  const slow = await startSlowProxy(upstream.url, slowPaths);
  const close = async () => {
    await slow.close();
    await upstream.close();
    await sim.close();
  };
  const simEnv = Object.fromEntries(Object.entries(sim.env).map(([name, value]) => [name, value.replaceAll(sim.url, slow.url)]));
  const t = await createTestApp(testConfig({ ...simEnv, ...NEWS_SUITE_ENV, ...env(slow.url) }));
  await resetDb(t.db);
  await clearNews(t.db);
  for (const job of CATALOGUE_JOBS) {
    const result = await runJob(t, job);
    expect([result.name, result.status, result.error ?? null]).toEqual([job, 'ok', null]);
  }
  // The catalogue is read at the wall clock's time; the feeds from here on at the chosen instant.
  const listed: Array<{ yahoo_symbol: string }> = await t.db.query(
    `SELECT yahoo_symbol FROM assets WHERE listed AND type = 'STOCK' AND yahoo_symbol IS NOT NULL`,
  );
  const at = instantFor(wish, { news, listedStocks: new Set(listed.map((row) => row.yahoo_symbol)) });
  if (at === null) {
    await t.close();
    await close();
    throw new Error('news stack: no instant in the last 8 hours shows what the suite needs');
  }
  clock.at = at;
  upstream.hits.length = 0;
  news.resetCounters();
  return {
    sim,
    news,
    upstream,
    t,
    clock,
    view: () => feedView(news, clock.at),
    close: async () => {
      await t.close();
      await close();
    },
  };
}

/** A pass-through proxy that holds back the answers to some paths, in front of the ruled proxy. */
async function startSlowProxy(target: string, slowPaths: Record<string, number>): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    const path = req.url ?? '/';
    const delayMs = Object.entries(slowPaths).find(([key]) => path.includes(key))?.[1] ?? 0;
    const body: Buffer[] = [];
    req.on('data', (chunk: Buffer) => body.push(chunk));
    req.on('end', () => {
      setTimeout(() => {
        const upstream = request(`${target}${path}`, { method: req.method, headers: req.headers }, (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        });
        upstream.on('error', () => res.destroy());
        upstream.end(Buffer.concat(body));
      }, delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function instantFor(wish: FeedWish, context: Omit<WishContext, 'at'>): number | null {
  const now = Date.now();
  for (let at = now; at >= now - SEARCH_BACK_MS; at -= STORY_SLOT_MS) if (wish(feedView(context.news, at), { ...context, at })) return at;
  return null;
}

/** Empties the news tables (resetDb leaves them; truncating the catalogue only empties the tables that reference it). */
export async function clearNews(db: DataSource): Promise<void> {
  await db.query(`TRUNCATE news_items, news_feeds CASCADE`);
}

/** Runs a news job and expects it to finish ok; returns its result. */
export async function runNewsJob(t: TestApp, name: 'news.ingest' | 'news.analyse'): Promise<JobRunResult> {
  const result = await runJob(t, name);
  expect([result.name, result.status, result.error ?? null]).toEqual([name, 'ok', null]);
  return result;
}

/** The Stocks client plus page walking over the news lists. */
export function newsClient(t: TestApp, key: string) {
  const client = stocksClient(t, key);

  /** Every page of a list at `limit`, checking the probe-row paging on the way: full pages while hasMore, total null. */
  async function walk(path: string, limit: number, cost: number): Promise<Data[]> {
    const items: Data[] = [];
    const joiner = path.includes('?') ? '&' : '?';
    for (let page = 1; page <= 300; page++) {
      const data = (await client.ok(`${path}${joiner}page=${page}&limit=${limit}`, cost)).body.data;
      expect({ path, page: data.page, limit: data.limit, total: data.total }).toEqual({ path, page, limit, total: null });
      items.push(...data.items);
      if (!data.hasMore) return items;
      expect({ path, page, full: data.items.length }).toEqual({ path, page, full: limit });
    }
    throw new Error(`${path}: more than 300 pages`);
  }

  /** The page's data of a list, billed `cost`. */
  async function list(path: string, cost: number): Promise<Data> {
    return (await client.ok(path, cost)).body.data;
  }

  return { ...client, walk, list };
}
