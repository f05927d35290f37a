import { ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Redis from 'ioredis';
import { freePort } from '../child-process';

/**
 * A redis-server of the test's own on a free port (the shared one must never be killed), with or
 * without an append-only file, that the test can kill -9 and start again on the same port and folder.
 */
export class PrivateRedis {
  private child?: ChildProcess;

  private constructor(
    readonly port: number,
    private readonly dir: string,
    private readonly aof: boolean,
    private readonly extra: string[],
  ) {}

  /** `extra`: more redis-server options, e.g. ['--maxmemory', '100mb', '--maxmemory-policy', 'allkeys-lru']. */
  static async start({ aof, extra = [] }: { aof: boolean; extra?: string[] }): Promise<PrivateRedis> {
    const redis = new PrivateRedis(await freePort(), mkdtempSync(join(tmpdir(), 'fault-redis-')), aof, extra);
    await redis.boot();
    return redis;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** A client of the test's own (no prefix), to look at what the service wrote. */
  client(): Redis {
    return new Redis(this.url, { maxRetriesPerRequest: 1, lazyConnect: false });
  }

  /** kill -9: no shutdown save, no AOF rewrite; what the append-only file holds is what the next start reads. */
  async kill(): Promise<void> {
    const child = this.child!;
    this.child = undefined;
    const exited = once(child, 'exit');
    child.kill('SIGKILL');
    await exited;
  }

  /** Starts again on the same port and folder, resolving once it answers PING (its AOF loaded). */
  async restart(): Promise<void> {
    await this.boot();
  }

  async stop(): Promise<void> {
    if (this.child) await this.kill();
    rmSync(this.dir, { recursive: true, force: true });
  }

  private async boot(): Promise<void> {
    const args = ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--dir', this.dir, '--daemonize', 'no'];
    args.push('--appendonly', this.aof ? 'yes' : 'no', ...this.extra);
    this.child = spawn('redis-server', args, { stdio: 'ignore' });
    const probe = new Redis(this.url, { maxRetriesPerRequest: null, retryStrategy: () => 50, lazyConnect: false });
    probe.on('error', () => undefined);
    try {
      await probe.ping();
    } finally {
      probe.disconnect();
    }
  }
}
