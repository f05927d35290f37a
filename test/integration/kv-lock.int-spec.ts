import { randomBytes } from 'node:crypto';
import { KvStore } from '../../src/infra/kv/kv-store';
import { MemoryData } from '../../src/infra/kv/memory-data';
import { MemoryKvStore } from '../../src/infra/kv/memory-kv.store';
import { RedisKvStore } from '../../src/infra/kv/redis-kv.store';
import { tryAcquireLock } from '../../src/infra/locks/kv-lock';
import { uniqueKeyPrefix } from '../support/test-env';

const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
const LONG_LEASE_MS = 30_000;
const SHORT_LEASE_MS = 50;

/** A store plus a way to let a lease run out: real time on Redis, the injected clock in memory. */
interface LockHarness {
  sut: KvStore;
  elapse(ms: number): Promise<void>;
  close(): Promise<void>;
}

function makeRedis(): LockHarness {
  const prefix = uniqueKeyPrefix();
  const store = RedisKvStore.connect(REDIS_URL, prefix);
  return {
    sut: store,
    elapse: (ms) => new Promise((resolve) => setTimeout(resolve, ms + 25)),
    close: async () => {
      await store.client.eval(`for _, k in ipairs(redis.call('KEYS', ARGV[1])) do redis.call('DEL', k) end`, 0, `${prefix}*`);
      await store.close();
    },
  };
}

function makeMemory(): LockHarness {
  let now = Date.UTC(2027, 0, 15);
  return {
    sut: new MemoryKvStore(new MemoryData(() => now)),
    elapse: async (ms) => {
      now += ms + 1;
    },
    close: async () => undefined,
  };
}

/** Each test takes its own lock name, so tests sharing the store never see each other's leases. */
function lockName(): string {
  return `job-${randomBytes(4).toString('hex')}`;
}

describe.each([
  ['redis', makeRedis],
  ['memory', makeMemory],
])('locks on the %s store', (_kind, make) => {
  const harness = make();
  const sut = harness.sut;
  afterAll(() => harness.close());

  describe(tryAcquireLock.name, () => {
    it('refuses a second holder while the lock is held', async () => {
      const name = lockName();

      const first = await tryAcquireLock(sut, name, LONG_LEASE_MS);
      const second = await tryAcquireLock(sut, name, LONG_LEASE_MS);

      expect(first).not.toBeNull();
      expect(second).toBeNull();
      await first!.release();
    });

    it('lets the next holder in once the lock is released', async () => {
      const name = lockName();
      const first = await tryAcquireLock(sut, name, LONG_LEASE_MS);

      await first!.release();

      expect(await tryAcquireLock(sut, name, LONG_LEASE_MS)).not.toBeNull();
    });

    it('lets the next holder in once the lease has expired', async () => {
      const name = lockName();
      await tryAcquireLock(sut, name, SHORT_LEASE_MS);

      await harness.elapse(SHORT_LEASE_MS);

      expect(await tryAcquireLock(sut, name, LONG_LEASE_MS)).not.toBeNull();
    });

    it('keeps a holder whose lease expired from releasing the new holder', async () => {
      const name = lockName();
      const stale = await tryAcquireLock(sut, name, SHORT_LEASE_MS);
      await harness.elapse(SHORT_LEASE_MS);
      const current = await tryAcquireLock(sut, name, LONG_LEASE_MS);

      await stale!.release();

      expect(current).not.toBeNull();
      expect(await tryAcquireLock(sut, name, LONG_LEASE_MS)).toBeNull();
      await current!.release();
      expect(await tryAcquireLock(sut, name, LONG_LEASE_MS)).not.toBeNull();
    });

    it('gives an owner back a lease it took without hearing of it (the reply lost), with a fencing token of its own', async () => {
      const name = lockName();
      const lost = await tryAcquireLock(sut, name, LONG_LEASE_MS, 'replica-1');

      const again = await tryAcquireLock(sut, name, LONG_LEASE_MS, 'replica-1');

      expect(again).not.toBeNull();
      expect(again!.token).not.toBe(lost!.token);
      expect(await tryAcquireLock(sut, name, LONG_LEASE_MS, 'replica-2')).toBeNull();
      await again!.release();
      expect(await tryAcquireLock(sut, name, LONG_LEASE_MS, 'replica-2')).not.toBeNull();
    });

    it('keeps different lock names independent', async () => {
      expect(await tryAcquireLock(sut, lockName(), LONG_LEASE_MS)).not.toBeNull();
      expect(await tryAcquireLock(sut, lockName(), LONG_LEASE_MS)).not.toBeNull();
    });
  });
});
