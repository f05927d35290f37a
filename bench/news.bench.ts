import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { killAll, ServerHandle, startServer, relaunchPinned } from './lib/children';
import { cleanUpRun } from './lib/cleanup';
import { envNumber } from './lib/env';
import { monotonicUs, printProfile } from './lib/cpu-profile';
import { measure } from './lib/load';
import { ensureNewsData } from './lib/news-load';
import {
  cpuSecondsBetween,
  databaseCpu,
  describeLoad,
  describeSizes,
  explainRoutes,
  matchCount,
  NewsRoute,
  NewsRow,
  printPlans,
  printTable,
  problems,
} from './lib/news-report';

/**
 * `npm run bench:news`: p50, p99 and requests/s of the News read routes on a store of a million items, one app
 * server on core 0 and autocannon on core 1 (PostgreSQL on either), next to the billed reference route. The
 * corpus is the simulator's own news wire over close to three years (bench/lib/news-corpus.ts), loaded
 * once by COPY into a database of its own and kept between runs: the load is skipped while it holds the wanted
 * item count under the same news migration (BENCH_NEWS_RELOAD=1 loads again). After the runs, each route's
 * three statements (the page, its assets, its analyses) are taken from NewsRepository and run under EXPLAIN
 * (ANALYZE, BUFFERS); the plan of any route whose p99 misses the goal is printed. The goal is printed against,
 * never enforced: the run fails only on non-2xx answers or socket errors.
 * BENCH_DURATION, BENCH_WARMUP, BENCH_CONNECTIONS and BENCH_ADAPTER work as in the other benches; BENCH_ROUTES
 * picks runs by name; BENCH_NEWS_MID and BENCH_NEWS_PHRASE set the middling and the narrow search;
 * BENCH_NEWS_EXPLAIN=1 prints every plan; BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=<dir>" prints the
 * server's top frames per run.
 */
const SETTINGS = {
  durationS: envNumber('BENCH_DURATION', 10),
  warmupS: envNumber('BENCH_WARMUP', 3),
  connections: envNumber('BENCH_CONNECTIONS', 10),
  items: envNumber('BENCH_NEWS_ITEMS', 1_000_000),
  reload: process.env.BENCH_NEWS_RELOAD === '1',
  // Two words each common in the corpus that stand next to each other in a few hundred items (hack stories).
  phrase: process.env.BENCH_NEWS_PHRASE || '"litecoin bridge"',
  broad: 'bitcoin',
  // A term in 1-3 % of items: relevance's scan for its 1,000 newest matches is longest there (about 1,000 / share rows).
  mid: process.env.BENCH_NEWS_MID || 'litecoin',
  goalMs: 50,
  explainAll: process.env.BENCH_NEWS_EXPLAIN === '1',
  // A subset of the runs by name (reference, feed, feed-btc, feed-rare, latest, relevance, relevance-mid, narrow, stock); all when unset.
  routes: (process.env.BENCH_ROUTES ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean),
  // Size the key pool only (a Max key takes 600 calls per clock minute): the reference route passed 4,000 req/s
  // here at 10 connections on a busy machine, the News routes 650; the billed route alone goes past 15,000 (docs/benchmarks.md).
  maxRps: envNumber('BENCH_MAX_RPS', 3_000),
  referenceMaxRps: envNumber('BENCH_REFERENCE_MAX_RPS', 20_000),
  adapter: process.env.BENCH_ADAPTER === 'fastify' ? 'fastify' : 'express',
  adminUrl: process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test',
  databaseName: process.env.BENCH_NEWS_DATABASE || 'newsbench',
  redisUrl: process.env.REDIS_URL || 'redis://127.0.0.1:6379',
};
const PUBLIC = '/api/public/v1';
/** The service's default page sizes (NewsFeedQueryDto 100, NewsSearchQueryDto and StockNewsQueryDto 20), plus the probe row. */
const FEED_TAKE = 101;
const SEARCH_TAKE = 21;
/** Keys for one run at `rps`: each run takes a slice of its own, as runs follow each other within a clock minute. */
const keysFor = (rps: number) => Math.ceil((rps * (SETTINGS.warmupS + SETTINGS.durationS)) / 400);
const RUN_PREFIX = `bench:news:${randomBytes(4).toString('hex')}:`;
// An app start on a kept database may run a new migration over a million rows first.
const APP_START_TIMEOUT_MS = 900_000;

/** The catalogue id a symbol names, as AssetsRepository.resolveSymbol orders candidates (crypto first, then by rank). */
async function assetId(db: Client, symbol: string): Promise<number> {
  const { rows } = await db.query(
    `SELECT id FROM assets WHERE lower(symbol) = lower($1) OR lower(stock_code) = lower($1)
      ORDER BY listed DESC, type <> 'CRYPTO', market_cap_rank NULLS LAST, id LIMIT 1`,
    [symbol],
  );
  if (rows.length === 0) throw new Error(`no asset ${symbol} in the bench catalogue`);
  return Number(rows[0].id);
}

/** The linked coin with the fewest links whose symbol names no other asset: the sparse end of the per-asset feed. */
async function rareAsset(db: Client): Promise<{ symbol: string; links: number }> {
  const { rows } = await db.query(
    `SELECT s.symbol, count(*)::int AS links FROM news_item_assets l JOIN assets s ON s.id = l.asset_id
      WHERE s.type = 'CRYPTO' AND (SELECT count(*) FROM assets o WHERE lower(o.symbol) = lower(s.symbol)) = 1
      GROUP BY s.id, s.symbol ORDER BY count(*), s.id LIMIT 1`,
  );
  return { symbol: rows[0].symbol, links: rows[0].links };
}

async function linkCount(db: Client, id: number): Promise<number> {
  return Number((await db.query(`SELECT count(*) AS n FROM news_item_assets WHERE asset_id = $1`, [id])).rows[0].n);
}

async function routesOf(db: Client): Promise<{ routes: NewsRoute[]; facts: string[] }> {
  const rare = await rareAsset(db);
  const [btc, rareId] = [await assetId(db, 'BTC'), await assetId(db, rare.symbol)];
  const search = (q: string, sort: string) => `${PUBLIC}/news/search?q=${encodeURIComponent(q)}&sort=${sort}`;
  const window = (take: number) => ({ take, offset: 0 });
  const aapl = await assetId(db, 'AAPL');
  const routes: NewsRoute[] = [
    // The billed route with the least work of its own: what the pipeline (key, admission, billing) costs any call.
    { name: 'reference', path: `${PUBLIC}/account/credits` },
    { name: 'feed', path: `${PUBLIC}/news`, call: (r) => r.feed({}, window(FEED_TAKE)) },
    { name: 'feed-btc', path: `${PUBLIC}/news?assetSymbol=BTC`, call: (r) => r.feed({ assetId: btc }, window(FEED_TAKE)) },
    { name: 'feed-rare', path: `${PUBLIC}/news?assetSymbol=${rare.symbol}`, call: (r) => r.feed({ assetId: rareId }, window(FEED_TAKE)) },
    { name: 'latest', path: search(SETTINGS.broad, 'latest'), call: (r) => r.search(SETTINGS.broad, 'latest', {}, window(SEARCH_TAKE)) },
    { name: 'relevance', path: search(SETTINGS.broad, 'relevance'), call: (r) => r.search(SETTINGS.broad, 'relevance', {}, window(SEARCH_TAKE)) },
    { name: 'relevance-mid', path: search(SETTINGS.mid, 'relevance'), call: (r) => r.search(SETTINGS.mid, 'relevance', {}, window(SEARCH_TAKE)) },
    { name: 'narrow', path: search(SETTINGS.phrase, 'relevance'), call: (r) => r.search(SETTINGS.phrase, 'relevance', {}, window(SEARCH_TAKE)) },
    { name: 'stock', path: `${PUBLIC}/stock/AAPL/news`, call: (r) => r.feed({ assetId: aapl }, window(SEARCH_TAKE)) },
  ];
  const unknown = SETTINGS.routes.filter((name) => !routes.some((route) => route.name === name));
  if (unknown.length > 0) throw new Error(`BENCH_ROUTES: unknown ${unknown.join(', ')}; routes: ${routes.map((r) => r.name).join(', ')}`);
  const facts = [
    `BTC is linked to ${(await linkCount(db, btc)).toLocaleString('en-US')} items, AAPL to ${(await linkCount(db, aapl)).toLocaleString('en-US')}, ${rare.symbol} (the rarest linked coin) to ${rare.links}`,
    `q=${SETTINGS.broad} matches ${(await matchCount(db, SETTINGS.broad)).toLocaleString('en-US')} items, q=${SETTINGS.mid} ` +
      `${(await matchCount(db, SETTINGS.mid)).toLocaleString('en-US')}, q=${SETTINGS.phrase} ${(await matchCount(db, SETTINGS.phrase)).toLocaleString('en-US')}`,
  ];
  return { routes: routes.filter((route) => SETTINGS.routes.length === 0 || SETTINGS.routes.includes(route.name)), facts };
}

/** One call, which must answer 200 with the success envelope; returns what the page held and its size. */
async function probe(url: string, key: string): Promise<{ bytes: number; answer: string }> {
  const res = await fetch(url, { headers: { 'x-api-key': key } });
  const text = await res.text();
  if (res.status !== 200 || !text.startsWith('{"code":"0"')) throw new Error(`probe ${url} answered ${res.status}: ${text.slice(0, 300)}`);
  const { items, hasMore } = (JSON.parse(text) as { data: { items?: Array<{ analysis?: unknown; assets: unknown[] }>; hasMore?: boolean } }).data;
  if (!items) return { bytes: Buffer.byteLength(text), answer: 'not a page' };
  // Stock news items carry no analysis block.
  const analysed = items.filter((item) => item.analysis !== null && item.analysis !== undefined).length;
  const linked = items.filter((item) => item.assets.length > 0).length;
  return { bytes: Buffer.byteLength(text), answer: `${items.length} items, ${analysed} analysed, ${linked} linked, hasMore ${hasMore}` };
}

async function main(): Promise<void> {
  process.stdout.write(
    `news bench: ${SETTINGS.adapter}, server on core 0, autocannon on core 1, ${SETTINGS.connections} connections, ` +
      `${SETTINGS.warmupS} s warm-up + ${SETTINGS.durationS} s per route, node ${process.version}, load average ${loadavg()[0].toFixed(2)}\n`,
  );
  const { databaseUrl, report } = await ensureNewsData({
    adminUrl: SETTINGS.adminUrl,
    databaseName: SETTINGS.databaseName,
    target: SETTINGS.items,
    reload: SETTINGS.reload,
  });
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  const rows: NewsRow[] = [];
  const wallets: string[] = [];
  let app: ServerHandle | undefined;
  try {
    process.stdout.write(`data: ${describeLoad(report)}\n${await describeSizes(db)}\n`);
    const { routes, facts } = await routesOf(db);
    for (const fact of facts) process.stdout.write(`  ${fact}\n`);

    const slices = routes.map((route) => keysFor(route.name === 'reference' ? SETTINGS.referenceMaxRps : SETTINGS.maxRps));
    const keyTotal = slices.reduce((sum, n) => sum + n, 0);
    process.stdout.write(`starting the ${SETTINGS.adapter} app (jobs off, ${keyTotal + 1} Max accounts + keys)...\n`);
    const startedAt = Date.now();
    app = await startServer(
      `app:${SETTINGS.adapter}`,
      'bench/servers/app.server.ts',
      0,
      {
        DATABASE_URL: databaseUrl,
        REDIS_URL: SETTINGS.redisUrl,
        REDIS_KEY_PREFIX: RUN_PREFIX,
        HTTP_ADAPTER: SETTINGS.adapter,
        BENCH_KEYS: String(keyTotal + 1),
        JOBS_ENABLED: 'false',
        NEWS_JOBS_ENABLED: 'false',
      },
      APP_START_TIMEOUT_MS,
    );
    const server = app;
    wallets.push(...(server.ready.wallets ?? []));
    const keys = server.ready.keys ?? [];
    const probeKey = keys[keys.length - 1];
    const base = `http://127.0.0.1:${server.ready.port}`;
    process.stdout.write(`  ready on :${server.ready.port} (pid ${server.pid}) after ${((Date.now() - startedAt) / 1000).toFixed(0)} s\n`);

    for (const [i, route] of routes.entries()) {
      const firstKey = slices.slice(0, i).reduce((sum, n) => sum + n, 0);
      const { bytes, answer } = await probe(`${base}${route.path}`, probeKey);
      process.stdout.write(`- ${route.name} ${route.path}: ${bytes} bytes, ${answer}\n`);
      let fromUs = 0;
      let dbCpuBefore = new Map<number, number>();
      const m = await measure({
        url: `${base}${route.path}`,
        connections: SETTINGS.connections,
        durationS: SETTINGS.durationS,
        warmupS: SETTINGS.warmupS,
        keys: keys.slice(firstKey, firstKey + slices[i]),
        serverPid: server.pid,
        beforeRun: async () => {
          fromUs = monotonicUs();
          dbCpuBefore = databaseCpu(SETTINGS.databaseName);
        },
      });
      const dbCpuUsPerReq = Math.round((cpuSecondsBetween(dbCpuBefore, databaseCpu(SETTINGS.databaseName)) * 1e6) / Math.max(1, m.total));
      const window = { label: route.name, fromUs, toUs: monotonicUs() };
      const loadAvg = loadavg()[0];
      process.stdout.write(
        `  ${m.rps.toFixed(0)} req/s, p50 ${m.p50Ms} ms, p99 ${m.p99Ms} ms, server CPU ${m.serverCpuPct}% (${m.serverCpuUsPerReq} µs a request), PostgreSQL ${dbCpuUsPerReq} µs a request, load average ${loadAvg.toFixed(2)}\n`,
      );
      rows.push({ route: route.name, path: route.path, bytes, answer, sql: [], window, loadAvg, dbCpuUsPerReq, ...m });
    }
    await app.stop();
    app = undefined;

    process.stdout.write("explaining each route's statements (EXPLAIN (ANALYZE, BUFFERS), median of 5)...\n");
    const plans = await explainRoutes(db, routes);
    for (const row of rows) row.sql = (plans.get(row.route) ?? []).map((p) => p.explained);
    printTable(rows, { goalMs: SETTINGS.goalMs, connections: SETTINGS.connections });
    printPlans(rows, plans, SETTINGS.goalMs, SETTINGS.explainAll);
    printProfile(
      server.pid,
      rows.map((r) => r.window),
    );
  } finally {
    await app?.stop();
    killAll();
    await db.end();
    await cleanUpRun({ redisUrl: SETTINGS.redisUrl, databaseUrl, prefix: RUN_PREFIX, wallets }).catch((error: unknown) =>
      process.stderr.write(`cleanup failed: ${(error as Error).message}\n`),
    );
  }

  const dir = join(__dirname, 'results');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `news-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, `${JSON.stringify({ finishedAt: new Date().toISOString(), settings: SETTINGS, load: report, rows }, null, 2)}\n`);
  process.stdout.write(`results: ${file}\n`);
  const found = problems(rows);
  for (const p of found) process.stderr.write(`ERROR: ${p}\n`);
  if (found.length > 0) process.exitCode = 1;
}

if (process.env.BENCH_LOADGEN === '1') {
  process.on('exit', killAll);
  main().catch((error: unknown) => {
    process.stderr.write(`bench:news failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    killAll();
    process.exit(1);
  });
} else {
  relaunchPinned(__filename);
}
