import 'reflect-metadata';
import { INestApplication } from '@nestjs/common';
import { constants, performance, PerformanceObserver } from 'node:perf_hooks';
import { DataSource } from 'typeorm';
import { createApp } from '../../src/app.factory';
import { loadAppConfig } from '../../src/config/app.config';
import { JobRegistry } from '../../src/jobs/job-registry';
import { JobRunner } from '../../src/jobs/job-runner';
import { AccountAdminService } from '../../src/modules/account/account-admin.service';
import { generateApiKey } from '../../src/modules/account/api-key-format';
import { BuilderFillsJob, finishedDays } from '../../src/modules/builder-fills/builder-fills.job';
import { BuilderFillsRepository } from '../../src/modules/builder-fills/builder-fills.repository';
import { fromDailyFile } from '../../src/modules/builder-fills/fill-attribution';
import { OpcRevenueRepository } from '../../src/modules/opc/opc-revenue.repository';
import { PointsLedgerRepository } from '../../src/modules/points/points-ledger.repository';
import { BUILDER_FILLS_SOURCE, BuilderFillsSource } from '../../src/providers/hyperliquid/builder-fills-source';
import { parseBuilderFillsCsv } from '../../src/providers/hyperliquid/hyperliquid-builder-fills.schema';
import { HyperliquidInfoClient } from '../../src/providers/hyperliquid/hyperliquid-info.client';
import { decompressLz4Frames } from '../../src/providers/hyperliquid/lz4-frame';
import { monotonicUs, ProfileWindow } from './cpu-profile';
import { processCpu } from './load';
import { cpuSecondsBetween, databaseCpu } from './news-report';
import type { EconomyTrader } from './economy-upstream';

const JOB = 'economy.builder-fills';
const KEY_INSERT_BATCH = 500;
const MB = 1024 * 1024;
const MEMORY_SAMPLE_MS = 50;

/** One stage of the job: its time summed over its calls (each call's time kept in order). */
interface Stage {
  stage: string;
  ms: number;
  calls: number[];
}

export interface IngestReport {
  port: 0;
  appStartMs: number;
  job: { status: string; ms: number; rows: number; failures: number; details: Record<string, unknown>; error?: string };
  /** The job's stretch of this process's life, for its CPU profile (BENCH_NODE_ARGS="--cpu-prof ..."). */
  window: ProfileWindow;
  /** The job's time by stage, in the order the job reaches them; what none of them holds is the job's own code. */
  stages: Stage[];
  cpu: { ingestUserS: number; ingestSystemS: number; postgresS: number; upstreamS: number };
  /**
   * RSS right before the job and its highest sample during it (every 50 ms), and the process's peak RSS
   * (maxRSS, which also covers start-up: the bench's require hook loads the TypeScript compiler, which a
   * deployed `node dist/...` does not). jobPeakLiveHeapMb is the heap used just after a major GC, at its
   * highest: what the job really holds, as opposed to garbage V8 had not collected yet.
   */
  memory: { beforeJobRssMb: number; beforeJobHeapMb: number; jobPeakRssMb: number; jobPeakHeapMb: number; jobPeakLiveHeapMb: number; processPeakRssMb: number };
  counts: { fills: number; pointsRows: number; heavyPointsRows: number; heavyFeeRows: number; balances: number };
  sizes: { builderFillsMb: number; builderFillsIndexesMb: number; pointsMb: number };
  /** A few of the month's files read again outside the job, stage by stage: means per file. */
  replay: { files: number; fills: number; downloadMs: number; decompressMs: number; parseMs: number; attributeMs: number };
  heavy: { wallet: string; accountId: string; probeKey: string; keys: string[] };
  accounts: number;
}

/**
 * The ingestion half of `npm run bench:economy`, in a child process of its own (so its peak RSS is the app's
 * alone): the real app (createApp, jobs off), one Max account per trader the upstream named, created before
 * ingestion so that points accrue for them, and a pool of keys for the heavy trader (below). Then
 * `economy.builder-fills` runs once through the JobRunner (lock, run record) with the job's `now` pinned to the
 * simulator's clock, so the month it reads is the month the simulator built whatever the wall clock does
 * meanwhile. Its stages are timed by wrapping the instances it calls (source, repositories, info client).
 * Prints one `BENCH_READY {json}` line (IngestReport), and exits.
 *
 * The key pool: a key may make 600 calls a clock minute (Max) and an account may hold 5 keys, far fewer than
 * a benchmark sends; the measured routes read by account and wallet, never by key, so the heavy trader gets
 * BENCH_ECONOMY_KEYS more keys written as the service writes them (hashed, one row each) to spread the load over.
 */
export async function ingestMonth(): Promise<void> {
  const now = Number(process.env.BENCH_ECONOMY_NOW);
  const traders = JSON.parse(process.env.BENCH_ECONOMY_TRADERS ?? '[]') as EconomyTrader[];
  const keyCount = Number(process.env.BENCH_ECONOMY_KEYS ?? '0');
  const replayDays = Number(process.env.BENCH_ECONOMY_REPLAY_DAYS ?? '3');
  const databaseName = new URL(process.env.DATABASE_URL ?? '').pathname.slice(1);
  const upstreamPid = Number(process.env.BENCH_ECONOMY_UPSTREAM_PID);
  if (!Number.isFinite(now) || traders.length === 0) throw new Error('BENCH_ECONOMY_NOW and BENCH_ECONOMY_TRADERS must be set');

  const appStarted = performance.now();
  const config = loadAppConfig({ ...process.env, LOG_LEVEL: 'warn', MIGRATIONS_RUN: 'true', JOBS_ENABLED: 'false' });
  const app = await createApp(config);
  await app.init();
  const appStartMs = Math.round(performance.now() - appStarted);
  try {
    const db = app.get(DataSource);
    const admin = app.get(AccountAdminService);
    for (const trader of traders) await admin.createAccount({ wallet: trader.address, tier: 'max' });
    const heavyWallet = traders[0].address;
    const probe = await admin.createKey({ wallet: heavyWallet, name: 'bench probe' });
    const [{ id: accountId }]: Array<{ id: string }> = await db.query(`SELECT id FROM accounts WHERE wallet_address = $1`, [heavyWallet]);
    const keys = await addKeys(db, accountId, keyCount);

    const stages = timeStages(app);

    const registered = app.get(JobRegistry).get(JOB);
    if (!registered) throw new Error(`no job ${JOB} in this app`);
    const job = app.get(BuilderFillsJob);
    const memory = watchMemory();
    const cpuBefore = process.cpuUsage();
    const postgresBefore = databaseCpu(databaseName);
    const upstreamBefore = processCpu(upstreamPid);
    const started = performance.now();
    const fromUs = monotonicUs();
    const result = await app.get(JobRunner).run({ ...registered, run: (signal, progress) => job.run(signal, progress, now) });
    const jobMs = Math.round(performance.now() - started);
    // Read at once: the queries below are not the job's.
    const jobMemory = memory.stop();
    const window = { label: JOB, fromUs, toUs: monotonicUs() };
    const cpu = process.cpuUsage(cpuBefore);
    const postgresS = cpuSecondsBetween(postgresBefore, databaseCpu(databaseName));
    const upstreamAfter = processCpu(upstreamPid);

    const [counts]: Array<Record<string, string>> = await db.query(
      `SELECT (SELECT count(*) FROM builder_fills) AS fills, (SELECT count(*) FROM points_transactions) AS points,
              (SELECT count(*) FROM points_transactions WHERE account_id = $1) AS heavy_points,
              (SELECT count(*) FROM builder_fills WHERE user_address = $2 AND builder = $3 AND fill_time >= now() - interval '31 days') AS heavy_fees,
              (SELECT count(*) FROM points_balances) AS balances,
              pg_total_relation_size('builder_fills') AS fills_bytes, pg_indexes_size('builder_fills') AS fills_index_bytes,
              pg_total_relation_size('points_transactions') AS points_bytes`,
      [accountId, heavyWallet, config.economy.builderAddress],
    );
    const report: IngestReport = {
      port: 0,
      appStartMs,
      job: {
        status: result.status,
        ms: jobMs,
        rows: result.outcome?.rows ?? 0,
        failures: result.outcome?.failures ?? 0,
        details: result.outcome?.details ?? {},
        error: result.error,
      },
      window,
      stages,
      cpu: {
        ingestUserS: cpu.user / 1e6,
        ingestSystemS: cpu.system / 1e6,
        postgresS,
        upstreamS: upstreamAfter.user + upstreamAfter.system - upstreamBefore.user - upstreamBefore.system,
      },
      memory: jobMemory,
      counts: {
        fills: Number(counts.fills),
        pointsRows: Number(counts.points),
        heavyPointsRows: Number(counts.heavy_points),
        heavyFeeRows: Number(counts.heavy_fees),
        balances: Number(counts.balances),
      },
      sizes: {
        builderFillsMb: Number(counts.fills_bytes) / MB,
        builderFillsIndexesMb: Number(counts.fills_index_bytes) / MB,
        pointsMb: Number(counts.points_bytes) / MB,
      },
      replay: await replay({
        statsUrl: config.hyperliquid.statsUrl,
        builder: config.economy.builderAddress ?? '',
        days: finishedDays(now, config.economy.backfillDays).slice(0, replayDays),
      }),
      heavy: { wallet: heavyWallet, accountId, probeKey: probe.key, keys },
      accounts: traders.length,
    };
    process.stdout.write(`BENCH_READY ${JSON.stringify(report)}\n`);
  } finally {
    await app.close();
  }
}

/** The job's stages, timed by wrapping the instances it calls (singletons: the job holds these very objects). */
function timeStages(app: INestApplication): Stage[] {
  const stages: Stage[] = [];
  const timed = <T extends object>(target: T, method: keyof T & string, stage: string) => timeMethod(target, method, stageOf(stages, stage));
  const fills = app.get(BuilderFillsRepository);
  const points = app.get(PointsLedgerRepository);
  timed(app.get<BuilderFillsSource>(BUILDER_FILLS_SOURCE), 'dailyFills', 'download + decompress + parse (per file)');
  timed(fills, 'store', 'insert into builder_fills (per file, then own fills)');
  timed(fills, 'ingestedDays', 'days already read');
  timed(fills, 'markDayIngested', 'mark day read');
  timed(app.get(HyperliquidInfoClient), 'userFillsByTime', "account wallets' own fills (userFillsByTime)");
  timed(points, 'accrue', 'points accrual');
  timed(points, 'refreshRanks', 'points ranks');
  timed(app.get(OpcRevenueRepository), 'refresh', 'OPC revenue');
  return stages;
}

/** Watches this process's memory from now until `stop()`, which answers IngestReport['memory']. */
function watchMemory(): { stop(): IngestReport['memory'] } {
  const before = process.memoryUsage();
  const peak = { rss: 0, heap: 0, liveHeap: 0 };
  const sampler = setInterval(() => {
    const usage = process.memoryUsage();
    peak.rss = Math.max(peak.rss, usage.rss);
    peak.heap = Math.max(peak.heap, usage.heapUsed);
  }, MEMORY_SAMPLE_MS);
  const majorGcs = new PerformanceObserver((list) => {
    const major = list.getEntries().some((entry) => (entry as unknown as { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR);
    if (major) peak.liveHeap = Math.max(peak.liveHeap, process.memoryUsage().heapUsed);
  });
  majorGcs.observe({ entryTypes: ['gc'] });
  return {
    stop: () => {
      clearInterval(sampler);
      majorGcs.disconnect();
      return {
        beforeJobRssMb: before.rss / MB,
        beforeJobHeapMb: before.heapUsed / MB,
        jobPeakRssMb: peak.rss / MB,
        jobPeakHeapMb: peak.heap / MB,
        jobPeakLiveHeapMb: peak.liveHeap / MB,
        processPeakRssMb: process.resourceUsage().maxRSS / 1024,
      };
    },
  };
}

function stageOf(stages: Stage[], stage: string): Stage {
  const entry = { stage, ms: 0, calls: [] };
  stages.push(entry);
  return entry;
}

/** Replaces `target[method]` (an async method) by one that adds each call's time to `stage`. */
function timeMethod<T extends object>(target: T, method: keyof T & string, stage: Stage): void {
  const original = Reflect.get(target, method) as (...args: unknown[]) => Promise<unknown>;
  Reflect.set(target, method, async (...args: unknown[]) => {
    const started = performance.now();
    try {
      return await original.apply(target, args);
    } finally {
      const ms = performance.now() - started;
      stage.ms += ms;
      stage.calls.push(Math.round(ms));
    }
  });
}

/** `count` keys of the account, written as AccountAdminService writes one (prefix and SHA-256; plaintext returned). */
async function addKeys(db: DataSource, accountId: string, count: number): Promise<string[]> {
  const keys = Array.from({ length: count }, generateApiKey);
  for (let i = 0; i < keys.length; i += KEY_INSERT_BATCH) {
    const batch = keys.slice(i, i + KEY_INSERT_BATCH);
    await db.query(`INSERT INTO api_keys (account_id, name, prefix, key_hash) SELECT $1, 'bench pool', unnest($2::text[]), unnest($3::text[])`, [
      accountId,
      batch.map((key) => key.prefix),
      batch.map((key) => key.hash),
    ]);
  }
  return keys.map((key) => key.plaintext);
}

/**
 * The job's first stage split: a few files downloaded again, then decompressed, parsed (with the fill keys)
 * and attributed as the job does, each step timed alone. Means per file.
 */
async function replay({ statsUrl, builder, days }: { statsUrl: string; builder: string; days: string[] }): Promise<IngestReport['replay']> {
  const sums = { files: 0, fills: 0, downloadMs: 0, decompressMs: 0, parseMs: 0, attributeMs: 0 };
  const utf8 = new TextDecoder('utf-8', { fatal: true });
  for (const day of days) {
    const label = `builder_fills/${builder}/${day.replace(/-/g, '')}.csv`;
    let at = performance.now();
    const lap = () => {
      const ms = performance.now() - at;
      at = performance.now();
      return ms;
    };
    const response = await fetch(`${statsUrl}/${label}.lz4`);
    if (!response.ok) throw new Error(`replay: ${label}.lz4 answered ${response.status}`);
    const bytes = new Uint8Array(await response.arrayBuffer());
    sums.downloadMs += lap();
    const csv = decompressLz4Frames(bytes);
    sums.decompressMs += lap();
    const parsed = parseBuilderFillsCsv(utf8.decode(csv), { builder, label });
    sums.parseMs += lap();
    // Every simulated fill is a perp: its quote is USD at par, as SpotQuotes answers without a lookup.
    const attributed = parsed.map((fill) => fromDailyFile(fill, '1'));
    sums.attributeMs += lap();
    sums.files += 1;
    sums.fills += attributed.length;
  }
  const per = (ms: number) => Math.round(ms / Math.max(1, sums.files));
  return {
    files: sums.files,
    fills: sums.fills,
    downloadMs: per(sums.downloadMs),
    decompressMs: per(sums.decompressMs),
    parseMs: per(sums.parseMs),
    attributeMs: per(sums.attributeMs),
  };
}
