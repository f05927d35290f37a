import { randomUUID } from 'node:crypto';
import { KvScript, KvStore } from '../kv/kv-store';

/** Deletes the lock only when the caller still owns it, so a holder that overran its lease cannot free another's. */
const RELEASE_SCRIPT: KvScript<number> = {
  name: 'lock-release',
  lua: `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`,
  local(data, [key], [token]) {
    return data.get(key) === token ? Number(data.del(key)) : 0;
  },
};

export interface HeldLock {
  release(): Promise<void>;
}

/**
 * A lease in the KV store (SET NX PX with an owner token): one replica at a time runs the work, and the
 * lease expires on its own if the holder dies.
 */
export async function tryAcquireLock(kv: KvStore, name: string, leaseMs: number): Promise<HeldLock | null> {
  const key = `lock:${name}`;
  const token = randomUUID();
  if (!(await kv.setIfAbsent(key, token, leaseMs))) return null;
  return { release: async () => void (await kv.run(RELEASE_SCRIPT, [key], [token])) };
}

/** Runs `work` under the lock, or returns undefined without running it when another holder has it. */
export async function withLock<T>(kv: KvStore, name: string, leaseMs: number, work: () => Promise<T>): Promise<T | undefined> {
  const lock = await tryAcquireLock(kv, name, leaseMs);
  if (!lock) return undefined;
  try {
    return await work();
  } finally {
    await lock.release();
  }
}
