import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { ensureDatabase } from './lib/database';
import { killAll, ServerHandle, startServer, relaunchPinned } from './lib/children';
import { cleanUpRun } from './lib/cleanup';
import { measure, Measurement } from './lib/load';
import { ISSUE_REFERENCE_SHARE } from './lib/report';
import { envNumber } from './lib/env';
import { describeCoreSpeeds, measureCoreSpeeds } from './lib/core-speed';

/**
 * `npm run bench:hl`: on the simulator's 100,000-wallet market (~1,000,000 positions), the market
 * snapshot's build time and peak memory, then requests/s and p99 of `/hl/prices/mids` (against a bare
 * node:http server returning the same body, run before and after the app's variants, the faster counting;
 * and against the issue's reference, a minimal Nest + Fastify app with one Redis INCR per call) and of a
 * 100-row `/hl/perp/holders` page at page 1 and at cursor depth 500,000, on Fastify. Servers run pinned
 * to core 0, this load generator to core 1.
 */
const SETTINGS = {
  durationS: envNumber('BENCH_DURATION', 10),
  warmupS: envNumber('BENCH_WARMUP', 3),
  connections: envNumber('BENCH_CONNECTIONS', 50),
  // Holders pages are measured for latency at a moderate load too (the p99 target), not only saturated.
  holdersConnections: envNumber('BENCH_HOLDERS_CONNECTIONS', 10),
  // Sizes the key pool only; mids passed 20,000 req/s in the fourth session.
  maxRps: envNumber('BENCH_MAX_RPS', 40_000),
  wallets: envNumber('BENCH_WALLETS', 100_000),
  adminUrl: process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test',
  databaseName: process.env.BENCH_HL_DATABASE || 'hlbench',
  redisUrl: process.env.REDIS_URL || 'redis://127.0.0.1:6379',
};
const PUBLIC = '/api/public/v1';
const DEPTH = 500_000;
const PAGE = 100;
// Max tier: 600 per key per minute; a variant's warm-up and run stay well under that on one slice of keys.
const keyCount = Math.ceil((SETTINGS.maxRps * (SETTINGS.warmupS + SETTINGS.durationS)) / 400);
// The keyed variants take the slices in turn: variants run back to back, so up to three share a clock
// minute, and in a fast phase (eleventh session: mids 23k req/s, holders 12k-18k) three of them on one set
// of keys passed 600 calls a minute on the first keys and the last one got 429s.
const KEY_SLICES = 4;
const MINIMAL_PREFIX = `bench:${randomBytes(4).toString('hex')}:minimal:`;

/**
 * The build leaves gigabytes of dirty pages that PostgreSQL's checkpointer would otherwise write out during
 * the measured runs of the app (and not during the bare server's, which come last): a checkpoint first puts
 * every variant on the same quiet database. Needs a superuser or pg_checkpoint; without, say so and go on.
 */
async function settleDatabase(databaseUrl: string): Promise<void> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('CHECKPOINT');
  } catch (error) {
    process.stderr.write(`WARNING: no CHECKPOINT after the build (${(error as Error).message}); the measured runs share the machine with it\n`);
  } finally {
    await client.end();
  }
}

async function getJson(url: string, key: string) {
  const res = await fetch(url, { headers: { 'x-api-key': key } });
  const body = (await res.json()) as { code: string; data: Record<string, unknown> };
  if (res.status !== 200) throw new Error(`${url} answered ${res.status}: ${JSON.stringify(body).slice(0, 300)}`);
  return body;
}

/** Follows nextCursor from the first page to `depth` rows, rotating keys (each key allows 600 calls a minute). */
async function cursorAt(base: string, coin: string, depth: number, keys: string[]): Promise<string> {
  let cursor = '';
  for (let rank = 0, i = 0; rank < depth; rank += PAGE, i += 1) {
    const body = await getJson(
      `${base}${PUBLIC}/hl/perp/holders?coin=${encodeURIComponent(coin)}&limit=${PAGE}${cursor ? `&cursor=${cursor}` : ''}`,
      keys[i % keys.length],
    );
    cursor = String(body.data.nextCursor);
  }
  return cursor;
}

interface Row extends Measurement {
  variant: string;
}

async function variant(name: string, server: ServerHandle, path: string, keys?: string[], connections = SETTINGS.connections): Promise<Row> {
  process.stdout.write(`- ${name}\n`);
  const m = await measure({
    url: `http://127.0.0.1:${server.ready.port}${path}`,
    connections,
    durationS: SETTINGS.durationS,
    warmupS: SETTINGS.warmupS,
    keys,
    serverPid: server.pid,
  });
  return { variant: `${name}, ${connections} conn`, ...m };
}

async function main(): Promise<void> {
  const databaseUrl = await ensureDatabase(SETTINGS.adminUrl, SETTINGS.databaseName);
  process.stdout.write(`building the ${SETTINGS.wallets}-wallet market in ${SETTINGS.databaseName} (simulator -> jobs -> PostgreSQL; minutes on 2 cores)...\n`);
  const build = await startServer(
    'hl-build',
    'bench/servers/hl-build.ts',
    0,
    { DATABASE_URL: databaseUrl, REDIS_URL: SETTINGS.redisUrl, BENCH_WALLETS: String(SETTINGS.wallets) },
    3_600_000,
  );
  const built = build.ready as unknown as Record<string, number | string | boolean>;
  await build.stop();
  await settleDatabase(databaseUrl);
  const speedsBefore = describeCoreSpeeds(measureCoreSpeeds());

  const app = await startServer('app:fastify', 'bench/servers/app.server.ts', 0, {
    HTTP_ADAPTER: 'fastify',
    BENCH_KEYS: String(keyCount * KEY_SLICES),
    DATABASE_URL: databaseUrl,
    REDIS_URL: SETTINGS.redisUrl,
  });
  const rows: Row[] = [];
  let bare: ServerHandle | undefined;
  let minimal: ServerHandle | undefined;
  let referenceRow: Row;
  let mids: Row;
  let page1Row: Row;
  let deepRow: Row;
  // Bare runs twice, before mids (the app idle beside it) and at the end (the app stopped), and mids is
  // judged against the faster of the two: one bare run alone once came out a third slow (p99 13–14 ms
  // against its usual 3 ms) and made mids pass that would not have (docs/benchmarks.md, tenth session).
  const bareRows: Row[] = [];
  try {
    const keys = app.ready.keys ?? [];
    let slice = 0;
    const nextKeys = () => {
      const i = slice++ % KEY_SLICES;
      return keys.slice(i * keyCount, (i + 1) * keyCount);
    };
    const base = `http://127.0.0.1:${app.ready.port}`;
    const midsBody = JSON.stringify(await getJson(`${base}${PUBLIC}/hl/prices/mids`, keys[0]));
    process.stdout.write(`walking a cursor to depth ${DEPTH} on ${built.deepCoin}...\n`);
    const deep = await cursorAt(base, String(built.deepCoin), DEPTH, keys);
    bare = await startServer('bare', 'bench/servers/bare.server.ts', 0, { BENCH_BODY: midsBody });
    bareRows.push(await variant('bare node:http (mids body), before', bare, '/'));
    mids = await variant('mids (fastify)', app, `${PUBLIC}/hl/prices/mids`, nextKeys());
    // The issue's reference, a minimal Nest + Fastify app with one Redis INCR per call, on the same body.
    // It checks no key, so it takes no slice of them; its windows go with the run's prefix afterwards.
    minimal = await startServer('minimal', 'bench/servers/minimal.server.ts', 0, {
      REDIS_URL: SETTINGS.redisUrl,
      REDIS_KEY_PREFIX: MINIMAL_PREFIX,
      BENCH_BODY: midsBody,
    });
    referenceRow = await variant('minimal nest+fastify+1 redis (mids body)', minimal, `${PUBLIC}/hl/prices/mids`);
    await minimal.stop();
    await cleanUpRun({ redisUrl: SETTINGS.redisUrl, databaseUrl, prefix: MINIMAL_PREFIX, wallets: [] });
    const page1 = `${PUBLIC}/hl/perp/holders?coin=BTC&limit=${PAGE}`;
    const deepPath = `${PUBLIC}/hl/perp/holders?coin=${encodeURIComponent(String(built.deepCoin))}&limit=${PAGE}&cursor=${deep}`;
    page1Row = await variant('holders page 1 (BTC, fastify)', app, page1, nextKeys(), SETTINGS.holdersConnections);
    deepRow = await variant(`holders cursor depth ${DEPTH} (fastify)`, app, deepPath, nextKeys(), SETTINGS.holdersConnections);
    rows.push(mids, referenceRow, page1Row, deepRow);
    rows.push(await variant('holders page 1 (BTC, fastify)', app, page1, nextKeys()));
    rows.push(await variant(`holders cursor depth ${DEPTH} (fastify)`, app, deepPath, nextKeys()));
    await app.stop();
    bareRows.push(await variant('bare node:http (mids body), after', bare, '/'));
    rows.push(...bareRows);
  } finally {
    await app.stop();
    await minimal?.stop();
    await bare?.stop();
  }

  process.stdout.write(`\nbefore the runs, ${speedsBefore}\nafter the runs, ${describeCoreSpeeds(measureCoreSpeeds())}\n`);
  process.stdout.write(
    `\nsnapshot: ${built.positions} positions -> ${built.snapshotRows} holder rows in ${(Number(built.snapshotMs) / 1000).toFixed(1)} s, ` +
      `node peak RSS ${built.peakRssMb} MB${built.reused ? ' (positions reused from an earlier run)' : `, polling took ${(Number(built.pollMs) / 1000).toFixed(0)} s`}\n\n`,
  );
  // As in `npm run bench`: how busy the server's core was, and its CPU per request (steadier than req/s).
  const cpuColumns = ['srv cpu%', 'gen cpu%', 'srv µs/req'];
  process.stdout.write(
    `${'variant'.padEnd(52)} ${'req/s'.padStart(8)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)} ${'non2xx'.padStart(7)} ${cpuColumns.map((c) => c.padStart(10)).join(' ')}\n`,
  );
  for (const r of rows) {
    const cpu = [r.serverCpuPct, r.loadgenCpuPct, r.serverCpuUsPerReq].map((v) => String(v).padStart(10)).join(' ');
    process.stdout.write(
      `${r.variant.padEnd(52)} ${r.rps.toFixed(0).padStart(8)} ${String(r.p50Ms).padStart(7)} ${String(r.p99Ms).padStart(7)} ${String(r.non2xx).padStart(7)} ${cpu}\n`,
    );
  }
  const bareRow = bareRows.reduce((best, row) => (row.rps > best.rps ? row : best));
  const ratio = mids.rps / bareRow.rps;
  process.stdout.write(`\nsnapshot under 60 s: ${Number(built.snapshotMs) < 60_000 ? 'PASS' : 'MISS'}\n`);
  process.stdout.write(`mids / bare = ${(ratio * 100).toFixed(2)}% against the faster bare run (target >= 35%): ${ratio >= 0.35 ? 'PASS' : 'MISS'}\n`);
  // As in `npm run bench`: the issue calibrates its target on the reference ("about 45 % here").
  const calibrated = (ISSUE_REFERENCE_SHARE * mids.rps) / referenceRow.rps;
  process.stdout.write(
    `mids / bare at a 45 % reference = ${(calibrated * 100).toFixed(2)}% (context: mids / minimal ${(mids.rps / referenceRow.rps).toFixed(3)}, minimal / bare ${(referenceRow.rps / bareRow.rps).toFixed(3)})\n`,
  );
  process.stdout.write(
    `mids / bare by server CPU per request = ${((100 * bareRow.serverCpuUsPerReq) / mids.serverCpuUsPerReq).toFixed(0)}% (context; whole µs)\n`,
  );
  for (const r of [page1Row, deepRow]) process.stdout.write(`${r.variant}: p99 ${r.p99Ms} ms (target < 20 ms): ${r.p99Ms < 20 ? 'PASS' : 'MISS'}\n`);
  const failed = rows.filter((r) => r.non2xx > 0 || r.errors > 0);
  if (failed.length > 0) throw new Error(`non-2xx or errors in: ${failed.map((r) => `${r.variant} ${JSON.stringify(r.statusCodes)}`).join('; ')}`);
}

if (process.env.BENCH_LOADGEN === '1') {
  process.on('exit', killAll);
  main().catch((error: unknown) => {
    process.stderr.write(`bench:hl failed: ${error instanceof Error ? error.message : String(error)}\n`);
    killAll();
    process.exit(1);
  });
} else {
  relaunchPinned(__filename);
}
