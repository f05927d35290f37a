import { KvArg, KvPersistence, KvScript, KvStore } from './kv-store';
import { MemoryData } from './memory-data';

/** The in-process store of the embedded default: one process only, same interface as Redis. */
export class MemoryKvStore implements KvStore {
  readonly kind = 'memory' as const;

  constructor(readonly data: MemoryData = new MemoryData()) {}

  async run<T>(script: KvScript<T>, keys: string[], args: KvArg[]): Promise<T> {
    return script.local(this.data, keys, args.map(String));
  }

  async get(key: string): Promise<string | null> {
    return this.data.get(key);
  }

  async set(key: string, value: string, ttlMs?: number): Promise<void> {
    this.data.set(key, value, ttlMs);
  }

  async setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean> {
    if (this.data.exists(key)) return false;
    this.data.set(key, value, ttlMs);
    return true;
  }

  async del(...keys: string[]): Promise<number> {
    return keys.filter((key) => this.data.del(key)).length;
  }

  async hgetall(key: string): Promise<Record<string, string>> {
    return this.data.hgetall(key);
  }

  async lrange(key: string, start: number, stop: number): Promise<string[]> {
    return this.data.lrange(key, start, stop);
  }

  async ltrim(key: string, start: number, stop: number): Promise<void> {
    this.data.ltrim(key, start, stop);
  }

  async llen(key: string): Promise<number> {
    return this.data.llen(key);
  }

  async sadd(key: string, ...members: string[]): Promise<void> {
    for (const member of members) this.data.sadd(key, member);
  }

  async spop(key: string, count: number): Promise<string[]> {
    return this.data.spop(key, count);
  }

  async ping(): Promise<void> {}

  isConnected(): boolean {
    return true;
  }

  async persistence(): Promise<KvPersistence> {
    return 'none';
  }

  async close(): Promise<void> {}
}
