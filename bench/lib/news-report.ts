import { readdirSync, readFileSync } from 'node:fs';
import { Client } from 'pg';
import type { ProfileWindow } from './cpu-profile';
import type { Measurement } from './load';
import type { LoadReport } from './news-load';
import { explain, Explained, inlined, pageStatements } from './news-explain';
import { alignedTable } from './report';
import type { NewsRepository } from '../../src/modules/news/news.repository';

/** One measured route: its load figures, what its answer held, and its statements' database time. */
export interface NewsRow extends Measurement {
  route: string;
  path: string;
  bytes: number;
  answer: string;
  sql: Explained[];
  /** The measured run's stretch of the server's life, for its CPU profile. */
  window: ProfileWindow;
  /** CPU of this database's PostgreSQL backends per answered request, in µs (the server's own is serverCpuUsPerReq). */
  dbCpuUsPerReq: number;
  /** The machine's 1-minute load average at the end of the run: above 2 on this 2-core machine, other work shared it. */
  loadAvg: number;
}

export interface NewsRoute {
  name: string;
  path: string;
  /** The repository call the service makes for this route (the page statement, then assets and analyses); none for the reference. */
  call?: (repository: NewsRepository) => Promise<unknown>;
}

// Linux reports per-process CPU in clock ticks; USER_HZ is 100 on every mainstream kernel.
const CLOCK_TICKS_PER_S = 100;

/**
 * CPU ticks used so far by each PostgreSQL backend connected to `database` (its process title names it), by
 * pid: the other work on a shared machine (test databases, other benches) is left out.
 */
export function databaseCpu(database: string): Map<number, number> {
  const ticks = new Map<number, number>();
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(` ${database} `)) continue;
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (!stat.includes('(postgres)')) continue;
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks.set(Number(pid), Number(fields[11]) + Number(fields[12]));
    } catch {
      // The process ended between the listing and the read.
    }
  }
  return ticks;
}

/** CPU seconds between two readings, per backend: one that ended in between is lost (an undercount, never a negative). */
export function cpuSecondsBetween(before: Map<number, number>, after: Map<number, number>): number {
  let ticks = 0;
  for (const [pid, used] of after) ticks += used - (before.get(pid) ?? 0);
  return ticks / CLOCK_TICKS_PER_S;
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const seconds = (ms: number) => `${(ms / 1000).toFixed(0)} s`;

export function describeLoad(report: LoadReport): string {
  const total = Object.values(report.phases).reduce((a, b) => a + b, 0);
  const phases = Object.entries(report.phases)
    .map(([phase, ms]) => `${phase} ${seconds(ms)}`)
    .join(', ');
  const n = (value: number) => Number(value).toLocaleString('en-US');
  return (
    `${n(report.items)} items, ${n(report.links)} asset links, ${n(report.analyses)} English analyses; ` +
    `${report.loaded ? 'loaded now' : 'kept from an earlier run (BENCH_NEWS_RELOAD=1 loads again)'}: load took ${seconds(total)} (${phases})`
  );
}

/** Sizes of the news tables (heap, indexes, TOAST) and of each index, largest first. */
export async function describeSizes(db: Client): Promise<string> {
  const { rows: tables } = await db.query(
    `SELECT c.relname, pg_total_relation_size(c.oid) AS total, pg_relation_size(c.oid) AS heap, pg_indexes_size(c.oid) AS indexes,
            COALESCE(pg_total_relation_size(NULLIF(c.reltoastrelid, 0)), 0) AS toast
       FROM pg_class c WHERE c.relname IN ('news_items', 'news_item_assets', 'news_analyses') ORDER BY total DESC`,
  );
  const { rows: indexes } = await db.query(
    `SELECT i.indexrelid::regclass::text AS name, pg_relation_size(i.indexrelid) AS size FROM pg_index i
      WHERE i.indrelid::regclass::text IN ('news_items', 'news_item_assets', 'news_analyses') ORDER BY size DESC`,
  );
  const lines = tables.map((t) => `  ${t.relname.padEnd(17)} ${mb(t.total).padStart(8)} (heap ${mb(t.heap)}, indexes ${mb(t.indexes)}, TOAST ${mb(t.toast)})`);
  const indexLine = indexes.map((i) => `${i.name} ${mb(i.size)}`).join(', ');
  return `${lines.join('\n')}\n  indexes: ${indexLine}`;
}

/** How many items a search matches: what the figures of a search route depend on. */
export async function matchCount(db: Client, q: string): Promise<number> {
  const { rows } = await db.query(`SELECT count(*) AS n FROM news_items WHERE search @@ websearch_to_tsquery('english', $1)`, [q]);
  return Number(rows[0].n);
}

/** The statements behind each route, explained on the bench database (the app stopped, the cache warm). */
export async function explainRoutes(db: Client, routes: NewsRoute[]): Promise<Map<string, Array<{ explained: Explained; text: string }>>> {
  const byRoute = new Map<string, Array<{ explained: Explained; text: string }>>();
  for (const route of routes) {
    if (!route.call) continue;
    const statements = await pageStatements(db, route.call);
    const explained = [];
    for (const statement of statements) explained.push({ explained: await explain(db, statement), text: inlined(statement) });
    byRoute.set(route.name, explained);
  }
  return byRoute;
}

export function printTable(rows: NewsRow[], { goalMs, connections }: { goalMs: number; connections: number }): void {
  const header = [
    'route',
    'req/s',
    'p50 ms',
    'p99 ms',
    `p99<${goalMs}`,
    'server CPU',
    'µs/req',
    `×${connections} ms`,
    'PG µs/req',
    'load avg',
    'bytes',
    'plan ms',
    'SQL ms (page + assets + analyses)',
  ];
  const body = rows.map((r) => [
    r.route,
    r.rps.toFixed(0),
    String(r.p50Ms),
    String(r.p99Ms),
    r.p99Ms < goalMs ? 'yes' : 'NO',
    `${r.serverCpuPct}%`,
    String(r.serverCpuUsPerReq),
    ((connections * r.serverCpuUsPerReq) / 1000).toFixed(0),
    String(r.dbCpuUsPerReq),
    r.loadAvg.toFixed(2),
    String(r.bytes),
    r.sql.length === 0 ? '' : r.sql.reduce((sum, s) => sum + s.planningMs, 0).toFixed(2),
    r.sql.map((s) => s.executionMs.toFixed(2)).join(' + '),
  ]);
  process.stdout.write(`\n${alignedTable(header, body)}\n`);
  process.stdout.write(
    `  µs/req: the app server's CPU per answer; ×${connections} ms: that for ${connections} requests, the wait of one behind the others once ` +
      `its core is saturated; PG µs/req: the CPU of this database's PostgreSQL backends per answer (the route's three statements, ` +
      `plus what every billed call writes: key touch, ledger lines); plan ms: the three statements' planning, SQL ms: each one's ` +
      `execution alone (EXPLAIN ANALYZE: rows not sent)\n`,
  );
  for (const r of rows) process.stdout.write(`  ${r.route}: ${r.path} (${r.answer})\n`);
}

/** The full plan of each page statement whose route missed the goal (or of every route, when asked). */
export function printPlans(rows: NewsRow[], plans: Map<string, Array<{ explained: Explained; text: string }>>, goalMs: number, all: boolean): void {
  for (const row of rows) {
    if (!all && row.p99Ms < goalMs) continue;
    const [page] = plans.get(row.route) ?? [];
    if (!page) continue;
    process.stdout.write(`\n--- ${row.route}: p99 ${row.p99Ms} ms; its page statement:\n${page.text}\n${page.explained.plan}\n`);
  }
}

export function problems(rows: NewsRow[]): string[] {
  return rows
    .filter((r) => r.non2xx > 0 || r.errors > 0 || r.timeouts > 0)
    .map((r) => `${r.route}: ${r.non2xx} non-2xx (${JSON.stringify(r.statusCodes)}), ${r.errors} errors, ${r.timeouts} timeouts`);
}
