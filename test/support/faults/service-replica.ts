import { once } from 'node:events';
import { freePort, Spawned, spawnTs, waitFor } from '../child-process';
import { TEST_ADAPTER, testEnvironment } from '../test-env';

/** How long a replica may take to start (ts-node compiles it on a shared machine). */
const START_TIMEOUT_MS = 60_000;

/**
 * One replica of the service as production runs it: `src/main.ts` in a process of its own, on the
 * database and KV store the test names, so a test can kill it with SIGKILL mid-load. Jobs are off, and
 * the ledger drain, usage flush and sync run every few hundred milliseconds so faults settle quickly.
 */
export class ServiceReplica {
  private spawned?: Spawned;

  private constructor(
    readonly name: string,
    readonly port: number,
    private readonly env: Record<string, string>,
  ) {}

  static async start(name: string, settings: Record<string, string>): Promise<ServiceReplica> {
    const port = await freePort();
    const env = testEnvironment({
      PORT: String(port),
      HTTP_HOST: '127.0.0.1',
      HTTP_ADAPTER: TEST_ADAPTER,
      LOG_LEVEL: 'warn',
      LOG_FORMAT: 'json',
      JOBS_ENABLED: 'false',
      MIGRATIONS_RUN: 'false',
      LEDGER_FLUSH_INTERVAL_MS: '200',
      USAGE_FLUSH_INTERVAL_MS: '200',
      USAGE_SYNC_INTERVAL_MS: '500',
      HTTP_SHUTDOWN_GRACE_MS: '2000',
      ...settings,
    });
    const replica = new ServiceReplica(name, port, env);
    await replica.boot();
    return replica;
  }

  get base(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get running(): boolean {
    return this.spawned !== undefined && this.spawned.child.exitCode === null && this.spawned.child.signalCode === null;
  }

  /** Everything it printed (JSON log lines). */
  output(): string {
    return this.spawned?.output() ?? '';
  }

  /** kill -9: no shutdown hook runs, what was in its memory is gone. */
  async kill(): Promise<void> {
    const child = this.spawned!.child;
    const exited = once(child, 'exit');
    child.kill('SIGKILL');
    await exited;
  }

  /** SIGTERM, as an orchestrator stops it: its shutdown hooks drain, flush and sync. */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.spawned!.child.kill('SIGTERM');
    await this.spawned!.exited;
  }

  async restart(): Promise<void> {
    await this.boot();
  }

  /** A Prometheus series' value, summed over its label sets, or one set's (`name{label="value"}`); 0 when absent. */
  async metric(series: string): Promise<number> {
    const text = await (await fetch(`${this.base}/metrics`)).text();
    let total = 0;
    for (const line of text.split('\n')) {
      if (line.startsWith(`${series} `) || (!series.includes('{') && line.startsWith(`${series}{`))) total += Number(line.slice(line.lastIndexOf(' ') + 1));
    }
    return total;
  }

  /** The credits store it runs on (billing_credits_store). */
  async creditsStore(): Promise<string | undefined> {
    for (const store of ['redis', 'postgres']) if ((await this.metric(`billing_credits_store{store="${store}"}`)) === 1) return store;
    return undefined;
  }

  private async boot(): Promise<void> {
    this.spawned = spawnTs('src/main.ts', this.env);
    await waitFor(`${this.name} to answer`, async () => (await fetch(`${this.base}/health/live`)).ok, START_TIMEOUT_MS, this.spawned);
  }
}
