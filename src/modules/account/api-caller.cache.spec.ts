import { ConfigService } from '@nestjs/config';
import { ApiCaller } from '../../common/auth/api-caller';
import { AppConfig } from '../../config/app.config';
import { AccountRepository } from './account.repository';
import { ACTIVE_KEY_WINDOW_MS, ApiCallerCache } from './api-caller.cache';
import { generateApiKey } from './api-key-format';

const TTL_MS = 1000;

/** A key table in memory that records every query the cache sends it. */
class FakeKeys {
  readonly active = new Map<string, ApiCaller>();
  readonly queries: string[][] = [];

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
    return new Map(hashes.filter((h) => this.active.has(h)).map((h) => [h, this.active.get(h)!]));
  }

  async touchKeys(): Promise<void> {}
}

describe(ApiCallerCache.name, () => {
  let keys: FakeKeys;
  let sut: ApiCallerCache;

  beforeEach(() => {
    jest.useFakeTimers({ now: 1_700_000_000_000 });
    keys = new FakeKeys();
    const settings: Record<string, number> = { 'apiKeys.cacheTtlMs': TTL_MS, 'apiKeys.touchIntervalMs': 60_000 };
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
      last = await Promise.all(plaintexts.map((k) => sut.resolve(k)));
      await jest.advanceTimersByTimeAsync(50);
    }
    return last;
  }

  it('keeps busy keys fresh with one query per round for all of them, never one per key on the request path', async () => {
    const busy = [keys.add(), keys.add(), keys.add()];
    await callFor(5 * TTL_MS, busy);
    const single = keys.queries.filter((q) => q.length === 1);
    const bulk = keys.queries.filter((q) => q.length === busy.length);
    // Each key was read once on its first call; after that only the rounds (every TTL/2) read them, together.
    expect(single).toHaveLength(busy.length);
    expect(bulk.length).toBeGreaterThanOrEqual(9);
    expect(bulk.length).toBeLessThanOrEqual(10);
    expect(keys.queries).toHaveLength(single.length + bulk.length);
  });

  it('still refuses a revoked key within the TTL when the refresh finds it gone', async () => {
    const key = keys.add();
    expect(await callFor(TTL_MS, [key])).toEqual([expect.objectContaining({ tier: 'pro' })]);
    keys.revokeAll();
    const revokedAt = Date.now();
    let refusedAt: number | undefined;
    for (let t = 0; t <= 2 * TTL_MS && refusedAt === undefined; t += 50) {
      if ((await sut.resolve(key)) === null) refusedAt = Date.now();
      await jest.advanceTimersByTimeAsync(50);
    }
    expect(refusedAt).toBeDefined();
    expect(refusedAt! - revokedAt).toBeLessThanOrEqual(TTL_MS);
  });

  it('keeps a key used now and then fresh for the active window, then lets it expire; never refreshes unknown keys', async () => {
    const occasional = keys.add();
    await sut.resolve(occasional);
    await sut.resolve(generateApiKey().plaintext);
    expect(keys.queries).toHaveLength(2);

    // Unused for a third of the window: the rounds kept it fresh, so this call reads nothing itself.
    await jest.advanceTimersByTimeAsync(ACTIVE_KEY_WINDOW_MS / 3);
    const rounds = keys.queries.length - 2;
    expect(rounds).toBeGreaterThanOrEqual(ACTIVE_KEY_WINDOW_MS / 3 / (TTL_MS / 2) - 1);
    expect(keys.queries.slice(2).every((q) => q.length === 1 && keys.active.has(q[0]))).toBe(true);
    expect(await sut.resolve(occasional)).toEqual(expect.objectContaining({ tier: 'pro' }));
    expect(keys.queries).toHaveLength(2 + rounds);

    // Idle past the window (and a TTL): no more rounds for it, so it expired and the next call reads it.
    await jest.advanceTimersByTimeAsync(ACTIVE_KEY_WINDOW_MS + 2 * TTL_MS);
    const before = keys.queries.length;
    await jest.advanceTimersByTimeAsync(5 * TTL_MS);
    expect(keys.queries).toHaveLength(before);
    await sut.resolve(occasional);
    expect(keys.queries).toHaveLength(before + 1);
  });
});
