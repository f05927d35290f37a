import { Agent, request } from 'node:http';

/** One call the load made, as its client saw it. */
export interface CallRecord {
  key: string;
  path: string;
  /** null: no answer at all (the connection was refused or reset, or the client gave up waiting). */
  status: number | null;
  requestId?: string;
  /** X-Credits-Cost of the answer (0 when absent). */
  cost: number;
}

/** What the load sends, each path as often as it is listed: paid calls of both costs, a free one, a refused one. */
export const BILLING_PATHS = [
  '/api/public/v1/account/credits',
  '/api/public/v1/account/credits',
  '/api/public/v1/account',
  '/api/public/v1/account/vip',
  '/api/public/v1/search?q=bitcoin',
  '/api/public/v1/usage',
  // Refused after admission (an unknown parameter): charged, then refunded.
  '/api/public/v1/account/credits?bogus=1',
];

/** How long the client waits for an answer before it gives up on the call (and closes its connection). */
const CLIENT_TIMEOUT_MS = 4_000;

/**
 * Calls the service without pause from `workers` loops, each spread over the replicas and keys, and
 * records every answer's status, request id and X-Credits-Cost, as the load generator of a billing audit
 * does. Keep-alive connections, as real clients use them.
 */
export class BillingLoad {
  readonly calls: CallRecord[] = [];
  private waiters: Array<{ target: number; resolve: () => void }> = [];
  private running = false;
  private loops: Array<Promise<void>> = [];
  private agent = new Agent({ keepAlive: true, maxSockets: 64 });

  constructor(
    private readonly bases: () => string[],
    private readonly keys: string[],
    private readonly workers = 6,
  ) {}

  /** Starts the loops (again, after a stop: the calls of every run are kept together). */
  start(): void {
    this.running = true;
    this.agent = new Agent({ keepAlive: true, maxSockets: 64 });
    this.loops = Array.from({ length: this.workers }, (_, w) => this.loop(w));
  }

  /** Stops every loop after its call in flight and hands back every call made. */
  async stop(): Promise<CallRecord[]> {
    this.running = false;
    await Promise.all(this.loops);
    this.agent.destroy();
    for (const w of this.waiters) w.resolve();
    this.waiters = [];
    return this.calls;
  }

  /** Resolves once `count` more calls have been answered or given up on: the load is the test's clock. */
  callsMade(count: number): Promise<void> {
    return new Promise((resolve) => this.waiters.push({ target: this.calls.length + count, resolve }));
  }

  /** Calls answered with `status` so far. */
  count(status: number | null): number {
    return this.calls.filter((c) => c.status === status).length;
  }

  private record(call: CallRecord): void {
    this.calls.push(call);
    this.waiters = this.waiters.filter((w) => (this.calls.length >= w.target ? (w.resolve(), false) : true));
  }

  private async loop(worker: number): Promise<void> {
    for (let n = worker; this.running; n += this.workers) {
      const bases = this.bases();
      const base = bases[n % bases.length];
      const key = this.keys[(n * 7 + worker) % this.keys.length];
      const path = BILLING_PATHS[n % BILLING_PATHS.length];
      this.record(await this.call(base, key, path));
    }
  }

  /** An answer counts only once its body arrived whole; headers alone, then a cut, is no answer. */
  private call(base: string, key: string, path: string): Promise<CallRecord> {
    return new Promise((resolve) => {
      let settled = false;
      const settle = (call: CallRecord) => {
        if (!settled) resolve(call);
        settled = true;
      };
      const unanswered = () => settle({ key, path, status: null, cost: 0 });
      const req = request(`${base}${path}`, { agent: this.agent, headers: { 'x-api-key': key }, timeout: CLIENT_TIMEOUT_MS }, (res) => {
        res.resume();
        res.on('end', () =>
          settle({
            key,
            path,
            status: res.statusCode ?? null,
            requestId: res.headers['x-request-id'] as string | undefined,
            cost: Number(res.headers['x-credits-cost'] ?? 0),
          }),
        );
        res.on('error', unanswered);
        res.on('close', unanswered);
      });
      req.on('timeout', () => req.destroy(new Error('client timeout')));
      req.on('error', unanswered);
      req.end();
    });
  }
}
