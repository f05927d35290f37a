import { CachedValue, SnapshotScopedCache } from './hl-cache';

describe(CachedValue.name, () => {
  it('hands out the same object synchronously within the TTL and shares one reload at expiry', async () => {
    let loads = 0;
    const sut = new CachedValue(async () => ({ n: ++loads }), { ttlMs: 1000, maxStaleMs: 60_000 });
    const first = await sut.get(0);
    expect(sut.get(500)).toBe(first);
    const [a, b] = await Promise.all([sut.get(1500), sut.get(1501)]);
    expect(a).toBe(b);
    expect(loads).toBe(2);
  });

  it('keeps serving the last value when a reload fails, within maxStaleMs', async () => {
    let fail = false;
    const stale = jest.fn();
    const sut = new CachedValue(async () => {
      if (fail) throw new Error('db down');
      return 'v1';
    }, { ttlMs: 1000, maxStaleMs: 10_000, onStaleServed: stale });
    await sut.get(0);
    fail = true;
    await expect(sut.get(5000)).resolves.toBe('v1');
    expect(stale).toHaveBeenCalledTimes(1);
    await expect(sut.get(20_000)).rejects.toThrow('db down');
  });

  it('loads afresh after invalidate()', async () => {
    let loads = 0;
    const sut = new CachedValue(async () => ++loads, { ttlMs: 60_000, maxStaleMs: 60_000 });
    await sut.get(0);
    sut.invalidate();
    await expect(sut.get(1)).resolves.toBe(2);
  });
});

describe(SnapshotScopedCache.name, () => {
  it('computes once per snapshot and key, and forgets everything when the snapshot changes', async () => {
    const sut = new SnapshotScopedCache<string>();
    const load = jest.fn(async () => 'bins');
    await sut.get(1, 'BTC', load);
    await sut.get(1, 'BTC', load);
    expect(load).toHaveBeenCalledTimes(1);
    await sut.get(2, 'BTC', load);
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('does not remember a failed computation', async () => {
    const sut = new SnapshotScopedCache<string>();
    await expect(sut.get(1, 'BTC', async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(sut.get(1, 'BTC', async () => 'ok')).resolves.toBe('ok');
  });

  it('keeps at most maxEntries, evicting the one used least recently', async () => {
    const sut = new SnapshotScopedCache<string>({ maxEntries: 2 });
    const load = jest.fn(async () => 'page');
    await sut.get(1, 'a', load);
    await sut.get(1, 'b', load);
    await sut.get(1, 'a', load);
    await sut.get(1, 'c', load);
    expect(load).toHaveBeenCalledTimes(3);

    await sut.get(1, 'a', load);
    expect(load).toHaveBeenCalledTimes(3);
    await sut.get(1, 'b', load);
    expect(load).toHaveBeenCalledTimes(4);
  });

  it('loads every time with maxEntries 0', async () => {
    const sut = new SnapshotScopedCache<string>({ maxEntries: 0 });
    const load = jest.fn(async () => 'page');
    await sut.get(1, 'a', load);
    await sut.get(1, 'a', load);
    expect(load).toHaveBeenCalledTimes(2);
  });
});
