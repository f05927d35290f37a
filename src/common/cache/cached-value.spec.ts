import { CachedValue } from './cached-value';

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
    const sut = new CachedValue(
      async () => {
        if (fail) throw new Error('db down');
        return 'v1';
      },
      { ttlMs: 1000, maxStaleMs: 10_000, onStaleServed: stale },
    );
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
