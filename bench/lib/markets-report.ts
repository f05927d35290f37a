import Redis from 'ioredis';
import { ProfileWindow } from './cpu-profile';
import { Measurement } from './load';

/** The goals: a market route's server CPU per request at most this multiple of the reference's ... */
const CPU_GOAL = 1.3;
/** ... and its p99 below this at 50 connections. */
const P99_GOAL_MS = 20;
/** The Max tier's calls per key per clock minute. */
const TIER_RPM = 600;

/** `cache_lookups_total` and `upstream_calls_total` series of the server's /metrics, by their full name with labels. */
export async function counters(base: string): Promise<Map<string, number>> {
  const text = await (await fetch(`${base}/metrics`)).text();
  const found = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (!line.startsWith('cache_lookups_total{') && !line.startsWith('upstream_calls_total{')) continue;
    const space = line.lastIndexOf(' ');
    found.set(line.slice(0, space), Number(line.slice(space + 1)));
  }
  return found;
}

/** EVALSHA calls Redis has run since it started (INFO commandstats). */
export async function scriptCalls(redis: Redis): Promise<number> {
  const match = /cmdstat_evalsha:calls=(\d+)/.exec(await redis.info('commandstats'));
  return match ? Number(match[1]) : NaN;
}

/** The series that moved between two readings, e.g. `markets.candles hit 5`, `binance ok 1`. */
export function moved(before: Map<string, number>, after: Map<string, number>): string[] {
  const lines: string[] = [];
  for (const [series, value] of after) {
    const delta = value - (before.get(series) ?? 0);
    if (delta === 0) continue;
    const labels = [...series.matchAll(/="([^"]*)"/g)].map((m) => m[1]).join(' ');
    lines.push(`${series.startsWith('cache') ? 'cache' : 'upstream'} ${labels} ${delta}`);
  }
  return lines;
}

export interface Row extends Measurement {
  route: string;
  path: string;
  /** Upstream-cache lookups (one per rebuilt answer) and upstream calls during the measured run. */
  reloads: string[];
  /**
   * The server's user and system CPU per request, from the end of the warm-up to the end of the run (so a
   * little wider than serverCpuUsPerReq's window, in which the server is idle): system is mostly the sockets.
   */
  userUsPerReq: number;
  systemUsPerReq: number;
  /** The same stretch in CLOCK_MONOTONIC µs, to cut a `--cpu-prof` profile of the server to this run. */
  window: ProfileWindow;
  /**
   * Requests per EVALSHA Redis ran in that stretch (Redis-wide, so other users of the server count too): the
   * admission batch size, one script run per event-loop turn, so the smaller it is the more each request
   * pays for its share of the round trip.
   */
  requestsPerScript: number;
}

/**
 * Calls on the busiest key of a run: every connection walks its slice from the start, in the warm-up and
 * again in the measured run, so the first keys get one round of all connections more than the mean in
 * each; plus the priming call.
 */
function busiestKeyCalls(r: Row, { connections, keysPerRun }: { connections: number; keysPerRun: number }): number {
  const rounds = (requests: number) => Math.ceil(requests / connections / keysPerRun);
  return connections * (rounds(r.warmupTotal) + rounds(r.total)) + 1;
}

/** Problems that make the figures meaningless: a failed request, or a key pool too small for the rate reached. */
export function problems(rows: Row[], pool: { connections: number; keysPerRun: number }): string[] {
  const found: string[] = [];
  for (const r of rows) {
    const busiest = busiestKeyCalls(r, pool);
    if (r.non2xx > 0) found.push(`${r.route}: ${r.non2xx} non-2xx responses (status codes ${JSON.stringify(r.statusCodes)})`);
    if (r.errors + r.timeouts > 0) found.push(`${r.route}: ${r.errors} errors, ${r.timeouts} timeouts`);
    if (busiest > TIER_RPM) found.push(`${r.route}: up to ${busiest} calls on one key may pass ${TIER_RPM}/min; raise BENCH_MAX_RPS`);
  }
  return found;
}

/** The mean server CPU per request of the reference runs next to run `i` (the one before and the one after). */
function neighbourReferenceUs(rows: Row[], i: number): number {
  if (rows[i].route === 'reference') return NaN;
  const before = rows
    .slice(0, i)
    .reverse()
    .find((r) => r.route === 'reference');
  const after = rows.slice(i + 1).find((r) => r.route === 'reference');
  const near = [before, after].filter((r): r is Row => r !== undefined);
  return near.reduce((sum, r) => sum + r.serverCpuUsPerReq, 0) / near.length;
}

/** The table of `npm run bench:markets`, each market route against its neighbouring reference runs. */
export function printTable(rows: Row[]): void {
  const references = rows.filter((r) => r.route === 'reference');
  const nameWidth = Math.max(...rows.map((r) => r.route.length)) + 2;
  const pad = (value: string | number, width: number) => String(value).padStart(width);
  const head = ['req/s', 'p50 ms', 'p99 ms', 'non-2xx', 'srv cpu%', 'gen cpu%', 'req/script', 'usr µs', 'sys µs', 'srv µs/req', '× ref'];
  const lines = [`${'route'.padEnd(48)}${head.map((h) => pad(h, 11)).join('')}`];
  for (const [i, r] of rows.entries()) {
    const ratio = r.serverCpuUsPerReq / neighbourReferenceUs(rows, i);
    const failed = r.non2xx + r.errors + r.timeouts;
    const cells = [
      Math.round(r.rps),
      r.p50Ms,
      r.p99Ms,
      failed,
      r.serverCpuPct,
      r.loadgenCpuPct,
      r.requestsPerScript,
      r.userUsPerReq,
      r.systemUsPerReq,
      r.serverCpuUsPerReq,
    ];
    lines.push(`${r.path.padEnd(48)}${cells.map((c) => pad(c, 11)).join('')}${pad(Number.isFinite(ratio) ? ratio.toFixed(2) : '', 11)}`);
  }
  lines.push(
    '',
    `reference runs: ${references.map((r) => r.serverCpuUsPerReq).join(', ')} µs/req; × ref is against the mean of the reference runs before and after`,
  );
  // Directions, not gates: said in words, never in the exit code.
  for (const [i, r] of rows.entries()) {
    if (r.route === 'reference') continue;
    const ratio = r.serverCpuUsPerReq / neighbourReferenceUs(rows, i);
    const cpu = !Number.isFinite(ratio)
      ? 'n/a (no reference run)'
      : `${ratio.toFixed(2)}× the reference (goal <= ${CPU_GOAL}): ${ratio <= CPU_GOAL ? 'met' : 'missed'}`;
    const p99 = `p99 ${r.p99Ms} ms (goal < ${P99_GOAL_MS}): ${r.p99Ms < P99_GOAL_MS ? 'met' : 'missed'}`;
    lines.push(`${r.route.padEnd(nameWidth)}${cpu}; ${p99}`);
  }
  lines.push('', 'rebuilt answers and upstream calls during each measured run (/metrics):');
  for (const r of rows) lines.push(`  ${r.route.padEnd(nameWidth)}${r.reloads.length > 0 ? r.reloads.join(', ') : 'none'}`);
  process.stdout.write(`\n${lines.join('\n')}\n\n`);
}
