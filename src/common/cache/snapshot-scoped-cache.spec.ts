import { SnapshotScopedCache } from './snapshot-scoped-cache';

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
