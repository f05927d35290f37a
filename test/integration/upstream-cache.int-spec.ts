import { KvStore } from '../../src/infra/kv/kv-store';
import { MemoryKvStore } from '../../src/infra/kv/memory-kv.store';
import { RedisKvStore } from '../../src/infra/kv/redis-kv.store';
import { cacheLookups } from '../../src/infra/metrics/metrics';
import { UpstreamError } from '../../src/providers/kit/upstream.error';
import { ProviderDisabledError } from '../../src/providers/kit/provider-disabled.error';
import { RETRY_FAILED_MS, STALE_LIMIT_MS, UpstreamCache, UpstreamCacheOptions } from '../../src/providers/kit/upstream-cache';
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

/** A load that settles when the test says so, counting its calls: the upstream a background probe waits on. */
function latchedUpstream<T>() {
  let settle!: { resolve: (value: T) => void; reject: (error: unknown) => void };
  const pending = new Promise<T>((resolve, reject) => (settle = { resolve, reject }));
  // Settled by the test, maybe before a probe asks for it: not an unhandled rejection.
  pending.catch(() => undefined);
  const waiters: Array<{ calls: number; wake: () => void }> = [];
  const upstream = {
    calls: 0,
    load: (): Promise<T> => {
      upstream.calls += 1;
      for (const waiter of waiters.filter((w) => w.calls <= upstream.calls)) waiter.wake();
      return pending;
    },
    /** Resolves once the load was called `calls` times in all (a probe starts behind the read that answered). */
    called: (calls: number) => new Promise<void>((wake) => (upstream.calls >= calls ? wake() : waiters.push({ calls, wake }))),
    settle,
  };
  return upstream;
}

/** Resolves once the store has finished its next `method` call: a probe's write or its lock release, which no read waits on. */
function nextStoreCall(kv: KvStore, method: 'set' | 'del'): Promise<void> {
  const original = kv[method].bind(kv) as (...args: unknown[]) => Promise<unknown>;
  return new Promise((resolve) => {
    const spy = jest.spyOn(kv, method).mockImplementation(async (...args: unknown[]) => {
      spy.mockRestore();
      const result = await original(...args);
      resolve();
      return result as never;
    });
  });
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

  it('serves the stale value at once after a failed load, calling nothing until one background probe per interval loads it', async () => {
    const sut = makeCache();
    await sut.get('BTC', async () => ({ price: '101.5' }));
    now += FRESH_TTL_MS;
    const down = fakeUpstream(null);
    down.load = async () => {
      down.calls += 1;
      return upstreamDown();
    };

    expect(await sut.get('BTC', down.load)).toEqual({ price: '101.5' });
    // A probe takes the key's load lock before it loads: counting attempts sees one start, though it runs behind the read.
    const lockAttempts = jest.spyOn(store.kv, 'setIfAbsent');
    for (let i = 0; i < 5; i++) expect(await sut.get('BTC', down.load)).toEqual({ price: '101.5' });
    now += RETRY_FAILED_MS - 1;
    expect(await sut.get('BTC', down.load)).toEqual({ price: '101.5' });
    expect(down.calls).toBe(1);
    expect(lockAttempts).not.toHaveBeenCalled();

    now += 1;
    const probe = latchedUpstream<{ price: string }>();
    // Answered while the probe's load is still pending: no read waits on it.
    expect(await sut.get('BTC', probe.load)).toEqual({ price: '101.5' });
    await probe.called(1);
    expect(await sut.get('BTC', probe.load)).toEqual({ price: '101.5' });
    expect(probe.calls).toBe(1);
    const written = nextStoreCall(store.kv, 'set');
    probe.settle.resolve({ price: '102' });
    await written;

    expect(await sut.get('BTC', probe.load)).toEqual({ price: '102' });
    expect(probe.calls).toBe(1);
    expect(await lookups(cacheName)).toEqual({ miss: 1, stale: 9, hit: 1 });
  });

  it('keeps answering from the failure while its probe fails, and probes again one interval after it', async () => {
    const sut = makeCache();
    await sut.get('SOL', async () => '1');
    now += FRESH_TTL_MS;
    expect(await sut.get('SOL', upstreamDown)).toBe('1');
    now += RETRY_FAILED_MS;
    const probe = latchedUpstream<string>();
    expect(await sut.get('SOL', probe.load)).toBe('1');
    await probe.called(1);
    const probeEnded = nextStoreCall(store.kv, 'del');
    probe.settle.reject(new UpstreamError({ provider: 'stub', kind: 'network', message: 'still refused' }));
    await probeEnded;

    const lockAttempts = jest.spyOn(store.kv, 'setIfAbsent');
    now += RETRY_FAILED_MS - 1;
    expect(await sut.get('SOL', probe.load)).toBe('1');
    expect(lockAttempts).not.toHaveBeenCalled();
    now += 1;
    expect(await sut.get('SOL', probe.load)).toBe('1');
    expect(await sut.get('SOL', probe.load)).toBe('1');
    expect(lockAttempts).toHaveBeenCalledTimes(1);
    await probe.called(2);
  });

  it('fails at once with the same error for a key with nothing cached, until a background probe loads it', async () => {
    const sut = makeCache();
    const refused = new UpstreamError({ provider: 'stub', kind: 'network', message: 'network error on GET http://127.0.0.1/x (ECONNREFUSED)' });
    const down = fakeUpstream(null);
    down.load = async () => {
      down.calls += 1;
      throw refused;
    };

    await expect(sut.get('ETH', down.load)).rejects.toBe(refused);
    await expect(sut.get('ETH', down.load)).rejects.toBe(refused);
    expect(down.calls).toBe(1);

    now += RETRY_FAILED_MS;
    const recovered = fakeUpstream({ price: '3' });
    const written = nextStoreCall(store.kv, 'set');
    await expect(sut.get('ETH', recovered.load)).rejects.toBe(refused);
    await written;

    expect(await sut.get('ETH', recovered.load)).toEqual({ price: '3' });
    expect(recovered.calls).toBe(1);
  });

  it('ends a failure once another replica stored a fresh value', async () => {
    const first = makeCache();
    const second = makeCache();
    await first.get('ADA', async () => '1');
    now += FRESH_TTL_MS;
    expect(await first.get('ADA', upstreamDown)).toBe('1');

    await second.get('ADA', async () => '2');

    expect(await first.get('ADA', upstreamDown)).toBe('2');
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
