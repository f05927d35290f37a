import { createHash } from 'node:crypto';
import { Socket } from 'node:net';
import Redis, { Command } from 'ioredis';
import { KvArg, KvScript, KvStore } from './kv-store';

/**
 * Most script calls per coalesced write (see coalesceWrite). About what one poll phase reads under load
 * (epoll hands over ~16 sockets per wake-up), so a busy turn leaves in one write. 16 instead of 4 cost
 * the billed route less CPU and more often gave it more requests per second; 64 cost less CPU still but
 * left the server idle more, its first calls waiting for the turn's last (docs/benchmarks.md).
 */
export const WRITE_BATCH = 16;

/** Redis through ioredis. Scripts go by EVALSHA, falling back to EVAL once after a Redis restart. */
export class RedisKvStore implements KvStore {
  readonly kind = 'redis' as const;
  private readonly shas = new Map<string, string>();
  /** The connection held corked until the end of this event-loop turn, and how many calls it holds. */
  private corked?: Socket;
  private held = 0;

  constructor(
    readonly client: Redis,
    private readonly coalesceWrites = !client.options.enableAutoPipelining,
  ) {}

  /** autoPipelining: see REDIS_AUTO_PIPELINING (off unless asked for; off, script calls are coalesced). */
  static connect(url: string, keyPrefix: string, { autoPipelining = false }: { autoPipelining?: boolean } = {}): RedisKvStore {
    return new RedisKvStore(new Redis(url, { keyPrefix, maxRetriesPerRequest: 2, enableAutoPipelining: autoPipelining }));
  }

  async run<T>(script: KvScript<T>, keys: string[], args: KvArg[]): Promise<T> {
    let sha = this.shas.get(script.name);
    if (!sha) {
      sha = createHash('sha1').update(script.lua).digest('hex');
      this.shas.set(script.name, sha);
    }
    try {
      return (await this.evalsha(sha, keys, args)) as T;
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
      return (await this.client.eval(script.lua, keys.length, ...keys, ...args)) as T;
    }
  }

  /**
   * EVALSHA as one ready-made ioredis Command with the keys already prefixed: the generic command method
   * would look up where the keys of EVALSHA are, on every call, to prefix them. Auto-pipelining (which only
   * the generic method does) keeps the generic path.
   */
  private evalsha(sha: string, keys: string[], args: KvArg[]): Promise<unknown> {
    if (!this.coalesceWrites) return this.client.evalsha(sha, keys.length, ...keys, ...args);
    this.coalesceWrite();
    const prefix = this.client.options.keyPrefix ?? '';
    const argv: KvArg[] = [sha, keys.length];
    for (const key of keys) argv.push(prefix + key);
    for (const arg of args) argv.push(arg);
    return this.client.sendCommand(new Command('evalsha', argv, { replyEncoding: 'utf8' })) as Promise<unknown>;
  }

  /**
   * Script calls made in one turn of the event loop (the admissions of the requests read in it) leave in
   * shared writes of up to WRITE_BATCH calls, not one write system call each: on loopback the system call
   * cost the server more than the rest of ioredis, and Redis reads and answers a batch in one go as well.
   * Unlike ioredis' auto-pipelining, no batch waits for the replies of another (docs/benchmarks.md).
   * The connection is corked until the batch is full or the turn ends (setImmediate runs right after
   * the poll phase that read the requests).
   */
  private coalesceWrite(): void {
    if (this.corked) {
      if (this.held < WRITE_BATCH) {
        this.held += 1;
        return;
      }
      this.corked.uncork();
      this.corked.cork();
      this.held = 1;
      return;
    }
    const stream = this.client.stream as Socket | undefined;
    // Not connected: the command goes to ioredis' offline queue, and is written on connect.
    if (this.client.status !== 'ready' || !stream?.writable) return;
    stream.cork();
    this.corked = stream;
    this.held = 1;
    setImmediate(this.endTurn);
  }

  private readonly endTurn = (): void => {
    const stream = this.corked;
    this.corked = undefined;
    stream?.uncork();
  };

  async get(key: string): Promise<string | null> {
    return this.client.get(key);
  }

  async set(key: string, value: string, ttlMs?: number): Promise<void> {
    if (ttlMs) await this.client.set(key, value, 'PX', ttlMs);
    else await this.client.set(key, value);
  }

  async setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean> {
    return (await this.client.set(key, value, 'PX', ttlMs, 'NX')) === 'OK';
  }

  async del(...keys: string[]): Promise<number> {
    return keys.length === 0 ? 0 : this.client.del(...keys);
  }

  async hgetall(key: string): Promise<Record<string, string>> {
    return this.client.hgetall(key);
  }

  async lrange(key: string, start: number, stop: number): Promise<string[]> {
    return this.client.lrange(key, start, stop);
  }

  async ltrim(key: string, start: number, stop: number): Promise<void> {
    await this.client.ltrim(key, start, stop);
  }

  async llen(key: string): Promise<number> {
    return this.client.llen(key);
  }

  async sadd(key: string, ...members: string[]): Promise<void> {
    if (members.length > 0) await this.client.sadd(key, ...members);
  }

  async spop(key: string, count: number): Promise<string[]> {
    return this.client.spop(key, count);
  }

  async ping(): Promise<void> {
    await this.client.ping();
  }

  async close(): Promise<void> {
    await this.client.quit().catch(() => this.client.disconnect());
  }
}
