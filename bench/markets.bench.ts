import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import Redis from 'ioredis';
import { ensureDatabase } from './lib/database';
import { killAll, ServerHandle, startServer, relaunchPinned } from './lib/children';
import { cleanUpRun } from './lib/cleanup';
import { describeCoreSpeeds, measureCoreSpeeds } from './lib/core-speed';
import { envNumber } from './lib/env';
import { monotonicUs, printProfile } from './lib/cpu-profile';
import { measure, processCpu } from './lib/load';
import type { FillReport } from './lib/markets-fill';
import { counters, moved, printTable, problems, Row, scriptCalls } from './lib/markets-report';

/**
 * `npm run bench:markets`: requests/s, p50/p99 and server CPU per request of three Markets and two Stocks routes
 * on a warm cache, against the billed reference route `/account/credits`, all on one app server (pinned to core
 * 0; the load generator to core 1). The catalogue is filled first by the real jobs from the upstream simulator,
 * and a stock's fundamentals loaded from it once (the simulator keeps serving the rare upstream loads of the
 * run, pinned to core 1); the measured server runs no job. Each market route runs between two reference runs and is compared
 * with their mean. Per run it also prints how often the route's answer was rebuilt: the per-replica caches (a
 * list or the heatmap for 5 s, a detail or klines answer for 2 s) expire during a run, so some requests read
 * Redis or PostgreSQL again, which is the steady state; fundamentals has no per-replica answer and reads its
 * shared cache entry in Redis on every request.
 * Figures are printed, never judged by the exit code; the run fails only on non-2xx answers, socket errors
 * or a key pool too small for the rate reached. BENCH_ADAPTER=fastify, BENCH_ROUTES and BENCH_NODE_ARGS
 * (`--cpu-prof --cpu-prof-dir=<dir>`: top self-time frames per run) are described in docs/benchmarks.md.
 */
const SETTINGS = {
  durationS: envNumber('BENCH_DURATION', 10),
  warmupS: envNumber('BENCH_WARMUP', 3),
  connections: envNumber('BENCH_CONNECTIONS', 50),
  // Sizes the key pool only: the billed route on Fastify passed 15,000 req/s here (docs/benchmarks.md, Markets).
  maxRps: envNumber('BENCH_MAX_RPS', 20_000),
  adapter: process.env.BENCH_ADAPTER === 'fastify' ? 'fastify' : 'express',
  // The runs in order. A market route is compared with the reference runs just before and after it: this
  // machine's cores change speed within minutes (core-speed.ts), and CPU per request with them.
  order: (process.env.BENCH_ROUTES || 'reference,assets,reference,detail,reference,klines,reference,fundamentals,reference,overview,reference')
    .split(',')
    .map((name) => name.trim()),
  adminUrl: process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test',
  databaseName: process.env.BENCH_MARKETS_DATABASE || 'mkbench',
  redisUrl: process.env.REDIS_URL || 'redis://127.0.0.1:6379',
};
const PUBLIC = '/api/public/v1';
/** The stock whose fundamentals the fill loads from the simulator and the fundamentals run reads. */
const STOCK = 'AAPL';
// BENCH_ROUTES takes these names, or a path of its own (`/api/public/v1/assets/BTC/klines?limit=50`) for an experiment.
const ROUTES: Record<string, string> = {
  reference: `${PUBLIC}/account/credits`,
  assets: `${PUBLIC}/assets?type=ALL&limit=100`,
  detail: `${PUBLIC}/assets/BTC`,
  klines: `${PUBLIC}/assets/BTC/klines?limit=500`,
  fundamentals: `${PUBLIC}/stock/${STOCK}/fundamentals`,
  overview: `${PUBLIC}/stock/overview?market=US`,
};
const pathOf = (name: string) => ROUTES[name] ?? name;
// Max tier: 600 calls per key per clock minute. Each run takes its own slice of keys, as bench:hl does: runs
// follow each other within a minute, and a slice used by two of them would pass the cap on its first keys.
const keyCount = Math.ceil((SETTINGS.maxRps * (SETTINGS.warmupS + SETTINGS.durationS)) / 400);
/** Calls each route gets before any load (the first fills the caches), on a key of its own. */
const WARM_CALLS = 3;
const RUN_PREFIX = `bench:mk:${randomBytes(4).toString('hex')}:`;

/** One call, which must answer 200 with the success envelope; returns the body's data and size. */
async function probe(url: string, key: string): Promise<{ data: unknown; bytes: number }> {
  const res = await fetch(url, { headers: { 'x-api-key': key } });
  const text = await res.text();
  if (res.status !== 200 || !text.startsWith('{"code":"0"')) throw new Error(`probe ${url} answered ${res.status}: ${text.slice(0, 300)}`);
  return { data: (JSON.parse(text) as { data: unknown }).data, bytes: Buffer.byteLength(text) };
}

/** What the probe says of a route's answer, so a run on an empty catalogue or a failed vendor is seen at once. */
function describeAnswer(name: string, data: unknown): string {
  if (name === 'assets') {
    const page = data as { items: Array<{ symbol: string; price: string | null }>; total: number };
    const priced = page.items.filter((item) => item.price !== null).length;
    if (page.items.length === 0 || priced === 0) throw new Error('the catalogue has no priced asset: did markets.crypto fill it?');
    return `${page.items.length} items of ${page.total}, ${priced} priced`;
  }
  if (name === 'klines') return `${(data as unknown[]).length} bars`;
  if (name === 'detail') return `price ${(data as { price: string | null }).price}`;
  if (name === 'fundamentals') {
    const { overview, financials, errors } = data as {
      overview: { quote: { price: number | null } | null; overviewMetrics: unknown[] };
      financials: { incomeStatement: unknown[]; balanceSheet: unknown[]; cashFlowStatement: unknown[] };
      errors: Array<{ section: string }>;
    };
    // A failed section is an empty, smaller answer, asked again after 60 s: not the route the bench is for.
    if (errors.length > 0) throw new Error(`fundamentals answered without ${errors.map((e) => e.section).join(', ')}: is the simulator's Yahoo reachable?`);
    const statements = [financials.incomeStatement, financials.balanceSheet, financials.cashFlowStatement].map((list) => list.length).join('/');
    return `price ${overview.quote?.price}, ${overview.overviewMetrics.length} metrics, ${statements} income/balance/cash-flow periods`;
  }
  if (name === 'overview') {
    const items = (data as { categories: Array<{ items: Array<{ price: number | null }> }> }).categories.flatMap((c) => c.items);
    const priced = items.filter((item) => item.price !== null).length;
    if (priced === 0) throw new Error('the heatmap has no priced stock: did markets.tradfi fill the catalogue?');
    return `${(data as { categories: unknown[] }).categories.length} sectors, ${items.length} stocks, ${priced} priced`;
  }
  return '';
}

async function main(): Promise<void> {
  const unknown = SETTINGS.order.filter((name) => !(name in ROUTES) && !name.startsWith('/'));
  if (unknown.length > 0) throw new Error(`BENCH_ROUTES: unknown ${unknown.join(', ')}; routes: ${Object.keys(ROUTES).join(', ')}`);
  process.stdout.write(
    `markets bench: ${SETTINGS.adapter}, server on core 0, autocannon on core 1, ${SETTINGS.connections} connections, ` +
      `${SETTINGS.warmupS} s warm-up + ${SETTINGS.durationS} s per route, node ${process.version}, load average ${loadavg()[0].toFixed(2)}\n`,
  );
  const speedsBefore = describeCoreSpeeds(measureCoreSpeeds());
  const databaseUrl = await ensureDatabase(SETTINGS.adminUrl, SETTINGS.databaseName);
  const rows: Row[] = [];
  const wallets: string[] = [];
  const redis = new Redis(SETTINGS.redisUrl, { maxRetriesPerRequest: 2 });
  let upstream: ServerHandle | undefined;
  let app: ServerHandle | undefined;
  try {
    upstream = await startServer('simulator', 'bench/markets.bench.ts', 1, { BENCH_MARKETS_ROLE: 'upstream' });
    const simEnv = (upstream.ready as unknown as { env: Record<string, string> }).env;
    const shared = { ...simEnv, DATABASE_URL: databaseUrl, REDIS_URL: SETTINGS.redisUrl, REDIS_KEY_PREFIX: RUN_PREFIX };

    process.stdout.write(
      `filling the catalogue in ${SETTINGS.databaseName} (hl.markets, markets.crypto, markets.tradfi, ${STOCK}'s fundamentals from the simulator)...\n`,
    );
    const fill = await startServer('markets-fill', 'bench/markets.bench.ts', 0, { ...shared, BENCH_MARKETS_ROLE: 'fill', BENCH_MARKETS_STOCK: STOCK });
    const { jobs, fundamentals } = fill.ready as unknown as FillReport;
    await fill.stop();
    for (const [name, job] of Object.entries(jobs)) process.stdout.write(`  ${name}: ${job.rows} rows, ${job.failures} failures, ${job.ms} ms\n`);
    process.stdout.write(`  ${STOCK} fundamentals: ${fundamentals.bytes} bytes, ${fundamentals.ms} ms\n`);

    const slices = SETTINGS.order.length;
    process.stdout.write(`starting the ${SETTINGS.adapter} app (jobs off, ${keyCount * slices + 1} Max accounts + keys)...\n`);
    const startedAt = Date.now();
    app = await startServer(`app:${SETTINGS.adapter}`, 'bench/servers/app.server.ts', 0, {
      ...shared,
      HTTP_ADAPTER: SETTINGS.adapter,
      BENCH_KEYS: String(keyCount * slices + 1),
      JOBS_ENABLED: 'false',
    });
    const server = app;
    wallets.push(...(server.ready.wallets ?? []));
    const keys = server.ready.keys ?? [];
    // The last key is kept for the probes, so no run's slice carries their calls.
    const probeKey = keys[keys.length - 1];
    const base = `http://127.0.0.1:${server.ready.port}`;
    process.stdout.write(`  ready on :${server.ready.port} (pid ${server.pid}) after ${((Date.now() - startedAt) / 1000).toFixed(0)} s\n`);
    for (const name of new Set(SETTINGS.order)) {
      let answer = await probe(`${base}${pathOf(name)}`, probeKey);
      for (let i = 1; i < WARM_CALLS; i += 1) answer = await probe(`${base}${pathOf(name)}`, probeKey);
      const described = describeAnswer(name, answer.data);
      process.stdout.write(`  ${pathOf(name)}: ${answer.bytes} bytes${described ? `, ${described}` : ''}\n`);
    }

    for (const [i, name] of SETTINGS.order.entries()) {
      const path = pathOf(name);
      process.stdout.write(`- ${name} ${path}\n`);
      let before = new Map<string, number>();
      let cpuBefore = processCpu(server.pid);
      let fromUs = 0;
      let scriptsBefore = 0;
      const m = await measure({
        url: `${base}${path}`,
        connections: SETTINGS.connections,
        durationS: SETTINGS.durationS,
        warmupS: SETTINGS.warmupS,
        keys: keys.slice(i * keyCount, (i + 1) * keyCount),
        serverPid: server.pid,
        beforeRun: async () => {
          before = await counters(base);
          cpuBefore = processCpu(server.pid);
          scriptsBefore = await scriptCalls(redis);
          fromUs = monotonicUs();
        },
      });
      const cpuAfter = processCpu(server.pid);
      const requestsPerScript = Math.round((10 * m.total) / ((await scriptCalls(redis)) - scriptsBefore)) / 10;
      const window = { label: `${name} ${path}`, fromUs, toUs: monotonicUs() };
      const perRequest = (seconds: number) => Math.round((seconds * 1e6) / m.total);
      const [userUsPerReq, systemUsPerReq] = [perRequest(cpuAfter.user - cpuBefore.user), perRequest(cpuAfter.system - cpuBefore.system)];
      rows.push({ route: name, path, reloads: moved(before, await counters(base)), userUsPerReq, systemUsPerReq, window, requestsPerScript, ...m });
    }
  } finally {
    await app?.stop();
    await upstream?.stop();
    killAll();
    redis.disconnect();
    await cleanUpRun({ redisUrl: SETTINGS.redisUrl, databaseUrl, prefix: RUN_PREFIX, wallets }).catch((error: unknown) =>
      process.stderr.write(`cleanup failed: ${(error as Error).message}\n`),
    );
  }

  process.stdout.write(`\nbefore the runs, ${speedsBefore}\nafter the runs, ${describeCoreSpeeds(measureCoreSpeeds())}\n`);
  printTable(rows);
  if (app)
    printProfile(
      app.pid,
      rows.map((r) => r.window),
    );
  const dir = join(__dirname, 'results');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `markets-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, `${JSON.stringify({ finishedAt: new Date().toISOString(), settings: { ...SETTINGS, keysPerRun: keyCount }, rows }, null, 2)}\n`);
  process.stdout.write(`results: ${file}\n`);
  const found = problems(rows, { connections: SETTINGS.connections, keysPerRun: keyCount });
  for (const p of found) process.stderr.write(`ERROR: ${p}\n`);
  if (found.length > 0) process.exitCode = 1;
}

// The bench's two helper processes are this file again, with a role (knip then sees their modules used).
const ROLE = process.env.BENCH_MARKETS_ROLE;
const helperFailed = (error: unknown) => {
  process.stderr.write(`bench:markets ${ROLE} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
};
if (ROLE === 'upstream') {
  import('./lib/markets-upstream').then(({ serveUpstream }) => serveUpstream()).catch(helperFailed);
} else if (ROLE === 'fill') {
  import('./lib/markets-fill').then(({ fillCatalogue }) => fillCatalogue()).catch(helperFailed);
} else if (process.env.BENCH_LOADGEN === '1') {
  process.on('exit', killAll);
  main().catch((error: unknown) => {
    process.stderr.write(`bench:markets failed: ${error instanceof Error ? error.message : String(error)}\n`);
    killAll();
    process.exit(1);
  });
} else {
  relaunchPinned(__filename);
}
