import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { killAll, startServer, ServerHandle, relaunchPinned } from './lib/children';
import { cleanUpRun } from './lib/cleanup';
import { measure } from './lib/load';
import { printTable, ratios, Row, writeResults } from './lib/report';
import { envNumber } from './lib/env';
import { describeCoreSpeeds, measureCoreSpeeds } from './lib/core-speed';

/**
 * `npm run bench`: requests/s and p99 of a bare node:http server (the machine's ceiling), the app's
 * unauthenticated health route and its authenticated, rate-limited, billed cheap route, on Express and
 * Fastify. Each server runs in its own process pinned to core 0; this process (the load generator) runs
 * pinned to core 1 (see relaunchPinned), so the two never compete for a core. PostgreSQL and Redis are
 * not pinned: they are part of what the billed route costs and take whatever core is free.
 */

const SETTINGS = {
  durationS: envNumber('BENCH_DURATION', 10),
  warmupS: envNumber('BENCH_WARMUP', 3),
  connections: envNumber('BENCH_CONNECTIONS', 50),
  // Upper bound used only to size the key pool (see keyCount); a faster machine needs a higher value.
  maxRps: envNumber('BENCH_MAX_RPS', 40_000),
  // BENCH_ADAPTERS=fastify measures one adapter only (quicker when working on one of them).
  adapters: (process.env.BENCH_ADAPTERS || 'express,fastify').split(','),
  serverCore: 0,
  loadCore: 1,
  databaseUrl: process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test',
  redisUrl: process.env.REDIS_URL || 'redis://127.0.0.1:6379',
};
const HEALTH_PATH = '/health/live';
const BILLED_PATH = '/api/public/v1/account/credits';
/** Max tier cap is 600 per key per clock minute; 500 leaves room for probes and a warm-up that shares the minute. */
const KEY_BUDGET = 500;
const TIER_RPM = 600;
const RUN_PREFIX = `bench:${randomBytes(4).toString('hex')}:`;

// Enough keys that even at maxRps for warm-up + measurement no key reaches its per-minute cap.
const keyCount = Math.ceil((SETTINGS.maxRps * (SETTINGS.warmupS + SETTINGS.durationS)) / KEY_BUDGET);

/**
 * `npm run bench` starts this file under ts-node, which loads node:repl and with it node:domain (a cost on
 * every EventEmitter emit, so on the load generator). So the first process only re-executes this file
 * under the bench's plain transpile hook, pinned to the load core, and waits for it.
 */

/** Share of all cores busy over one second, from /proc/stat (load average would still count the last run). */
async function machineBusyPct(): Promise<number> {
  const sample = () => {
    const [, ...ticks] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).map(Number);
    const idle = ticks[3] + ticks[4];
    return { idle, total: ticks.reduce((a, b) => a + b, 0) };
  };
  const a = sample();
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const b = sample();
  return 100 * (1 - (b.idle - a.idle) / Math.max(1, b.total - a.total));
}

/** One real request before the load: the route answers 200 with the success envelope, or the run stops here. */
async function probe(url: string, key?: string): Promise<string> {
  const res = await fetch(url, { headers: key ? { 'x-api-key': key } : {} });
  const body = await res.text();
  if (res.status !== 200 || !body.startsWith('{"code":"0"')) throw new Error(`probe ${url} answered ${res.status}: ${body.slice(0, 300)}`);
  return body;
}

async function runVariant(variant: Row['variant'], adapter: Row['adapter'], server: ServerHandle, path: string, keys?: string[]): Promise<Row> {
  process.stdout.write(
    `- ${variant} on ${adapter}: ${SETTINGS.warmupS} s warm-up, ${SETTINGS.durationS} s measured, ${SETTINGS.connections} connections${keys ? `, ${keys.length} keys` : ''}\n`,
  );
  const url = `http://127.0.0.1:${server.ready.port}${path}`;
  const m = await measure({ url, connections: SETTINGS.connections, durationS: SETTINGS.durationS, warmupS: SETTINGS.warmupS, keys, serverPid: server.pid });
  return { variant, adapter, path, ...m };
}

async function benchApp(adapter: 'express' | 'fastify', rows: Row[], wallets: string[]): Promise<string> {
  process.stdout.write(`starting ${adapter} app on core ${SETTINGS.serverCore} (migrations, ${keyCount} Max accounts + keys)...\n`);
  const started = Date.now();
  const server: ServerHandle = await startServer(`app:${adapter}`, 'bench/servers/app.server.ts', SETTINGS.serverCore, {
    HTTP_ADAPTER: adapter,
    BENCH_KEYS: String(keyCount),
    DATABASE_URL: SETTINGS.databaseUrl,
    REDIS_URL: SETTINGS.redisUrl,
    REDIS_KEY_PREFIX: `${RUN_PREFIX}${adapter}:`,
  });
  try {
    const keys = server.ready.keys ?? [];
    wallets.push(...(server.ready.wallets ?? []));
    process.stdout.write(`  ready on :${server.ready.port} (pid ${server.pid}) after ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
    const base = `http://127.0.0.1:${server.ready.port}`;
    await probe(`${base}${HEALTH_PATH}`);
    const billedBody = await probe(`${base}${BILLED_PATH}`, keys[0]);
    // Health first: the billed run leaves ledger entries for the background flusher, which would tax it.
    rows.push(await runVariant('health', adapter, server, HEALTH_PATH));
    rows.push(await runVariant('billed', adapter, server, BILLED_PATH, keys));
    return billedBody;
  } finally {
    await server.stop();
  }
}

/** The issue's reference point: bare Nest + Fastify with one Redis round trip (INCR) per request. */
async function benchMinimal(body: string | undefined, rows: Row[]): Promise<void> {
  const env = { REDIS_URL: SETTINGS.redisUrl, REDIS_KEY_PREFIX: `${RUN_PREFIX}minimal:`, ...(body ? { BENCH_BODY: body } : {}) };
  const server = await startServer('minimal', 'bench/servers/minimal.server.ts', SETTINGS.serverCore, env);
  try {
    rows.push(await runVariant('minimal', 'fastify', server, BILLED_PATH));
  } finally {
    await server.stop();
  }
}

async function benchBare(body: string | undefined, rows: Row[]): Promise<void> {
  // Without a captured body (both apps failed) the server falls back to one of the same shape and length.
  const server = await startServer('bare', 'bench/servers/bare.server.ts', SETTINGS.serverCore, body ? { BENCH_BODY: body } : {});
  try {
    rows.push(await runVariant('bare', 'node:http', server, BILLED_PATH));
  } finally {
    await server.stop();
  }
}

/**
 * Calls on the busiest key of a billed run. Every connection walks the key list from its start, in the
 * warm-up and again in the measured run, so the first keys get one round of all connections more than
 * the mean in each; the probe adds one call on the first key, and the priming one on each key.
 */
function busiestKeyCalls(r: Row): number {
  const rounds = (requests: number) => Math.ceil(requests / SETTINGS.connections / keyCount);
  return SETTINGS.connections * (rounds(r.warmupTotal) + rounds(r.total)) + 2;
}

/** Problems that make the figures meaningless: any failed request, or a key pool too small for the rate. */
function problems(rows: Row[]): string[] {
  const found: string[] = [];
  for (const r of rows) {
    if (r.non2xx > 0) found.push(`${r.variant} on ${r.adapter}: ${r.non2xx} non-2xx responses (status codes ${JSON.stringify(r.statusCodes)})`);
    if (r.errors + r.timeouts > 0) found.push(`${r.variant} on ${r.adapter}: ${r.errors} errors, ${r.timeouts} timeouts`);
    if (r.variant === 'billed' && busiestKeyCalls(r) > TIER_RPM) {
      found.push(`${r.variant} on ${r.adapter}: up to ${busiestKeyCalls(r)} requests on one key may exceed ${TIER_RPM}/min; raise BENCH_MAX_RPS`);
    }
  }
  return found;
}

async function main(): Promise<void> {
  process.stdout.write(
    `platform bench: server on core ${SETTINGS.serverCore}, autocannon on core ${SETTINGS.loadCore}, ${cpus().length} cores, node ${process.version}\n`,
  );
  // Pinning keeps server and load generator apart, not other jobs off their cores: say when there are some.
  const busyBefore = await machineBusyPct();
  if (busyBefore > 20) process.stderr.write(`WARNING: the machine was ${busyBefore.toFixed(0)} % busy before start; other work will skew the figures.\n`);
  const coreSpeedsBefore = measureCoreSpeeds();
  process.stdout.write(`${describeCoreSpeeds(coreSpeedsBefore)}\n`);
  const rows: Row[] = [];
  const wallets: string[] = [];
  const failures: string[] = [];
  // Each section on its own, so one adapter failing to start still leaves the other figures.
  const section = async <T>(name: string, run: () => Promise<T>): Promise<T | undefined> => {
    try {
      return await run();
    } catch (error) {
      failures.push(`${name}: ${error instanceof Error ? error.message : String(error)}`);
      process.stderr.write(`\nBENCH FAILED (${name}): ${failures[failures.length - 1]}\n\n`);
      return undefined;
    }
  };
  try {
    const expressBody = SETTINGS.adapters.includes('express') ? await section('express', () => benchApp('express', rows, wallets)) : undefined;
    const fastifyBody = SETTINGS.adapters.includes('fastify') ? await section('fastify', () => benchApp('fastify', rows, wallets)) : undefined;
    // Last, with the exact bytes the billed route just answered, so only the framework differs.
    if (process.env.BENCH_MINIMAL !== '0') await section('minimal', () => benchMinimal(fastifyBody ?? expressBody, rows));
    await section('bare', () => benchBare(fastifyBody ?? expressBody, rows));
  } finally {
    killAll();
    await cleanUpRun({ redisUrl: SETTINGS.redisUrl, databaseUrl: SETTINGS.databaseUrl, prefix: RUN_PREFIX, wallets }).catch((error: unknown) =>
      process.stderr.write(`cleanup failed: ${(error as Error).message}\n`),
    );
  }
  if (rows.length === 0) return void (process.exitCode = 1);
  // Again after the runs: the machine's phase can change within one.
  const coreSpeedsAfter = measureCoreSpeeds();
  process.stdout.write(`after the runs, ${describeCoreSpeeds(coreSpeedsAfter)}\n`);

  const order: Array<[Row['variant'], Row['adapter']]> = [
    ['bare', 'node:http'],
    ['minimal', 'fastify'],
    ['health', 'express'],
    ['billed', 'express'],
    ['health', 'fastify'],
    ['billed', 'fastify'],
  ];
  const sorted = order.map(([v, a]) => rows.find((r) => r.variant === v && r.adapter === a)).filter((r): r is Row => r !== undefined);
  const computed = ratios(sorted);
  printTable(sorted, computed);
  const file = writeResults(
    join(__dirname, 'results'),
    {
      ...SETTINGS,
      keysPerAppServer: keyCount,
      pipelining: 1,
      machineBusyPctBefore: busyBefore,
      loadAverageAfter: loadavg()[0],
      coreSpeedsBefore,
      coreSpeedsAfter,
    },
    sorted,
    computed,
  );
  process.stdout.write(`results: ${file}\n`);

  const found = problems(sorted);
  for (const p of found) process.stderr.write(`ERROR: ${p}\n`);
  for (const f of failures) process.stderr.write(`ERROR: ${f}\n`);
  if (failures.length > 0 || found.length > 0) process.exitCode = 1;
}

if (process.env.BENCH_LOADGEN !== '1') {
  relaunchPinned(__filename, SETTINGS.loadCore);
} else {
  // Whatever happens, no server outlives the bench.
  process.on('exit', killAll);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      killAll();
      process.exit(130);
    });
  }
  void main();
}
