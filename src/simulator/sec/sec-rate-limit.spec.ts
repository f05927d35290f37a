import { SecRateLimit } from './sec-rate-limit';

describe(SecRateLimit.name, () => {
  const T0 = Date.UTC(2026, 0, 5, 15, 0, 0);

  it('admits the limit within one clock second, per address, and records the peak', () => {
    const sut = new SecRateLimit(3, 60_000);
    expect([1, 2, 3].map(() => sut.admit('ip:a', T0 + 100))).toEqual([true, true, true]);
    expect(sut.admit('ip:b', T0 + 200)).toBe(true);
    expect(sut.peakPerSecond).toBe(3);
  });

  it('blocks an address that went past the limit for the block, without extending it', () => {
    const sut = new SecRateLimit(2, 5_000);
    sut.admit('ip:a', T0);
    sut.admit('ip:a', T0);
    expect(sut.admit('ip:a', T0 + 10)).toBe(false);
    expect(sut.admit('ip:a', T0 + 2_000)).toBe(false);
    expect(sut.admit('ip:a', T0 + 4_000)).toBe(false);
    expect(sut.admit('ip:a', T0 + 5_011)).toBe(true);
    expect(sut.admit('ip:b', T0 + 10)).toBe(true);
  });

  it('without a block, refuses only the rest of that second', () => {
    const sut = new SecRateLimit(1, 0);
    expect(sut.admit('ip:a', T0)).toBe(true);
    expect(sut.admit('ip:a', T0 + 999)).toBe(false);
    expect(sut.admit('ip:a', T0 + 1_000)).toBe(true);
  });

  it('counts but never refuses when off', () => {
    const sut = new SecRateLimit(0, 600_000);
    expect(Array.from({ length: 50 }, () => sut.admit('ip:a', T0)).every(Boolean)).toBe(true);
    expect(sut.peakPerSecond).toBe(50);
  });
});
