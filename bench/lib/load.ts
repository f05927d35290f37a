import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';

export interface LoadOptions {
  url: string;
  connections: number;
  durationS: number;
  warmupS: number;
  /** When set, requests rotate over these x-api-key values (one prebuilt request per key). */
  keys?: string[];
  /** The server's pid, to report how busy its core was during the measured run. */
  serverPid: number;
  /** Runs after the warm-up, before the measured run (e.g. to read the server's counters at its start). */
  beforeRun?: () => Promise<void>;
}

export interface Measurement {
  /** Mean of autocannon's per-second samples over the measured run. */
  rps: number;
  p50Ms: number;
  p99Ms: number;
  total: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
  /** Requests of the discarded warm-up run (they still count against the per-key minute window). */
  warmupTotal: number;
  /**
   * CPU used during the measured run, in % of one core: the server process, and this load generator.
   * A server well under 100 % means it was not the bottleneck (load generator saturated, or the core
   * was taken by something else: PostgreSQL, Redis, another job on the machine).
   */
  serverCpuPct: number;
  loadgenCpuPct: number;
  /**
   * Server CPU time per answered request, in microseconds: what one request costs the server process,
   * which (unlike req/s) hardly moves when other work on the machine takes turns on its core. Redis and
   * PostgreSQL time is not in it.
   */
  serverCpuUsPerReq: number;
}

// Linux reports per-process CPU in clock ticks; USER_HZ is 100 on every mainstream kernel.
const CLOCK_TICKS_PER_S = 100;

/** User and system CPU a process has used so far, in seconds. */
export function processCpu(pid: number): { user: number; system: number } {
  // Fields after the parenthesised command name; utime and stime are fields 14 and 15 of the line.
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { user: Number(fields[11]) / CLOCK_TICKS_PER_S, system: Number(fields[12]) / CLOCK_TICKS_PER_S };
}

function processCpuSeconds(pid: number): number {
  const { user, system } = processCpu(pid);
  return user + system;
}

const PRIME_CONCURRENCY = 16;

/**
 * One call per key before any load, each checked for a 2xx: the run then starts from every key's steady
 * state (caller cached, the account's live balance seeded in Redis), as a production key is after its
 * first call. Without it the warm-up, whose connections all walk the key list from the top together,
 * reached only the first few hundred keys; the rest met their first call in the measured run, 50 at once,
 * and each of those took the admission's slow path (a second script call).
 */
export async function primeKeys(url: string, keys: string[]): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < keys.length) {
      const key = keys[next++];
      const response = await fetch(url, { headers: { 'x-api-key': key } });
      await response.arrayBuffer();
      if (!response.ok) throw new Error(`priming call for key ${key.slice(0, 12)}… answered ${response.status}`);
    }
  };
  await Promise.all(Array.from({ length: PRIME_CONCURRENCY }, worker));
}

/**
 * Primes the keys (primeKeys), then one warm-up run (JIT, connection pools; discarded), then the measured
 * run, both with pipelining 1 so every request waits for its response like a real client. The keys are
 * prebuilt as separate requests rather than set in setupRequest, so autocannon never rebuilds a request
 * buffer and the load generator's own cost per request stays as low as for the key-less variants.
 */
export async function measure(options: LoadOptions): Promise<Measurement> {
  // Path and query: the holders variants need their ?coin=…&cursor=….
  const { pathname, search } = new URL(options.url);
  const path = pathname + search;
  const base = () => ({
    url: options.url,
    connections: options.connections,
    pipelining: 1,
    timeout: 10,
    ...(options.keys ? { requests: options.keys.map((key) => ({ method: 'GET', path, headers: { 'x-api-key': key } })) } : {}),
  });
  if (options.keys) await primeKeys(options.url, options.keys);
  const warm = await autocannon({ ...base(), duration: options.warmupS });
  await options.beforeRun?.();
  // CPU is counted from autocannon's 'start': building one request per key for each connection first takes
  // the load generator a good part of a second, in which the server has nothing to do.
  let serverBefore = processCpuSeconds(options.serverPid);
  let loadgenBefore = process.cpuUsage();
  let startedAt = process.hrtime.bigint();
  const run = autocannon({ ...base(), duration: options.durationS });
  run.once('start', () => {
    serverBefore = processCpuSeconds(options.serverPid);
    loadgenBefore = process.cpuUsage();
    startedAt = process.hrtime.bigint();
  });
  const result = await run;
  const elapsedS = Number(process.hrtime.bigint() - startedAt) / 1e9;
  const loadgen = process.cpuUsage(loadgenBefore);
  const serverCpuS = processCpuSeconds(options.serverPid) - serverBefore;
  const serverCpuPct = (100 * serverCpuS) / elapsedS;
  const loadgenCpuPct = (100 * (loadgen.user + loadgen.system)) / 1e6 / elapsedS;
  return {
    rps: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    total: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes: Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, stat]) => [code, stat.count])),
    warmupTotal: warm.requests.total,
    serverCpuPct: Math.round(serverCpuPct),
    loadgenCpuPct: Math.round(loadgenCpuPct),
    serverCpuUsPerReq: result.requests.total > 0 ? Math.round((serverCpuS * 1e6) / result.requests.total) : NaN,
  };
}
