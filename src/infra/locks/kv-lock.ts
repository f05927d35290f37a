import { randomUUID } from 'node:crypto';
import { KvScript, KvStore } from '../kv/kv-store';

/** Deletes the lock only when the caller still owns it, so a holder that overran its lease cannot free another's. */
const RELEASE_SCRIPT: KvScript<number> = {
  name: 'lock-release',
  lua: `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`,
  local(data, [key], [owner]) {
    return data.get(key) === owner ? Number(data.del(key)) : 0;
  },
};

/** Extends the lease only for its owner. */
const EXTEND_SCRIPT: KvScript<number> = {
  name: 'lock-extend',
  lua: `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end return 0`,
  local(data, [key], [owner, leaseMs]) {
    if (data.get(key) !== owner) return 0;
    data.pexpire(key, Number(leaseMs));
    return 1;
  },
};

/**
 * Takes the lock unless another owner holds it: SET NX PX, or, when the lock is already this owner's (a
 * take whose reply was lost, so the owner never learnt it held it), a new lease. 1 when taken.
 */
const ACQUIRE_SCRIPT: KvScript<number> = {
  name: 'lock-acquire',
  lua: `
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return 1 end
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
return 0
`,
  local(data, [key], [owner, leaseMs]) {
    const held = data.get(key);
    if (held !== null && held !== owner) return 0;
    data.set(key, owner, Number(leaseMs));
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
 * A lease in the KV store (an owner's name under the lock's key, with an expiry): one replica at a time
 * runs the work, and the lease expires on its own if the holder dies. `owner` names the holder; one that
 * stays the same across tries (a process's) gets back a lease whose taking it never heard of, instead of
 * waiting for it to run out. By default every try is an owner of its own.
 */
export async function tryAcquireLock(kv: KvStore, name: string, leaseMs: number, owner: string = randomUUID()): Promise<HeldLock | null> {
  const key = `lock:${name}`;
  if ((await kv.run(ACQUIRE_SCRIPT, [key], [owner, leaseMs])) !== 1) return null;
  return {
    token: randomUUID(),
    extend: async (ms) => (await kv.run(EXTEND_SCRIPT, [key], [owner, ms])) === 1,
    release: async () => void (await kv.run(RELEASE_SCRIPT, [key], [owner])),
  };
}
