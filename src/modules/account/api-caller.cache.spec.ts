import { Logger } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { ApiCaller } from './api-caller';
import { ErrorCode } from '../../common/errors/error-code';
import { AppConfig } from '../../config/app.config';
import { AccountRepository } from './account.repository';
import { ACTIVE_KEY_WINDOW_MS, ApiCallerCache } from './api-caller.cache';
import { generateApiKey } from './api-key-format';

const TTL_MS = 1000;
const FAILED_LOOKUPS_PER_MINUTE = 5;
const STALE_IF_ERROR_MS = 30_000;
const LOOKUP_TIMEOUT_MS = 2000;
const CLIENT = '203.0.113.7';

/** A key table in memory that records every query the cache sends it, and can be made unreachable. */
class FakeKeys {
  readonly active = new Map<string, ApiCaller>();
  readonly queries: string[][] = [];
  /** Set: every query fails, as when the database refuses connections. */
  down = false;
  /** Set: every query waits forever, as when the database accepts connections and never answers. */
  hung = false;

  add(): string {
    const { plaintext, prefix, hash } = generateApiKey();
    this.active.set(hash, {
      keyId: `key-${prefix}`,
      keyPrefix: prefix,
      accountId: `account-${prefix}`,
      walletAddress: '0x0000000000000000000000000000000000000001',
      tier: 'pro',
      resetAnchorAt: new Date(0),
      resetAnchorText: new Date(0).toISOString(),
      creditSeedMicro: '0',
      creditEpoch: 1,
      creditPeriod: 0,
    });
    return plaintext;
  }

  revokeAll(): void {
    this.active.clear();
  }

  async findCallersByKeyHashes(hashes: string[]): Promise<Map<string, ApiCaller>> {
    this.queries.push(hashes);
    if (this.down) throw new Error('connect ECONNREFUSED 10.0.0.5:5432');
    if (this.hung) return new Promise(() => undefined);
    return new Map(hashes.filter((h) => this.active.has(h)).map((h) => [h, this.active.get(h)!]));
  }

  async touchKeys(): Promise<void> {}
}

describe(ApiCallerCache.name, () => {
  let keys: FakeKeys;
  let sut: ApiCallerCache;

  beforeEach(() => {
    // setImmediate stays real: the misses of one turn leave together at its end (TurnBatcher).
    jest.useFakeTimers({ now: 1_700_000_000_000, doNotFake: ['setImmediate'] });
    keys = new FakeKeys();
    const settings: Record<string, number> = {
      'apiKeys.cacheTtlMs': TTL_MS,
      'apiKeys.touchIntervalMs': 60_000,
      'apiKeys.failedLookupsPerMinute': FAILED_LOOKUPS_PER_MINUTE,
      'apiKeys.staleIfErrorMs': STALE_IF_ERROR_MS,
      'apiKeys.lookupTimeoutMs': LOOKUP_TIMEOUT_MS,
    };
    const config = { get: (name: string) => settings[name] } as unknown as ConfigService<AppConfig, true>;
    sut = new ApiCallerCache(keys as unknown as AccountRepository, config);
    sut.onModuleInit();
  });

  afterEach(async () => {
    await sut.beforeApplicationShutdown();
    jest.useRealTimers();
  });

  /** Calls resolve for each key every 50 ms for `ms`, as busy clients would, and returns the last answers. */
  async function callFor(ms: number, plaintexts: string[]): Promise<Array<ApiCaller | null>> {
    let last: Array<ApiCaller | null> = [];
    for (let t = 0; t < ms; t += 50) {
      last = await Promise.all(plaintexts.map((k) => sut.resolve(k, CLIENT)));
      await jest.advanceTimersByTimeAsync(50);
    }
    return last;
  }

  it('reads the keys first used in one turn with one query, then keeps them fresh with one query per round', async () => {
    const busy = [keys.add(), keys.add(), keys.add()];
    await callFor(5 * TTL_MS, busy);
    // Never one query per key on the request path: the first turn's misses shared one, then only the
    // rounds (every TTL/2) read them, together.
    expect(keys.queries.every((q) => q.length === busy.length)).toBe(true);
    expect(keys.queries.length).toBeGreaterThanOrEqual(10);
    expect(keys.queries.length).toBeLessThanOrEqual(11);
  });

  it('still refuses a revoked key within the TTL when the refresh finds it gone', async () => {
    const key = keys.add();
    expect(await callFor(TTL_MS, [key])).toEqual([expect.objectContaining({ tier: 'pro' })]);
    keys.revokeAll();
    const revokedAt = Date.now();
    let refusedAt: number | undefined;
    for (let t = 0; t <= 2 * TTL_MS && refusedAt === undefined; t += 50) {
      if ((await sut.resolve(key, CLIENT)) === null) refusedAt = Date.now();
      await jest.advanceTimersByTimeAsync(50);
    }
    expect(refusedAt).toBeDefined();
    expect(refusedAt! - revokedAt).toBeLessThanOrEqual(TTL_MS);
  });

  it('keeps a key used now and then fresh for the active window, then lets it expire; never refreshes unknown keys', async () => {
    const occasional = keys.add();
    await sut.resolve(occasional, CLIENT);
    await sut.resolve(generateApiKey().plaintext, CLIENT);
    expect(keys.queries).toHaveLength(2);

    // Unused for a third of the window: the rounds kept it fresh, so this call reads nothing itself.
    await jest.advanceTimersByTimeAsync(ACTIVE_KEY_WINDOW_MS / 3);
    const rounds = keys.queries.length - 2;
    expect(rounds).toBeGreaterThanOrEqual(ACTIVE_KEY_WINDOW_MS / 3 / (TTL_MS / 2) - 1);
    expect(keys.queries.slice(2).every((q) => q.length === 1 && keys.active.has(q[0]))).toBe(true);
    expect(await sut.resolve(occasional, CLIENT)).toEqual(expect.objectContaining({ tier: 'pro' }));
    expect(keys.queries).toHaveLength(2 + rounds);

    // Idle past the window (and a TTL): no more rounds for it, so it expired and the next call reads it.
    await jest.advanceTimersByTimeAsync(ACTIVE_KEY_WINDOW_MS + 2 * TTL_MS);
    const before = keys.queries.length;
    await jest.advanceTimersByTimeAsync(5 * TTL_MS);
    expect(keys.queries).toHaveLength(before);
    await sut.resolve(occasional, CLIENT);
    expect(keys.queries).toHaveLength(before + 1);
  });

  it('answers a key found unknown from memory until the TTL passes, then reads it again', async () => {
    const unknown = generateApiKey().plaintext;
    expect(await sut.resolve(unknown, CLIENT)).toBeNull();
    expect(sut.peek(unknown)).toBeNull();
    expect(await sut.resolve(unknown, CLIENT)).toBeNull();
    expect(keys.queries).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(TTL_MS + 1);
    expect(sut.peek(unknown)).toBeUndefined();
  });

  it('refuses lookups from a client past its limit of unknown keys with 429 before any query, and still serves its cached key', async () => {
    const valid = keys.add();
    expect(await sut.resolve(valid, CLIENT)).toEqual(expect.objectContaining({ tier: 'pro' }));
    for (let i = 0; i < FAILED_LOOKUPS_PER_MINUTE; i++) expect(await sut.resolve(generateApiKey().plaintext, CLIENT)).toBeNull();
    const queries = keys.queries.length;

    await expect(sut.lookUp(generateApiKey().plaintext, CLIENT)).rejects.toMatchObject({ code: ErrorCode.RATE_LIMITED, headers: { 'retry-after': '60' } });
    expect(keys.queries).toHaveLength(queries);
    expect(sut.resolve(valid, CLIENT)).toEqual(expect.objectContaining({ tier: 'pro' }));
    // Another client is not held back by this one.
    expect(await sut.resolve(generateApiKey().plaintext, '198.51.100.1')).toBeNull();
    // A minute later the client may look keys up again.
    await jest.advanceTimersByTimeAsync(60_000);
    expect(await sut.resolve(generateApiKey().plaintext, CLIENT)).toBeNull();
  });

  it('stops a burst of concurrent unknown keys from one client at its limit, and never counts a valid key its first calls share', async () => {
    const burst = await Promise.allSettled(Array.from({ length: 50 }, () => sut.resolve(generateApiKey().plaintext, CLIENT)));
    expect(burst.filter((r) => r.status === 'fulfilled')).toHaveLength(FAILED_LOOKUPS_PER_MINUTE);
    expect(keys.queries.flat()).toHaveLength(FAILED_LOOKUPS_PER_MINUTE);

    await jest.advanceTimersByTimeAsync(60_000);
    const valid = keys.add();
    const first = await Promise.all(Array.from({ length: 50 }, () => sut.resolve(valid, CLIENT)));
    expect(first.every((caller) => caller?.tier === 'pro')).toBe(true);
    // The valid key was forgiven: the client's whole allowance of unknown keys is left.
    const after = await Promise.allSettled(Array.from({ length: FAILED_LOOKUPS_PER_MINUTE }, () => sut.resolve(generateApiKey().plaintext, CLIENT)));
    expect(after.every((r) => r.status === 'fulfilled')).toBe(true);
  });

  it('looks up the unknown keys of one turn with one query', async () => {
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => sut.resolve(generateApiKey().plaintext, `192.0.2.${i}`)));
    expect(answers.every((caller) => caller === null)).toBe(true);
    expect(keys.queries).toEqual([expect.any(Array)]);
    expect(keys.queries[0]).toHaveLength(50);
  });

  it('never evicts a known caller to make room for unknown keys', async () => {
    const valid = keys.add();
    await sut.resolve(valid, CLIENT);
    // More unknown keys than the cache holds callers, each from its own address (no limit applies).
    for (let round = 0; round < 51; round++) {
      await Promise.all(Array.from({ length: 1000 }, (_, i) => sut.resolve(generateApiKey().plaintext, `10.${round}.${i >> 8}.${i & 255}`)));
    }
    // Still answered from memory, synchronously.
    expect(sut.resolve(valid, CLIENT)).toEqual(expect.objectContaining({ tier: 'pro' }));
  });

  describe('while the key store fails', () => {
    const unavailable = { code: ErrorCode.SERVICE_UNAVAILABLE, message: expect.not.stringMatching(/10\.0\.0\.5|5432|ECONN/) };
    let warned: jest.SpyInstance;
    let logged: jest.SpyInstance;

    beforeEach(() => {
      warned = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
      logged = jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
    });
    afterEach(() => jest.restoreAllMocks());

    it('answers lookups 503, never 429, and neither remembers nor counts them as unknown keys', async () => {
      const valid = keys.add();
      keys.down = true;
      for (let i = 0; i < 3 * FAILED_LOOKUPS_PER_MINUTE; i++) await expect(sut.lookUp(valid, CLIENT)).rejects.toMatchObject(unavailable);
      const burst = await Promise.allSettled(Array.from({ length: 3 * FAILED_LOOKUPS_PER_MINUTE }, () => sut.resolve(generateApiKey().plaintext, CLIENT)));
      expect(burst.map((r) => r.status === 'rejected' && (r.reason as { code: string }).code)).toEqual(burst.map(() => ErrorCode.SERVICE_UNAVAILABLE));
      expect(sut.peek(valid)).toBeUndefined();
      // Once per outage, not once per failed lookup.
      expect(warned).toHaveBeenCalledTimes(1);

      // Back: the key is read at once, and the client still has its whole allowance of unknown keys.
      keys.down = false;
      expect(await sut.resolve(valid, CLIENT)).toEqual(expect.objectContaining({ tier: 'pro' }));
      expect(logged).toHaveBeenCalledWith('API-key lookups work again');
      for (let i = 0; i < FAILED_LOOKUPS_PER_MINUTE; i++) expect(await sut.resolve(generateApiKey().plaintext, CLIENT)).toBeNull();
      await expect(sut.lookUp(generateApiKey().plaintext, CLIENT)).rejects.toMatchObject({ code: ErrorCode.RATE_LIMITED });
    });

    it('serves a key read before the failure up to the stale window past its TTL, from memory, then answers 503', async () => {
      const busy = keys.add();
      const idle = keys.add();
      await sut.resolve(busy, CLIENT);
      await sut.resolve(idle, CLIENT);
      const readAt = Date.now();
      keys.down = true;
      // Past the TTL both are still served: the busy one synchronously (its refresh rounds failed), the idle one
      // after its own lookup failed.
      await jest.advanceTimersByTimeAsync(2 * TTL_MS);
      expect(sut.peek(busy)).toEqual(expect.objectContaining({ tier: 'pro' }));
      expect(await sut.resolve(idle, CLIENT)).toEqual(expect.objectContaining({ tier: 'pro' }));

      await jest.advanceTimersByTimeAsync(readAt + TTL_MS + STALE_IF_ERROR_MS - Date.now() - 50);
      expect(sut.peek(busy)).toEqual(expect.objectContaining({ tier: 'pro' }));
      await jest.advanceTimersByTimeAsync(100);
      await expect(sut.resolve(busy, CLIENT)).rejects.toMatchObject(unavailable);
      await expect(sut.resolve(idle, CLIENT)).rejects.toMatchObject(unavailable);
    });

    it('stops serving a key revoked meanwhile at the first refresh round once the store answers', async () => {
      const key = keys.add();
      await sut.resolve(key, CLIENT);
      keys.down = true;
      await jest.advanceTimersByTimeAsync(2 * TTL_MS);
      expect(sut.peek(key)).toEqual(expect.objectContaining({ tier: 'pro' }));
      keys.revokeAll();
      keys.down = false;
      await jest.advanceTimersByTimeAsync(TTL_MS / 2);
      expect(sut.peek(key)).toBeNull();
    });

    it('fails a read unanswered within the lookup timeout as a refused one: the cached key served, others 503', async () => {
      const cached = keys.add();
      const uncached = keys.add();
      await sut.resolve(cached, CLIENT);
      keys.hung = true;
      const pending = sut.lookUp(uncached, CLIENT);
      const settled = jest.fn();
      pending.then(settled, settled);
      await jest.advanceTimersByTimeAsync(LOOKUP_TIMEOUT_MS - 10);
      expect(settled).not.toHaveBeenCalled();
      await jest.advanceTimersByTimeAsync(20);
      expect(settled).toHaveBeenCalled();
      await expect(pending).rejects.toMatchObject(unavailable);
      // Past its TTL, and its refresh rounds hang too: served from memory all the same.
      await jest.advanceTimersByTimeAsync(2 * TTL_MS + LOOKUP_TIMEOUT_MS);
      expect(sut.peek(cached)).toEqual(expect.objectContaining({ tier: 'pro' }));

      keys.hung = false;
      await jest.advanceTimersByTimeAsync(LOOKUP_TIMEOUT_MS);
      expect(await sut.resolve(uncached, CLIENT)).toEqual(expect.objectContaining({ tier: 'pro' }));
    });

    it('serves no entry past its TTL once the store answers again: it is read afresh', async () => {
      const key = keys.add();
      await sut.resolve(key, CLIENT);
      keys.down = true;
      // Idle past the active window: no round reads it any more, and it is served from memory only while the store fails.
      await jest.advanceTimersByTimeAsync(ACTIVE_KEY_WINDOW_MS + 2 * TTL_MS);
      expect(sut.peek(key)).toEqual(expect.objectContaining({ tier: 'pro' }));
      keys.down = false;
      expect(await sut.resolve(generateApiKey().plaintext, '198.51.100.1')).toBeNull();
      expect(sut.peek(key)).toBeUndefined();
    });
  });
});
