import { Global, Module } from '@nestjs/common';
import { Decimal } from '../../src/common/decimal/decimal';
import { cacheLookups } from '../../src/infra/metrics/metrics';
import { LedgerFlusherService } from '../../src/modules/billing/ledger-flusher.service';
import { UPSTREAM_CLOCK } from '../../src/providers/kit/upstream-clock';
import { startSimulator } from '../../src/simulator/simulator.server';
import { createTestApp, TestApp } from '../support/create-test-app';
import { makeAccount } from '../support/factories';
import { runJob, Simulator } from '../support/hl-stack';
import { get } from '../support/http';
import { resetDb } from '../support/reset-db';
import { testConfig } from '../support/test-env';

const MINUTE_MS = 60_000;
/** Past every per-replica answer cache of the Markets reads (2 s for the feeds, 5 s for /global-stats). */
const ANSWER_CACHES_MS = 5_100;
/**
 * The cache ages values by the fake clock, the Age header by the wall clock. The fake clock starts this far
 * behind, so values are stamped that long ago; once it catches up, both clocks see them as this old: past
 * every fresh TTL (30-60 s), well inside the stale limit (1 h).
 */
const WARM_LAG_MS = 6 * MINUTE_MS;
/** Where the fake clock goes for the last part: the warmed values are then older than the stale limit. */
const PAST_STALE_LIMIT_MS = 65 * MINUTE_MS;
/** A refused connection fails each attempt at once: only the retry backoff (at most 1.5 s with two retries) is waited, never a timeout. */
const GIVE_UP_WITHIN_MS = 5_000;

const UPSTREAM_ERROR_BODY = { code: 'MARKET_UPSTREAM_ERROR', msg: 'upstream data source unavailable', data: null };
const DISABLED_BODY = { code: 'MARKET_DATA_DISABLED', msg: 'market data: disabled or not configured', data: null };

/** The on-demand reads that go to a vendor, with their contract cost (8.3). */
const ON_DEMAND_READS: ReadonlyArray<[path: string, cost: number, cache: string]> = [
  ['/assets/BTC', 1, 'markets.profile'],
  ['/assets/BTC/klines?interval=H1&limit=50', 2, 'markets.candles'],
  ['/assets/BTC/tickers', 1, 'markets.tickers'],
  ['/assets/AAPL/klines?interval=D1&limit=20', 2, 'markets.candles'],
  ['/global-stats', 1, 'markets.global'],
];

let clockOffsetMs = -WARM_LAG_MS;

/** What the app's upstream caches read as now. */
@Global()
@Module({ providers: [{ provide: UPSTREAM_CLOCK, useValue: () => Date.now() + clockOffsetMs }], exports: [UPSTREAM_CLOCK] })
class FakeCacheClockModule {}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Response = Awaited<ReturnType<typeof get>>;

/** How many lookups of `cache` were answered with a stale value so far (the metric is process-wide). */
async function staleLookups(cache: string): Promise<number> {
  const { values } = await cacheLookups.get();
  return values.find((v) => v.labels.cache === cache && v.labels.result === 'stale')?.value ?? 0;
}

/** A balance after spending `credits`. */
const minus = (balance: string, credits: number) => new Decimal(balance).minus(credits).toFixed();

describe('Markets when the vendors fail', () => {
  let sim: Simulator;
  let simDown = false;
  let t: TestApp;
  let key: string;

  beforeAll(async () => {
    sim = await startSimulator({ wallets: 20 });
    // Budgets with room for every retry of the outage: a spent budget holds a read until the next minute's window, which is not the matter here.
    const budgets = { COINGECKO_CALLS_PER_MINUTE: '600', YAHOO_CALLS_PER_MINUTE: '600' };
    t = await createTestApp(testConfig({ ...sim.env, ...budgets, MARKETS_CRYPTO_UNIVERSE: '100' }), [FakeCacheClockModule]);
    await resetDb(t.db);
    for (const job of ['hl.markets', 'markets.crypto', 'markets.tradfi']) {
      const result = await runJob(t, job);
      expect([result.name, result.status, result.error ?? null]).toEqual([job, 'ok', null]);
    }
    ({ key } = await makeAccount(t, { tier: 'pro' }));
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    if (!simDown) await sim?.close();
  });

  const balanceOf = async (app: TestApp, apiKey: string): Promise<string> => (await get(app, '/account/credits', apiKey)).body.data.balance;

  function expectNothingOfTheSimulator(res: Response) {
    expect(res.text).not.toContain(sim.host);
    expect(res.text).not.toContain(String(sim.port));
    expect(res.text).not.toContain('coingecko');
    expect(res.text).not.toContain('yahoo');
  }

  /** Failed calls leave no line in the ledger: nothing charged, nothing to refund. */
  async function expectNoLedgerLinesFor(app: TestApp, failed: Response[]) {
    await app.app.get(LedgerFlusherService).flush();
    const ids = failed.map((r) => r.headers['x-request-id']);
    expect(ids.every((id) => typeof id === 'string' && id.length > 0)).toBe(true);
    const rows = await app.db.query(`SELECT type, endpoint FROM credit_transactions WHERE reference_id::text = ANY($1::text[])`, [ids]);
    expect(rows).toEqual([]);
  }

  describe('with a vendor switched off', () => {
    let cryptoOff: TestApp;
    let tradfiOff: TestApp;

    beforeAll(async () => {
      // Same database and catalogue, a KV prefix of their own (testConfig): nothing cached by the first app.
      cryptoOff = await createTestApp(testConfig({ ...sim.env, MARKET_DATA_CRYPTO_VENDOR: 'none' }));
      tradfiOff = await createTestApp(testConfig({ ...sim.env, MARKET_DATA_TRADFI_VENDOR: 'none' }));
    });
    afterAll(async () => {
      await Promise.all([cryptoOff?.close(), tradfiOff?.close()]);
    });

    it('answers the crypto on-demand reads 503 MARKET_DATA_DISABLED when the crypto vendor is none, unbilled', async () => {
      const { key: offKey } = await makeAccount(cryptoOff, { tier: 'pro' });
      const before = await balanceOf(cryptoOff, offKey);

      const failed: Response[] = [];
      for (const path of ['/assets/BTC', '/assets/BTC/klines', '/assets/BTC/tickers', '/global-stats']) failed.push(await get(cryptoOff, path, offKey));

      for (const res of failed) {
        expect([res.status, res.body]).toEqual([503, DISABLED_BODY]);
        expect(res.headers['x-credits-cost']).toBe('0');
      }
      // One credit for the balance read itself.
      expect(await balanceOf(cryptoOff, offKey)).toBe(minus(before, 1));
      await expectNoLedgerLinesFor(cryptoOff, failed);
    });

    it('still answers stocks from the tradfi vendor and crypto from the catalogue when the crypto vendor is none', async () => {
      const { key: offKey } = await makeAccount(cryptoOff, { tier: 'pro' });

      const apple = await get(cryptoOff, '/assets/AAPL', offKey);
      const listed = await get(cryptoOff, '/assets?type=CRYPTO&limit=100', offKey);

      expect(apple.status).toBe(200);
      expect(apple.body.data).toMatchObject({ symbol: 'AAPL', type: 'STOCK' });
      expect(apple.headers['x-credits-cost']).toBe('1');
      expect(listed.status).toBe(200);
      expect(listed.body.data.items.map((a: { symbol: string }) => a.symbol)).toContain('BTC');
    });

    it('answers stock klines 503 MARKET_DATA_DISABLED when the tradfi vendor is none, while crypto klines still come', async () => {
      const { key: offKey } = await makeAccount(tradfiOff, { tier: 'pro' });

      const apple = await get(tradfiOff, '/assets/AAPL/klines', offKey);
      const bitcoin = await get(tradfiOff, '/assets/BTC/klines', offKey);

      expect([apple.status, apple.body]).toEqual([503, DISABLED_BODY]);
      expect(apple.headers['x-credits-cost']).toBe('0');
      expect(bitcoin.status).toBe(200);
      expect(bitcoin.body.data.length).toBeGreaterThan(0);
    });
  });

  describe('during an outage of the simulator', () => {
    const warmed = new Map<string, unknown>();

    beforeAll(async () => {
      for (const [path] of ON_DEMAND_READS) {
        const res = await get(t, path, key);
        if (res.status !== 200) throw new Error(`warming ${path}: ${res.status} ${res.text}`);
        warmed.set(path, res.body.data);
      }
      await sim.close();
      simDown = true;
      clockOffsetMs = 0;
      await sleep(ANSWER_CACHES_MS);
    }, 60_000);

    it('serves the last value of every on-demand read past its fresh TTL, aged, and bills it', async () => {
      const before = await balanceOf(t, key);

      for (const [path, cost, cache] of ON_DEMAND_READS) {
        const staleBefore = await staleLookups(cache);
        const res = await get(t, path, key);

        expect([path, res.status]).toEqual([path, 200]);
        expect(res.body.data).toEqual(warmed.get(path));
        expect(Number(res.headers.age)).toBeGreaterThanOrEqual(WARM_LAG_MS / 1000);
        expect(res.headers['x-credits-cost']).toBe(String(cost));
        // The vendor was asked (its fresh TTL is long past) and failed: the value is the cache's stand-in.
        expect(await staleLookups(cache)).toBeGreaterThan(staleBefore);
      }
      const spent = ON_DEMAND_READS.reduce((sum, [, cost]) => sum + cost, 0);
      expect(await balanceOf(t, key)).toBe(minus(before, spent + 1));
    });

    it('serves the catalogue reads from PostgreSQL, no vendor on their path', async () => {
      for (const path of ['/assets?type=ALL&limit=50', '/assets?type=STOCK&market=JP', '/search?q=bitcoin', '/search?q=apple', '/trending-gainers?type=ALL']) {
        const res = await get(t, path, key);

        expect([path, res.status]).toEqual([path, 200]);
        expect(res.body.data.items.length).toBeGreaterThan(0);
      }
    });

    it('answers an asset never cached 502 MARKET_UPSTREAM_ERROR at once, naming nothing of the simulator, unbilled', async () => {
      const before = await balanceOf(t, key);

      const failed: Response[] = [];
      for (const path of ['/assets/ETH', '/assets/ETH/klines', '/assets/ETH/tickers', '/assets/MSFT', '/assets/MSFT/klines']) {
        const started = Date.now();
        const res = await get(t, path, key);
        failed.push(res);

        expect([path, res.status, res.body]).toEqual([path, 502, UPSTREAM_ERROR_BODY]);
        expect(res.headers['x-credits-cost']).toBe('0');
        expectNothingOfTheSimulator(res);
        expect(Date.now() - started).toBeLessThan(GIVE_UP_WITHIN_MS);
      }
      expect(await balanceOf(t, key)).toBe(minus(before, 1));
      await expectNoLedgerLinesFor(t, failed);
    });

    it('gives up on values older than the stale limit: 502 MARKET_UPSTREAM_ERROR, naming nothing of the simulator, unbilled', async () => {
      clockOffsetMs = PAST_STALE_LIMIT_MS;
      await sleep(ANSWER_CACHES_MS);
      const before = await balanceOf(t, key);

      const failed: Response[] = [];
      for (const [path] of ON_DEMAND_READS) {
        const res = await get(t, path, key);
        failed.push(res);

        expect([path, res.status, res.body]).toEqual([path, 502, UPSTREAM_ERROR_BODY]);
        expect(res.headers['x-credits-cost']).toBe('0');
        expectNothingOfTheSimulator(res);
      }
      expect(await balanceOf(t, key)).toBe(minus(before, 1));
      await expectNoLedgerLinesFor(t, failed);
    });
  });
});
