import { addressGroup, FailedLookupLimiter } from './failed-lookup-limiter';

describe(FailedLookupLimiter.name, () => {
  const start = 1_700_000_000_000;

  it('lets an address look keys up until it has failed the limit within a minute, then says when it may again', () => {
    const sut = new FailedLookupLimiter(3);
    for (let i = 0; i < 3; i++) {
      expect(sut.retryAfterSeconds('203.0.113.7', start + i)).toBe(0);
      sut.recordLookup('203.0.113.7', start + i);
    }
    expect(sut.retryAfterSeconds('203.0.113.7', start + 10_000)).toBe(50);
    expect(sut.retryAfterSeconds('203.0.113.8', start + 10_000)).toBe(0);
    expect(sut.retryAfterSeconds('203.0.113.7', start + 60_000)).toBe(0);
  });

  it('counts lookups as they start, so a burst of concurrent unknown keys stops at the limit, and forgives one that found a key', () => {
    const sut = new FailedLookupLimiter(3);
    const admitted = Array.from({ length: 50 }, () => {
      if (sut.retryAfterSeconds('203.0.113.9', start) > 0) return false;
      sut.recordLookup('203.0.113.9', start);
      return true;
    });
    expect(admitted.filter(Boolean)).toHaveLength(3);

    sut.forgive('203.0.113.9', start);
    expect(sut.retryAfterSeconds('203.0.113.9', start + 1)).toBe(0);
    // A lookup from a window that has passed is not taken off the next window's count.
    sut.recordLookup('203.0.113.9', start + 1);
    sut.recordLookup('203.0.113.9', start + 60_000);
    sut.recordLookup('203.0.113.9', start + 60_001);
    sut.recordLookup('203.0.113.9', start + 60_002);
    sut.forgive('203.0.113.9', start + 1);
    expect(sut.retryAfterSeconds('203.0.113.9', start + 60_003)).toBeGreaterThan(0);
  });

  it('counts an IPv6 /64 as one client, and an IPv4-mapped address as its IPv4 one', () => {
    const sut = new FailedLookupLimiter(2);
    sut.recordLookup('2001:db8:1:2::1', start);
    sut.recordLookup('2001:0db8:0001:0002:ffff::9', start);
    expect(sut.retryAfterSeconds('2001:db8:1:2:3:4:5:6', start)).toBeGreaterThan(0);
    expect(sut.retryAfterSeconds('2001:db8:1:3::1', start)).toBe(0);
    expect(addressGroup('::ffff:192.0.2.1')).toBe('192.0.2.1');
    expect(addressGroup('::1')).toBe('0:0:0:0::/64');
  });
});
