import { KvStore } from '../../src/infra/kv/kv-store';
import { MemoryKvStore } from '../../src/infra/kv/memory-kv.store';
import { RedisKvStore } from '../../src/infra/kv/redis-kv.store';
import { cacheLookups } from '../../src/infra/metrics/metrics';
import { UpstreamError } from '../../src/providers/kit/upstream.error';
import { ProviderDisabledError } from '../../src/providers/kit/provider-disabled.error';
import { STALE_LIMIT_MS, UpstreamCache, UpstreamCacheOptions } from '../../src/providers/kit/upstream-cache';
import { TEST_REDIS_URL, uniqueKeyPrefix } from '../support/test-env';

const FRESH_TTL_MS = 30_000;
const upstreamDown = () =>
  Promise.reject(new UpstreamError({ provider: 'stub', kind: 'http', upstreamStatus: 503, message: 'HTTP 503 from GET http://127.0.0.1/x' }));

interface Store {
  kv: KvStore;
  close(): Promise<void>;
}

function redisStore(): Store {
  const prefix = uniqueKeyPrefix();
  const kv = RedisKvStore.connect(TEST_REDIS_URL, prefix);
  return {
    kv,
    close: async () => {
      await kv.client.eval(`for _, k in ipairs(redis.call('KEYS', ARGV[1])) do redis.call('DEL', k) end`, 0, `${prefix}*`);
      await kv.close();
    },
  };
}

function memoryStore(): Store {
  return { kv: new MemoryKvStore(), close: async () => undefined };
}

async function lookups(cache: string): Promise<Record<string, number>> {
  const { values } = await cacheLookups.get();
  return Object.fromEntries(values.filter((v) => v.labels.cache === cache).map((v) => [String(v.labels.result), v.value]));
}

/** An upstream whose answers the test controls, counting calls. */
function fakeUpstream<T>(value: T) {
  const upstream = {
    calls: 0,
    load: async (): Promise<T> => {
      upstream.calls += 1;
      return value;
    },
  };
  return upstream;
}

describe.each([
  ['Redis', redisStore],
  ['the in-process store', memoryStore],
])(`${UpstreamCache.name} on %s`, (_name, makeStore) => {
  let store: Store;
  let now: number;
  let cacheName: string;
  const makeCache = (options: Partial<UpstreamCacheOptions> = {}) =>
    new UpstreamCache(store.kv, { name: cacheName, freshTtlMs: FRESH_TTL_MS, now: () => now, ...options });

  beforeEach(() => {
    store = makeStore();
    now = Date.UTC(2027, 0, 15);
    cacheName = `test.${Math.random().toString(36).slice(2, 8)}`;
  });
  afterEach(() => store.close());

  it('serves a fresh value without calling the upstream again', async () => {
    const sut = makeCache();
    const upstream = fakeUpstream({ price: '101.5' });
    expect(await sut.get('BTC', upstream.load)).toEqual({ price: '101.5' });
    now += FRESH_TTL_MS - 1;

    expect(await sut.get('BTC', upstream.load)).toEqual({ price: '101.5' });

    expect(upstream.calls).toBe(1);
    expect(await lookups(cacheName)).toEqual({ miss: 1, hit: 1 });
  });

  it('loads again once the value is past its TTL', async () => {
    const sut = makeCache();
    await sut.get('BTC', async () => '1');
    now += FRESH_TTL_MS;
    expect(await sut.get('BTC', async () => '2')).toBe('2');
  });

  it('asks again sooner for a value freshTtlFor gives a shorter TTL (a partial answer), never later than the TTL', async () => {
    const sut = makeCache({ freshTtlFor: (value) => ((value as { partial: boolean }).partial ? FRESH_TTL_MS / 10 : 10 * FRESH_TTL_MS) });
    await sut.get('partial', async () => ({ partial: true }));
    await sut.get('whole', async () => ({ partial: false }));
    now += FRESH_TTL_MS / 10;

    expect(await sut.get('partial', async () => ({ partial: false, reloaded: true }))).toEqual({ partial: false, reloaded: true });
    expect(await sut.get('whole', async () => ({ reloaded: true }))).toEqual({ partial: false });
    now += FRESH_TTL_MS;
    expect(await sut.get('whole', async () => ({ reloaded: true }))).toEqual({ reloaded: true });
  });

  it('serves the stale value for up to an hour while the upstream fails, then the error', async () => {
    const sut = makeCache();
    await sut.get('BTC', async () => ({ price: '101.5' }));

    now += FRESH_TTL_MS;
    expect(await sut.get('BTC', upstreamDown)).toEqual({ price: '101.5' });
    now += STALE_LIMIT_MS - FRESH_TTL_MS;
    expect(await sut.get('BTC', upstreamDown)).toEqual({ price: '101.5' });
    now += 1;

    await expect(sut.get('BTC', upstreamDown)).rejects.toBeInstanceOf(UpstreamError);
    expect(await lookups(cacheName)).toEqual({ miss: 1, stale: 2 });
  });

  it('gives the error at once when nothing was ever cached', async () => {
    await expect(makeCache().get('BTC', upstreamDown)).rejects.toMatchObject({ kind: 'http' });
  });

  it("serves no stale value for a failure that is not the upstream's (a switched-off provider)", async () => {
    const sut = makeCache();
    await sut.get('BTC', async () => '1');
    now += FRESH_TTL_MS;
    await expect(sut.get('BTC', () => Promise.reject(new ProviderDisabledError('market data')))).rejects.toBeInstanceOf(ProviderDisabledError);
  });

  it('makes one upstream call for 50 concurrent misses', async () => {
    const sut = makeCache();
    const upstream = fakeUpstream('v');
    const slowLoad = async () => {
      await new Promise((resolve) => setTimeout(resolve, 50));
      return upstream.load();
    };

    const lockAttempts = jest.spyOn(store.kv, 'setIfAbsent');

    const values = await Promise.all(Array.from({ length: 50 }, () => sut.get('ETH', slowLoad)));

    expect(values).toEqual(Array(50).fill('v'));
    expect(upstream.calls).toBe(1);
    // Joined in this process, not merely held back by the replicas' lock.
    expect(lockAttempts).toHaveBeenCalledTimes(1);
  });

  it('shares the value between two replicas on one store: the second makes no call', async () => {
    const first = makeCache();
    const second = makeCache();
    const upstreamOfFirst = fakeUpstream(['a', 'b']);
    const upstreamOfSecond = fakeUpstream(['other']);

    await first.get('list', upstreamOfFirst.load);
    const value = await second.get('list', upstreamOfSecond.load);

    expect(value).toEqual(['a', 'b']);
    expect(upstreamOfSecond.calls).toBe(0);
  });

  it('lets one replica load while another waits for its value instead of calling too', async () => {
    const first = makeCache();
    const second = makeCache();
    let release!: (value: string) => void;
    const firstLoad = new Promise<string>((resolve) => (release = resolve));
    const upstreamOfSecond = fakeUpstream('other');

    const loading = first.get('SOL', () => firstLoad);
    await new Promise((resolve) => setTimeout(resolve, 30));
    const waiting = second.get('SOL', upstreamOfSecond.load);
    await new Promise((resolve) => setTimeout(resolve, 60));
    release('from first');

    expect(await Promise.all([loading, waiting])).toEqual(['from first', 'from first']);
    expect(upstreamOfSecond.calls).toBe(0);
  });

  it('calls the upstream itself when the replica it waited for failed', async () => {
    const first = makeCache();
    const second = makeCache({ lockWaitMs: 5_000 });
    let fail!: () => void;
    const firstLoad = new Promise<string>(
      (_resolve, reject) => (fail = () => reject(new UpstreamError({ provider: 'stub', kind: 'timeout', message: 'slow' }))),
    );
    const upstreamOfSecond = fakeUpstream('second');

    const loading = first.get('DOGE', () => firstLoad).catch((err: unknown) => err);
    await new Promise((resolve) => setTimeout(resolve, 30));
    const started = Date.now();
    const waiting = second.get('DOGE', upstreamOfSecond.load);
    fail();

    expect(await waiting).toBe('second');
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(await loading).toBeInstanceOf(UpstreamError);
  });
});
