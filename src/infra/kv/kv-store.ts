import { MemoryData } from './memory-data';

export const KV_STORE = Symbol('KV_STORE');

export type KvArg = string | number;

/**
 * Whether the store keeps what it acknowledged: 'aof' through a crash of its own, and never evicting a key
 * for memory; 'evicting' with an append-only file but a maxmemory policy that may drop keys; 'unknown' when
 * it will not say.
 */
export type KvPersistence = 'aof' | 'evicting' | 'none' | 'unknown';

/**
 * An atomic script with two bodies that must behave identically: Lua for Redis, and a synchronous
 * JavaScript twin for the in-process store (a synchronous function cannot interleave with another
 * call, which is what makes it atomic there). test/integration/kv-scripts.int-spec.ts runs both.
 */
export interface KvScript<T> {
  readonly name: string;
  readonly lua: string;
  local(data: MemoryData, keys: string[], args: string[]): T;
}

/**
 * The key-value store behind rate-limit windows, live credit balances, caches, locks and nonces:
 * Redis in production, an in-process twin for the embedded default. Keys are given without prefix.
 */
export interface KvStore {
  readonly kind: 'redis' | 'memory';
  run<T>(script: KvScript<T>, keys: string[], args: KvArg[]): Promise<T>;
  get(key: string): Promise<string | null>;
  set(key: string, value: string, ttlMs?: number): Promise<void>;
  /** SET NX PX: true when this call created the key. */
  setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean>;
  del(...keys: string[]): Promise<number>;
  hgetall(key: string): Promise<Record<string, string>>;
  lrange(key: string, start: number, stop: number): Promise<string[]>;
  ltrim(key: string, start: number, stop: number): Promise<void>;
  llen(key: string): Promise<number>;
  sadd(key: string, ...members: string[]): Promise<void>;
  spop(key: string, count: number): Promise<string[]>;
  ping(): Promise<void>;
  /** False while the connection is down: a caller that would only wait for it can answer at once. */
  isConnected(): boolean;
  /** The in-process store keeps nothing through a restart ('none'). */
  persistence(): Promise<KvPersistence>;
  close(): Promise<void>;
}
