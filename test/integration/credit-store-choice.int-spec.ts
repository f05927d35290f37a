import { MemoryKvStore } from '../../src/infra/kv/memory-kv.store';
import { RedisKvStore } from '../../src/infra/kv/redis-kv.store';
import { chooseCreditStore } from '../../src/modules/billing/credit-store.provider';
import { PrivateRedis } from '../support/faults/redis-server';

/** CREDITS_STORE=auto on real Redis servers: money stays in Redis only where Redis keeps it. */
describe(`${chooseCreditStore.name} (CREDITS_STORE=auto)`, () => {
  async function choiceOn(redis: PrivateRedis): Promise<string> {
    const kv = RedisKvStore.connect(redis.url, 'choice:');
    try {
      return (await chooseCreditStore(kv, 'auto')).kind;
    } finally {
      await kv.close();
      await redis.stop();
    }
  }

  it('runs the redis store on a Redis with an append-only file that never evicts', async () => {
    expect(await choiceOn(await PrivateRedis.start({ aof: true }))).toBe('redis');
    expect(await choiceOn(await PrivateRedis.start({ aof: true, extra: ['--maxmemory', '1gb', '--maxmemory-policy', 'noeviction'] }))).toBe('redis');
  });

  it('runs the postgres store on a Redis without one, on one that may evict keys, and on the in-process store', async () => {
    expect(await choiceOn(await PrivateRedis.start({ aof: false }))).toBe('postgres');
    expect(await choiceOn(await PrivateRedis.start({ aof: true, extra: ['--maxmemory', '1gb', '--maxmemory-policy', 'volatile-lru'] }))).toBe('postgres');
    expect((await chooseCreditStore(new MemoryKvStore(), 'auto')).kind).toBe('postgres');
  });

  it('runs what CREDITS_STORE names when it names one', async () => {
    expect((await chooseCreditStore(new MemoryKvStore(), 'redis')).kind).toBe('redis');
  });
});
