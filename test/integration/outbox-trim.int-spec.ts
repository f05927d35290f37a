import { TRIM_OUTBOX_HEAD_SCRIPT } from '../../src/modules/billing/outbox.scripts';
import { KvScript, KvStore } from '../../src/infra/kv/kv-store';
import { MemoryKvStore } from '../../src/infra/kv/memory-kv.store';
import { RedisKvStore } from '../../src/infra/kv/redis-kv.store';
import { TEST_REDIS_URL, uniqueKeyPrefix } from '../support/test-env';

const PUSH: KvScript<number> = {
  name: 'test-push',
  lua: `for i = 1, #ARGV do redis.call('RPUSH', KEYS[1], ARGV[i]) end return #ARGV`,
  local: (data, [key], values) => data.rpush(key, ...values),
};

describe.each([
  ['redis', () => RedisKvStore.connect(TEST_REDIS_URL, uniqueKeyPrefix())],
  ['memory', () => new MemoryKvStore()],
])('TRIM_OUTBOX_HEAD_SCRIPT on the %s store', (_name, make: () => KvStore) => {
  let sut: KvStore;

  beforeEach(async () => {
    sut = make();
    await sut.del('outbox', 'drained');
    await sut.run(PUSH, ['outbox'], ['a', 'b', 'c', 'd']);
  });
  afterEach(async () => {
    await sut.del('outbox', 'drained');
    await sut.close();
  });

  it('trims the lines a drainer read and wrote when the head is unchanged', async () => {
    expect(await sut.run(TRIM_OUTBOX_HEAD_SCRIPT, ['outbox', 'drained'], [2, 'a', 'b', '12'])).toBe(1);
    expect(await sut.lrange('outbox', 0, -1)).toEqual(['c', 'd']);
    expect(await sut.get('drained')).toBe('12');
  });

  it('leaves the outbox alone when another drainer already trimmed that head', async () => {
    expect(await sut.run(TRIM_OUTBOX_HEAD_SCRIPT, ['outbox', 'drained'], [2, 'a', 'b', '12'])).toBe(1);
    expect(await sut.run(TRIM_OUTBOX_HEAD_SCRIPT, ['outbox', 'drained'], [2, 'a', 'b', '9'])).toBe(0);
    expect(await sut.lrange('outbox', 0, -1)).toEqual(['c', 'd']);
    expect(await sut.get('drained')).toBe('12');
  });
});
