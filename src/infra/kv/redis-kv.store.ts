import { createHash } from 'node:crypto';
import Redis, { Command } from 'ioredis';
import { KvArg, KvPersistence, KvScript, KvStore } from './kv-store';

/** What a command waits for at most unless REDIS_COMMAND_TIMEOUT_MS says otherwise. */
export const DEFAULT_COMMAND_TIMEOUT_MS = 1000;

/**
 * Redis through ioredis. Scripts go by EVALSHA, falling back to EVAL once after a Redis restart.
 *
 * The client never sends a command a second time on its own (autoResendUnfulfilledCommands off): a command
 * whose reply was lost may have run, and re-sending it blindly ran billing scripts twice. Whoever issued a
 * command decides whether to send it again; every state-changing billing script is safe to run twice
 * (admission-record.ts). Every command fails after commandTimeout: with re-sending off, ioredis 5 drops a
 * command that was in flight when the connection closed without settling it (redis/ioredis#2193), and a
 * command queued while Redis is down must not hold its caller for longer than that either.
 */
export class RedisKvStore implements KvStore {
  readonly kind = 'redis' as const;
  private readonly shas = new Map<string, string>();

  constructor(readonly client: Redis) {}

  /** autoPipelining: see REDIS_AUTO_PIPELINING (off unless asked for). */
  static connect(
    url: string,
    keyPrefix: string,
    { autoPipelining = false, commandTimeoutMs = DEFAULT_COMMAND_TIMEOUT_MS }: { autoPipelining?: boolean; commandTimeoutMs?: number } = {},
  ): RedisKvStore {
    return new RedisKvStore(
      new Redis(url, {
        keyPrefix,
        maxRetriesPerRequest: 2,
        enableAutoPipelining: autoPipelining,
        autoResendUnfulfilledCommands: false,
        commandTimeout: commandTimeoutMs,
      }),
    );
  }

  isConnected(): boolean {
    return this.client.status === 'ready';
  }

  /** From INFO: an append-only file, and whether a maxmemory limit may evict keys (any policy but noeviction). */
  async persistence(): Promise<KvPersistence> {
    try {
      const info = `${await this.client.info('persistence')}\n${await this.client.info('memory')}`;
      if (!/^aof_enabled:1\s*$/m.test(info)) return 'none';
      const limit = Number(/^maxmemory:(\d+)/m.exec(info)?.[1] ?? '0');
      const policy = /^maxmemory_policy:(\S+)/m.exec(info)?.[1] ?? 'noeviction';
      return limit === 0 || policy === 'noeviction' ? 'aof' : 'evicting';
    } catch {
      return 'unknown';
    }
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
   * would look up where the keys of EVALSHA are, on every call, to prefix them. The arguments are set
   * after construction, already strings (what the constructor would make of them): the constructor copies
   * them with Array.prototype.flat, which took ~12 µs for the ~90 arguments of a batch of admissions.
   * Auto-pipelining (which only the generic method does) keeps the generic path.
   */
  private evalsha(sha: string, keys: string[], args: KvArg[]): Promise<unknown> {
    if (this.client.options.enableAutoPipelining) return this.client.evalsha(sha, keys.length, ...keys, ...args);
    const prefix = this.client.options.keyPrefix ?? '';
    const argv: string[] = [sha, String(keys.length)];
    for (const key of keys) argv.push(prefix + key);
    for (const arg of args) argv.push(typeof arg === 'string' ? arg : String(arg));
    const command = new Command('evalsha', [], { replyEncoding: 'utf8' });
    command.args = argv;
    return this.client.sendCommand(command) as Promise<unknown>;
  }

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
