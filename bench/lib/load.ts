import autocannon = require('autocannon');

export interface LoadOptions {
  url: string;
  connections: number;
  durationS: number;
  warmupS: number;
  /** When set, requests rotate over these x-api-key values (one prebuilt request per key). */
  keys?: string[];
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
}

/**
 * One warm-up run (JIT, key cache, connection pools; discarded) then the measured run, both with
 * pipelining 1 so every request waits for its response like a real client. The keys are prebuilt as
 * separate requests rather than set in setupRequest, so autocannon never rebuilds a request buffer and
 * the load generator's own cost per request stays as low as for the key-less variants.
 */
export async function measure(options: LoadOptions): Promise<Measurement> {
  const path = new URL(options.url).pathname;
  const base = () => ({
    url: options.url,
    connections: options.connections,
    pipelining: 1,
    timeout: 10,
    ...(options.keys ? { requests: options.keys.map((key) => ({ method: 'GET', path, headers: { 'x-api-key': key } })) } : {}),
  });
  const warm = await autocannon({ ...base(), duration: options.warmupS });
  const result = await autocannon({ ...base(), duration: options.durationS });
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
  };
}
