import { requestState, uuidV7 } from './request-state';

describe('uuidV7', () => {
  it('is an RFC 9562 version-7 UUID carrying the millisecond time', () => {
    const sut = uuidV7(Date.UTC(2026, 10, 21, 12, 0, 0, 123));
    expect(sut).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(parseInt(sut.replace('-', '').slice(0, 12), 16)).toBe(Date.UTC(2026, 10, 21, 12, 0, 0, 123));
  });

  it('sorts ids of later milliseconds after earlier ones, and never repeats', () => {
    const ids = Array.from({ length: 1000 }, (_, i) => uuidV7(1_700_000_000_000 + i));
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(Array.from({ length: 10_000 }, () => uuidV7(1)))).toHaveProperty('size', 10_000);
  });

  it('numbers the ids of one millisecond with a counter that climbs by one (modulo 2^26)', () => {
    const counterOf = (id: string) => parseInt(id.slice(15, 18), 16) * 0x4000 + (parseInt(id.slice(19, 23), 16) & 0x3fff);
    const counters = Array.from({ length: 1000 }, () => counterOf(uuidV7(1_700_000_000_000)));

    const steps = counters.slice(1).map((c, i) => (c - counters[i] + 2 ** 26) % 2 ** 26);
    expect(new Set(steps)).toEqual(new Set([1]));
  });
});

describe(requestState.name, () => {
  it('mints one id per request, ignoring a client-chosen x-request-id', () => {
    const req = { headers: { 'x-request-id': 'mine' } };
    const sut = requestState(req);
    expect(sut.requestId).not.toBe('mine');
    expect(requestState(req)).toBe(sut);
    expect(requestState({ raw: req })).toBe(sut);
  });
});
