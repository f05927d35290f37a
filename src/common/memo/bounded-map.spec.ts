import { BoundedMap } from './bounded-map';

describe(BoundedMap.name, () => {
  it('forgets the oldest entry once full, and keeps the rest', () => {
    const sut = new BoundedMap<string, number>(2);
    sut.set('a', 1);
    sut.set('b', 2);
    sut.set('c', 3);

    expect([sut.get('a'), sut.get('b'), sut.get('c'), sut.size]).toEqual([undefined, 2, 3, 2]);
  });

  it('replaces a known key without forgetting another', () => {
    const sut = new BoundedMap<string, number>(2);
    sut.set('a', 1);
    sut.set('b', 2);
    sut.set('a', 10);

    expect([sut.get('a'), sut.get('b')]).toEqual([10, 2]);
  });

  it('computes a value once, and remembers nothing when the computation throws', () => {
    const sut = new BoundedMap<string, number>(4);
    const compute = jest.fn((key: string) => key.length);
    expect([sut.getOrSet('abc', compute), sut.getOrSet('abc', compute)]).toEqual([3, 3]);
    expect(compute).toHaveBeenCalledTimes(1);

    expect(() =>
      sut.getOrSet('bad', () => {
        throw new Error('no');
      }),
    ).toThrow('no');
    expect(sut.get('bad')).toBeUndefined();
  });

  it('refuses a size that could hold nothing', () => {
    expect(() => new BoundedMap(0)).toThrow();
  });
});
