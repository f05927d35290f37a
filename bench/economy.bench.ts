import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import Redis from 'ioredis';
import { Client } from 'pg';
import { killAll, ServerHandle, startServer, relaunchPinned } from './lib/children';
import { ensureDatabase } from './lib/database';
import { monotonicUs, printProfile, ProfileWindow } from './lib/cpu-profile';
import { envNumber } from './lib/env';
import type { IngestReport } from './lib/economy-ingest';
import { describeIngestion, describeUpstream, EconomyRow, explainReads, printPlans, printTable, problems } from './lib/economy-report';
import type { UpstreamReport } from './lib/economy-upstream';
import { measure } from './lib/load';
import { cpuSecondsBetween, databaseCpu } from './lib/news-report';

/**
 * `npm run bench:economy` (issue 24): a simulated month of builder fills for BENCH_WALLETS wallets ingested
 * once by `economy.builder-fills`, then two reads of a heavy trader, each beside the billed reference route.
 * 1. The simulator (core 1) builds the month's daily files of the service's builder and names the heaviest
 *    trader and a few others (bench/lib/economy-upstream.ts).
 * 2. An ingest process (core 0) creates their accounts, then runs the job once on a fresh database of its own,
 *    and reports wall time, rows, peak RSS, CPU by process and the time of each stage (bench/lib/economy-ingest.ts).
 * 3. After ANALYZE (what autovacuum does after a load this size; it is off on the dev box), one app server
 *    (core 0, jobs off) answers `/account/points/transactions` and `/account/fees` for the heavy trader's keys
 *    under autocannon (this process, core 1), then both statements are explained.
 * The goals (a month in under 60 s, both reads under 20 ms p99) are printed against, never enforced: the run
 * fails only when the job fails, or on non-2xx answers or socket errors.
 */
const SETTINGS = {
  wallets: envNumber('BENCH_WALLETS', 10_000),
  days: envNumber('BENCH_ECONOMY_DAYS', 30),
  /** Accounts created before ingestion: the heaviest trader and others spread over the ranking. */
  accounts: envNumber('BENCH_ECONOMY_ACCOUNTS', 10),
  durationS: envNumber('BENCH_DURATION', 10),
  warmupS: envNumber('BENCH_WARMUP', 3),
  connections: envNumber('BENCH_CONNECTIONS', 10),
  // Sizes the key pool only (keys per run = rate × run length / 400, under the 600 a minute a Max key may make).
  maxRps: envNumber('BENCH_MAX_RPS', 10_000),
  adapter: process.env.BENCH_ADAPTER === 'fastify' ? 'fastify' : 'express',
  ingestGoalS: 60,
  readGoalMs: 20,
  adminUrl: process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test',
  databaseName: process.env.BENCH_ECONOMY_DATABASE || 'economybench',
  redisUrl: process.env.REDIS_URL || 'redis://127.0.0.1:6379',
};
const PUBLIC = '/api/public/v1';
const ROUTES: Record<string, string> = {
  reference: `${PUBLIC}/account/credits`,
  points: `${PUBLIC}/account/points/transactions?limit=20`,
  fees: `${PUBLIC}/account/fees?limit=100`,
};
// Each read between two reference runs: this machine's cores change speed within minutes.
const ORDER = ['reference', 'points', 'reference', 'fees', 'reference'];
const keysPerRun = Math.ceil((SETTINGS.maxRps * (SETTINGS.warmupS + SETTINGS.durationS)) / 400);
const RUN_PREFIX = `bench:econ:${randomBytes(4).toString('hex')}:`;
const UPSTREAM_TIMEOUT_MS = 10 * 60_000;
const INGEST_TIMEOUT_MS = 30 * 60_000;
const ECONOMY_TABLES = 'builder_fills, builder_fill_days, points_transactions, points_balances, account_tier_changes, accounts, api_keys';

/** The flags the service is deployed with (package.json config.nodeFlags), for the ingest process, which runs the job as the API process would. */
function serviceNodeOptions(): string {
  const pkg = JSON.parse(readFileSync(join(process.cwd(), 'package.json'), 'utf8')) as { config: { nodeFlags: string } };
  return [process.env.NODE_OPTIONS, pkg.config.nodeFlags].filter(Boolean).join(' ');
}

/** The bench database, empty: the job reads only the days it has not read, so every run starts from none. */
async function freshDatabase(): Promise<string> {
  await dropDatabase();
  return ensureDatabase(SETTINGS.adminUrl, SETTINGS.databaseName);
}

async function dropDatabase(): Promise<void> {
  const admin = new Client({ connectionString: SETTINGS.adminUrl });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS "${SETTINGS.databaseName}" WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

/** Every Redis key of this run (its prefix), BENCH_KEEP_DATA or not: an app started on a kept database seeds what it needs again. */
async function deleteRunKeys(): Promise<void> {
  const redis = new Redis(SETTINGS.redisUrl, { maxRetriesPerRequest: 2 });
  try {
    let cursor = '0';
    do {
      const [next, found] = await redis.scan(cursor, 'MATCH', `${RUN_PREFIX}*`, 'COUNT', 1000);
      if (found.length > 0) await redis.unlink(...found);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

/** One call, which must answer 200 with the success envelope; returns the body's size and what its page holds. */
async function probe(url: string, key: string): Promise<{ bytes: number; answer: string }> {
  const res = await fetch(url, { headers: { 'x-api-key': key } });
  const text = await res.text();
  if (res.status !== 200 || !text.startsWith('{"code":"0"')) throw new Error(`probe ${url} answered ${res.status}: ${text.slice(0, 300)}`);
  const data = (JSON.parse(text) as { data: { items?: unknown[]; hasMore?: boolean } }).data;
  const answer = data.items ? `${data.items.length} items, hasMore ${data.hasMore}` : 'balance';
  if (data.items?.length === 0) throw new Error(`probe ${url} answered an empty page: did the job credit the heavy trader?`);
  return { bytes: Buffer.byteLength(text), answer };
}

async function main(): Promise<void> {
  const now = Date.now();
  process.stdout.write(
    `economy bench: ${SETTINGS.wallets} wallets, ${SETTINGS.days} finished days before ${new Date(now).toISOString()}, ${SETTINGS.accounts} accounts; ` +
      `reads on ${SETTINGS.adapter} (core 0), autocannon on core 1, ${SETTINGS.connections} connections, ${SETTINGS.warmupS} s warm-up + ` +
      `${SETTINGS.durationS} s a run, node ${process.version}, load average ${loadavg()[0].toFixed(2)}\n`,
  );
  const databaseUrl = await freshDatabase();
  const rows: EconomyRow[] = [];
  let upstream: ServerHandle | undefined;
  let app: ServerHandle | undefined;
  let ingest: IngestReport | undefined;
  let plans: Awaited<ReturnType<typeof explainReads>> | undefined;
  const profiles: Array<{ pid: number; windows: ProfileWindow[] }> = [];
  try {
    process.stdout.write(`starting the simulator and building the month's files...\n`);
    upstream = await startServer(
      'simulator',
      'bench/economy.bench.ts',
      1,
      {
        BENCH_ECONOMY_ROLE: 'upstream',
        BENCH_WALLETS: String(SETTINGS.wallets),
        BENCH_ECONOMY_NOW: String(now),
        BENCH_ECONOMY_DAYS: String(SETTINGS.days),
        BENCH_ECONOMY_ACCOUNTS: String(SETTINGS.accounts),
      },
      UPSTREAM_TIMEOUT_MS,
    );
    const sim = upstream.ready as unknown as UpstreamReport;
    process.stdout.write(describeUpstream(sim));
    const shared = { ...sim.env, DATABASE_URL: databaseUrl, REDIS_URL: SETTINGS.redisUrl, REDIS_KEY_PREFIX: RUN_PREFIX };

    process.stdout.write(`ingesting ${SETTINGS.days} days into ${SETTINGS.databaseName} (economy.builder-fills, once)...\n`);
    const ingester = await startServer(
      'ingest',
      'bench/economy.bench.ts',
      0,
      {
        ...shared,
        BENCH_ECONOMY_ROLE: 'ingest',
        BENCH_ECONOMY_NOW: String(now),
        BENCH_ECONOMY_TRADERS: JSON.stringify(sim.traders),
        BENCH_ECONOMY_KEYS: String(keysPerRun * ORDER.length),
        BENCH_ECONOMY_UPSTREAM_PID: String(upstream.pid),
        BUILDER_FILLS_BACKFILL_DAYS: String(SETTINGS.days),
        NODE_OPTIONS: serviceNodeOptions(),
      },
      INGEST_TIMEOUT_MS,
    );
    ingest = ingester.ready as unknown as IngestReport;
    await ingester.stop();
    profiles.push({ pid: ingester.pid, windows: [ingest.window] });
    process.stdout.write(describeIngestion(ingest, { goalS: SETTINGS.ingestGoalS, databaseName: SETTINGS.databaseName }));
    if (ingest.job.status !== 'ok') throw new Error(`economy.builder-fills ${ingest.job.status}: ${ingest.job.error}`);

    const db = new Client({ connectionString: databaseUrl });
    await db.connect();
    try {
      await db.query(`ANALYZE ${ECONOMY_TABLES}`);
    } finally {
      await db.end();
    }

    process.stdout.write(`starting the ${SETTINGS.adapter} app (jobs off)...\n`);
    app = await startServer(`app:${SETTINGS.adapter}`, 'bench/servers/app.server.ts', 0, {
      ...shared,
      HTTP_ADAPTER: SETTINGS.adapter,
      BENCH_KEYS: '0',
      JOBS_ENABLED: 'false',
    });
    const server = app;
    const base = `http://127.0.0.1:${server.ready.port}`;
    const { keys, probeKey } = ingest.heavy;
    const answers = new Map<string, { bytes: number; answer: string }>();
    const windows: ProfileWindow[] = [];
    profiles.push({ pid: server.pid, windows });
    for (const name of new Set(ORDER)) answers.set(name, await probe(`${base}${ROUTES[name]}`, probeKey));

    for (const [i, name] of ORDER.entries()) {
      const path = ROUTES[name];
      let dbCpuBefore = new Map<number, number>();
      let fromUs = 0;
      const m = await measure({
        url: `${base}${path}`,
        connections: SETTINGS.connections,
        durationS: SETTINGS.durationS,
        warmupS: SETTINGS.warmupS,
        keys: keys.slice(i * keysPerRun, (i + 1) * keysPerRun),
        serverPid: server.pid,
        beforeRun: async () => {
          dbCpuBefore = databaseCpu(SETTINGS.databaseName);
          fromUs = monotonicUs();
        },
      });
      windows.push({ label: `${name} ${path}`, fromUs, toUs: monotonicUs() });
      const dbCpuUsPerReq = Math.round((cpuSecondsBetween(dbCpuBefore, databaseCpu(SETTINGS.databaseName)) * 1e6) / Math.max(1, m.total));
      const loadAvg = loadavg()[0];
      process.stdout.write(
        `- ${name}: ${m.rps.toFixed(0)} req/s, p50 ${m.p50Ms} ms, p99 ${m.p99Ms} ms, server ${m.serverCpuUsPerReq} µs a request, ` +
          `PostgreSQL ${dbCpuUsPerReq} µs, load average ${loadAvg.toFixed(2)}\n`,
      );
      rows.push({ route: name, path, ...answers.get(name)!, dbCpuUsPerReq, loadAvg, ...m });
    }
    await app.stop();
    app = undefined;

    const explainer = new Client({ connectionString: databaseUrl });
    await explainer.connect();
    try {
      plans = await explainReads(explainer, { accountId: ingest.heavy.accountId, wallet: ingest.heavy.wallet, builder: sim.builder });
    } finally {
      await explainer.end();
    }
  } finally {
    await app?.stop();
    await upstream?.stop();
    killAll();
    await deleteRunKeys().catch((error: unknown) => process.stderr.write(`deleting the run's Redis keys failed: ${(error as Error).message}\n`));
    // The month takes a GB or so: kept only when asked (BENCH_KEEP_DATA=1), to look at it after the run.
    if (process.env.BENCH_KEEP_DATA !== '1')
      await dropDatabase().catch((error: unknown) => process.stderr.write(`dropping ${SETTINGS.databaseName} failed: ${(error as Error).message}\n`));
  }

  printTable(rows, { goalMs: SETTINGS.readGoalMs, connections: SETTINGS.connections });
  printPlans(plans ?? []);
  for (const { pid, windows } of profiles) printProfile(pid, windows);
  const dir = join(__dirname, 'results');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `economy-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  // The keys are worthless once the database is gone, and long: only their number is kept.
  const kept = ingest && { ...ingest, heavy: { ...ingest.heavy, keys: ingest.heavy.keys.length } };
  writeFileSync(
    file,
    `${JSON.stringify({ finishedAt: new Date().toISOString(), settings: { ...SETTINGS, keysPerRun }, ingest: kept, rows, plans }, null, 2)}\n`,
  );
  process.stdout.write(`results: ${file}\n`);
  const found = problems(rows);
  for (const p of found) process.stderr.write(`ERROR: ${p}\n`);
  if (found.length > 0) process.exitCode = 1;
}

// The bench's two helper processes are this file again, with a role (knip then sees their modules used).
const ROLE = process.env.BENCH_ECONOMY_ROLE;
const helperFailed = (error: unknown) => {
  process.stderr.write(`bench:economy ${ROLE} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
};
if (ROLE === 'upstream') {
  import('./lib/economy-upstream').then(({ serveEconomyUpstream }) => serveEconomyUpstream()).catch(helperFailed);
} else if (ROLE === 'ingest') {
  import('./lib/economy-ingest')
    .then(({ ingestMonth }) => ingestMonth())
    .then(() => process.exit(0))
    .catch(helperFailed);
} else if (process.env.BENCH_LOADGEN === '1') {
  process.on('exit', killAll);
  main().catch((error: unknown) => {
    process.stderr.write(`bench:economy failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    killAll();
    process.exit(1);
  });
} else {
  relaunchPinned(__filename);
}
