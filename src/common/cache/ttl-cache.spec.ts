import { TtlCache } from './ttl-cache';

describe(TtlCache.name, () => {
  let now = 0;
  const sut = () => new TtlCache<string>(1_000, 2, () => now);

  beforeEach(() => (now = 0));

  it('serves a value until its ttl ends, then loads again', async () => {
    const cache = sut();
    const load = jest.fn().mockResolvedValueOnce('a').mockResolvedValueOnce('b');
    expect(await cache.get('k', load)).toBe('a');
    now = 999;
    expect(await cache.get('k', load)).toBe('a');
    now = 1_000;
    expect(await cache.get('k', load)).toBe('b');
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('shares one load between concurrent misses', async () => {
    const cache = sut();
    const load = jest.fn().mockResolvedValue('a');
    await Promise.all([cache.get('k', load), cache.get('k', load), cache.get('k', load)]);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('does not keep a failure', async () => {
    const cache = sut();
    await expect(cache.get('k', () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(await cache.get('k', () => Promise.resolve('up'))).toBe('up');
  });

  it('forgets the oldest key beyond its size', async () => {
    const cache = sut();
    const load = jest.fn().mockResolvedValue('v');
    await cache.get('a', load);
    await cache.get('b', load);
    await cache.get('c', load);
    await cache.get('a', load);
    expect(load).toHaveBeenCalledTimes(4);
  });
});
