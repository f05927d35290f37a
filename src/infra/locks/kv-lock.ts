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

/** Extends the lease only for its owner. */
const EXTEND_SCRIPT: KvScript<number> = {
  name: 'lock-extend',
  lua: `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end return 0`,
  local(data, [key], [token, leaseMs]) {
    if (data.get(key) !== token) return 0;
    data.pexpire(key, Number(leaseMs));
    return 1;
  },
};

export interface HeldLock {
  /** Unique to this acquisition: a fencing token for work that must stop once the lease is lost. */
  readonly token: string;
  /** False when the lease was lost (expired and taken by another holder). */
  extend(leaseMs: number): Promise<boolean>;
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
  return {
    token,
    extend: async (ms) => (await kv.run(EXTEND_SCRIPT, [key], [token, ms])) === 1,
    release: async () => void (await kv.run(RELEASE_SCRIPT, [key], [token])),
  };
}
