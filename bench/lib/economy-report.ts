import 'reflect-metadata';
import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import { FeesRepository } from '../../src/modules/fees/fees.repository';
import { PointsRepository } from '../../src/modules/points/points.repository';
import type { IngestReport } from './economy-ingest';
import type { UpstreamReport } from './economy-upstream';
import type { Measurement } from './load';
import { explain, Explained, inlined, Statement } from './news-explain';
import { alignedTable } from './report';

/** One measured run: its load figures, what the answer held, and PostgreSQL's CPU per request. */
export interface EconomyRow extends Measurement {
  route: string;
  path: string;
  bytes: number;
  answer: string;
  /** CPU of the bench database's PostgreSQL backends per answered request, in µs. */
  dbCpuUsPerReq: number;
  /** The machine's 1-minute load average at the end of the run: above 2 on this 2-core machine, other work shared it. */
  loadAvg: number;
}

const n = (value: number) => Math.round(value).toLocaleString('en-US');
const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const mb = (value: number) => `${value.toFixed(0)} MB`;
const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

export function describeUpstream(up: UpstreamReport): string {
  const { files } = up;
  return (
    `  simulator ready in ${s(up.worldMs)}; ${n(up.clients)} wallets trade through the service's builder ${up.builder}\n` +
    `  ${files.days} daily files built in ${s(files.buildMs)} (served from memory): ${n(files.fills)} fills, ` +
    `${n(files.fills / Math.max(1, files.days))} a day, ${mb(files.csvBytes / 2 ** 20)} of CSV, ${mb(files.lz4Bytes / 2 ** 20)} as LZ4\n` +
    `  accounts for ${up.traders.length} traders: ${up.traders.map((t) => `${t.address.slice(0, 10)}… ${n(t.fills)}`).join(', ')} fills\n`
  );
}

/** The ingestion's figures: wall time against the goal, rows, memory, CPU split and the time of each stage. */
export function describeIngestion(report: IngestReport, { goalS, databaseName }: { goalS: number; databaseName: string }): string {
  const { job, counts, memory, cpu, replay, sizes } = report;
  const staged = report.stages.reduce((sum, stage) => sum + stage.ms, 0);
  const lines = [
    `  economy.builder-fills: ${job.status} in ${s(job.ms)} (goal < ${goalS} s: ${job.ms < goalS * 1000 ? 'yes' : 'NO'}), ` +
      `${n(job.rows)} fills stored (${n(counts.fills)} in builder_fills), ${n(counts.pointsRows)} points rows for ${counts.balances} accounts, ` +
      `${job.failures} failures; details ${JSON.stringify(job.details)}`,
    `  memory of the ingesting process (the app alone; the simulator is another process): RSS ${mb(memory.beforeJobRssMb)} before the job ` +
      `(heap used ${mb(memory.beforeJobHeapMb)}), ` +
      `${mb(memory.jobPeakRssMb)} at its highest during it (heap used ${mb(memory.jobPeakHeapMb)}, ${mb(memory.jobPeakLiveHeapMb)} just after a major GC); maxRSS ${mb(memory.processPeakRssMb)}; ` +
      `app start with migrations ${s(report.appStartMs)}`,
    `  CPU during the job: ingesting process ${(cpu.ingestUserS + cpu.ingestSystemS).toFixed(1)} s (user ${cpu.ingestUserS.toFixed(1)}, ` +
      `system ${cpu.ingestSystemS.toFixed(1)}), PostgreSQL backends of ${databaseName} ${cpu.postgresS.toFixed(1)} s, upstream ${cpu.upstreamS.toFixed(1)} s`,
    `  heavy trader ${report.heavy.wallet}: ${n(counts.heavyPointsRows)} points rows, ${n(counts.heavyFeeRows)} fills in the last 31 days`,
    `  tables: builder_fills ${mb(sizes.builderFillsMb)} (indexes ${mb(sizes.builderFillsIndexesMb)}), points_transactions ${mb(sizes.pointsMb)}`,
    '  where the job time goes (stage: total; calls; per call median, first and last 5 calls mean):',
  ];
  for (const stage of report.stages) {
    if (stage.calls.length === 0) continue;
    const spread = stage.calls.length >= 10 ? `; first 5 ${n(mean(stage.calls.slice(0, 5)))} ms, last 5 ${n(mean(stage.calls.slice(-5)))} ms` : '';
    lines.push(
      `    ${stage.stage.padEnd(56)} ${s(stage.ms).padStart(8)}  ${String(stage.calls.length).padStart(3)} calls, median ${n(median(stage.calls))} ms${spread}`,
    );
  }
  // The job reads the next day's file while it stores the current one, so the stages overlap and their sum can pass the job's time.
  lines.push(
    job.ms >= staged
      ? `    ${"the job's own code between stages (fill attribution, USD volume) and the runner".padEnd(56)} ${s(job.ms - staged).padStart(8)}`
      : `    stages overlapping (the next day read while the current one is stored)`.padEnd(61) + `${s(staged - job.ms).padStart(8)} in parallel`,
  );
  lines.push(
    `  the first stage split, ${replay.files} files read again outside the job (mean per file of ${n(replay.fills / Math.max(1, replay.files))} fills): ` +
      `download ${replay.downloadMs} ms, decompress ${replay.decompressMs} ms, parse with fill keys ${replay.parseMs} ms; attribution (fromDailyFile) ${replay.attributeMs} ms`,
  );
  return `${lines.join('\n')}\n`;
}

export function printTable(rows: EconomyRow[], { goalMs, connections }: { goalMs: number; connections: number }): void {
  const header = ['route', 'req/s', 'p50 ms', 'p99 ms', `p99<${goalMs}`, 'server CPU', 'µs/req', '× ref', 'PG µs/req', 'load avg', 'bytes'];
  const body = rows.map((r, i) => [
    r.route,
    r.rps.toFixed(0),
    String(r.p50Ms),
    String(r.p99Ms),
    r.p99Ms < goalMs ? 'yes' : 'NO',
    `${r.serverCpuPct}%`,
    String(r.serverCpuUsPerReq),
    timesReference(rows, i),
    String(r.dbCpuUsPerReq),
    r.loadAvg.toFixed(2),
    String(r.bytes),
  ]);
  process.stdout.write(`\n${alignedTable(header, body)}\n`);
  process.stdout.write(
    `  ${connections} connections; µs/req: the app server's CPU per answer; × ref: that over the mean of the reference runs just before ` +
      `and after; PG µs/req: the CPU of the bench database's PostgreSQL ` +
      `backends per answer (the route's statement, plus what every billed call writes: key touch, ledger line)\n`,
  );
  for (const r of rows.filter((row, i) => rows.findIndex((other) => other.route === row.route) === i))
    process.stdout.write(`  ${r.route}: ${r.path} (${r.answer})\n`);
}

/** A read's server CPU per request over the mean of the reference runs beside it: the cores' speed moves within minutes. */
function timesReference(rows: EconomyRow[], i: number): string {
  if (rows[i].route === 'reference') return '';
  const beside = [rows[i - 1], rows[i + 1]].filter((row) => row?.route === 'reference').map((row) => row.serverCpuUsPerReq);
  return beside.length === 0 ? '' : `${(rows[i].serverCpuUsPerReq / mean(beside)).toFixed(2)}×`;
}

/** The statements a repository call issues, recorded by a stub data source (it answers every one with no rows). */
async function statementsOf<R>(make: (db: DataSource) => R, call: (repository: R) => Promise<unknown>): Promise<Statement[]> {
  const issued: Statement[] = [];
  const stub = { query: async (sql: string, params: unknown[] = []) => (issued.push({ sql, params }), []) };
  await call(make(stub as unknown as DataSource));
  return issued;
}

/**
 * The two reads' statements, taken from the repositories themselves with the heavy trader's parameters (the
 * services' page sizes: one probe row past the limit), explained on the bench database.
 */
export async function explainReads(
  db: Client,
  { accountId, wallet, builder }: { accountId: string; wallet: string; builder: string },
): Promise<Array<{ explained: Explained; text: string }>> {
  const end = new Date();
  const start = new Date(end.getTime() - 31 * 86_400_000);
  const [points] = await statementsOf(
    (ds) => new PointsRepository(ds),
    (repository) => repository.transactions({ accountId, offset: 0, take: 21 }),
  );
  const [fees] = await statementsOf(
    (ds) => new FeesRepository(ds),
    (repository) => repository.fills({ accountId, wallet, builder, start, end, offset: 0, take: 101 }),
  );
  const out = [];
  for (const [label, statement] of [
    ['points transactions (limit 20)', points],
    ['fees (limit 100, last 31 days)', fees],
  ] as const) {
    out.push({ explained: await explain(db, { label, ...statement }), text: inlined(statement) });
  }
  return out;
}

export function printPlans(plans: Array<{ explained: Explained; text: string }>): void {
  for (const { explained, text } of plans) {
    process.stdout.write(
      `\n${explained.label}: execution ${explained.executionMs.toFixed(2)} ms, planning ${explained.planningMs.toFixed(2)} ms (median of 5), ` +
        `${explained.rows} rows, buffers ${explained.buffers}\n  ${text}\n${explained.plan.replace(/^/gm, '    ')}\n`,
    );
  }
}

/** What makes a run's figures meaningless: non-2xx answers (429: the key pool was too small) or socket errors. */
export function problems(rows: EconomyRow[]): string[] {
  return rows
    .filter((r) => r.non2xx > 0 || r.errors > 0 || r.timeouts > 0)
    .map((r) => `${r.route}: ${r.non2xx} non-2xx (${JSON.stringify(r.statusCodes)}), ${r.errors} errors, ${r.timeouts} timeouts`);
}
