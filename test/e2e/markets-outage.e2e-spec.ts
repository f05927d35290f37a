import { Global, Module } from '@nestjs/common';
import { cacheLookups, upstreamCalls } from '../../src/infra/metrics/metrics';
import { RETRY_FAILED_MS } from '../../src/providers/kit/upstream-cache';
import { CIRCUIT_RETRY_MS } from '../../src/providers/kit/upstream-circuit';
import { UPSTREAM_CLOCK } from '../../src/providers/kit/upstream-clock';
import { RunningSimulator, startSimulator } from '../../src/simulator/simulator.server';
import { createTestApp, TestApp } from '../support/create-test-app';
import { makeAccount } from '../support/factories';
import { FaultProxy } from '../support/fault-proxy';
import { runJob } from '../support/hl-stack';
import { eventually, get } from '../support/http';
import { CATALOGUE_JOBS, CountingProxy, startCountingProxy } from '../support/markets-stack';
import { resetDb } from '../support/reset-db';
import { testConfig } from '../support/test-env';

const MINUTE_MS = 60_000;
/** Past every fresh TTL of the on-demand reads (30-60 s), well inside the stale limit (1 h). */
const PAST_FRESH_MS = 2 * MINUTE_MS;
/** When a failed key's probe and the provider's trial are both due again. */
const RETRY_MS = Math.max(RETRY_FAILED_MS, CIRCUIT_RETRY_MS);
const UPSTREAM_ERROR_BODY = { code: 'MARKET_UPSTREAM_ERROR', msg: 'upstream data source unavailable', data: null };

let clockOffsetMs = 0;

/** What the upstream caches and the vendors' circuits read as now: the test moves it instead of waiting. */
@Global()
@Module({ providers: [{ provide: UPSTREAM_CLOCK, useValue: () => Date.now() + clockOffsetMs }], exports: [UPSTREAM_CLOCK] })
class FakeUpstreamClockModule {}

async function counted(metric: typeof cacheLookups | typeof upstreamCalls, labels: Record<string, string>): Promise<number> {
  const { values } = await metric.get();
  return values.find((v) => Object.entries(labels).every(([name, value]) => (v.labels as Record<string, unknown>)[name] === value))?.value ?? 0;
}

/**
 * Two replicas on one KV store in front of the simulator: each request they send passes a proxy that counts
 * it, then a TCP fault proxy that refuses connections or swallows them (the vendor hangs). One replica warms
 * the shared cache; the other is the one measured, so no answer it keeps for a couple of seconds (per
 * replica) hides its upstream reads.
 */
describe('Markets during an upstream outage', () => {
  let sim: RunningSimulator;
  let vendor: FaultProxy;
  let upstream: CountingProxy;
  let warmer: TestApp;
  let sut: TestApp;
  let key: string;
  const warmed = new Map<string, any>();

  beforeAll(async () => {
    sim = await startSimulator({ wallets: 20, coingeckoCallsPerMinute: 0, yahooCallsPerMinute: 0 });
    const { hostname, port } = new URL(sim.url);
    vendor = await FaultProxy.start({ host: hostname, port: Number(port) });
    upstream = await startCountingProxy(`http://127.0.0.1:${vendor.port}`);
    const env = Object.fromEntries(Object.entries(sim.env).map(([name, value]) => [name, value.replaceAll(sim.url, upstream.url)]));
    const config = testConfig({ ...env, MARKETS_CRYPTO_UNIVERSE: '100' });
    warmer = await createTestApp(config, [FakeUpstreamClockModule]);
    sut = await createTestApp(config, [FakeUpstreamClockModule]);
    await resetDb(warmer.db);
    for (const job of CATALOGUE_JOBS) expect((await runJob(warmer, job)).status).toBe('ok');
    ({ key } = await makeAccount(warmer, { tier: 'pro' }));
    for (const path of ['/assets/BTC', '/assets/ETH', '/assets/SOL', '/assets/BTC/klines?interval=H1&limit=500', '/assets/ETH/klines?interval=H1&limit=500']) {
      const res = await get(warmer, path, key);
      if (res.status !== 200) throw new Error(`warming ${path}: ${res.status} ${res.text}`);
      warmed.set(path, res.body.data);
    }
  }, 120_000);
  afterEach(async () => {
    // Whatever a test left swallowed is let go, and the vendor answers again.
    vendor.cutAll();
    await vendor.restore();
  });
  afterAll(async () => {
    await Promise.all([warmer?.close(), sut?.close()]);
    await upstream?.close();
    await vendor?.close();
    await sim?.close();
  });

  /** Candles of BTC, read with a `limit` no earlier read used: past the replica's own answer cache, to the shared one. */
  let nextLimit = 1;
  async function readBtcKlines() {
    const limit = nextLimit++;
    const res = await get(sut, `/assets/BTC/klines?interval=H1&limit=${limit}`, key);
    return { res, limit };
  }
  async function expectWarmedBtcKlines() {
    const { res, limit } = await readBtcKlines();
    expect([limit, res.status]).toEqual([limit, 200]);
    expect(res.body.data).toEqual(warmed.get('/assets/BTC/klines?interval=H1&limit=500').slice(-limit));
  }

  it('serves the stale value at once after the first failed read, calling the refusing upstream only from one background probe per interval', async () => {
    await vendor.refuse();
    clockOffsetMs += PAST_FRESH_MS;

    const before = upstream.hits.length;
    await expectWarmedBtcKlines();
    const afterFirstRead = upstream.hits.length;
    expect(afterFirstRead).toBeGreaterThan(before);

    for (let i = 0; i < 20; i++) await expectWarmedBtcKlines();
    // Another coin's candles: the same vendor, known to be failing, is not asked either.
    const eth = await get(sut, '/assets/ETH/klines?interval=H1&limit=7', key);
    expect(eth.status).toBe(200);
    expect(eth.body.data).toEqual(warmed.get('/assets/ETH/klines?interval=H1&limit=500').slice(-7));
    expect(upstream.hits.length).toBe(afterFirstRead);

    // The interval over: a read is still answered at once, and one probe asks the upstream behind it.
    clockOffsetMs += RETRY_MS;
    const failedProbesBefore = await counted(upstreamCalls, { provider: 'binance', outcome: 'network' });
    const probe = upstream.nextHit();
    await expectWarmedBtcKlines();
    expect(await probe).toMatch(/\/klines\?symbol=BTCUSDT/);
    const failedProbes = await eventually(
      () => counted(upstreamCalls, { provider: 'binance', outcome: 'network' }),
      (failed) => failed > failedProbesBefore,
    );
    expect(failedProbes).toBe(failedProbesBefore + 1);
    for (let i = 0; i < 5; i++) await expectWarmedBtcKlines();
    expect(upstream.hits.length).toBe(afterFirstRead + 1);

    // The upstream back: the next probe's value is what the reads after it get.
    await vendor.restore();
    clockOffsetMs += RETRY_MS;
    const freshBefore = await counted(cacheLookups, { cache: 'markets.candles', result: 'hit' });
    const recovery = upstream.nextHit();
    await expectWarmedBtcKlines();
    await recovery;
    const freshRead = await eventually(
      async () => ({ read: await readBtcKlines(), fresh: await counted(cacheLookups, { cache: 'markets.candles', result: 'hit' }) }),
      ({ fresh }) => fresh > freshBefore,
    );
    expect(freshRead.fresh).toBe(freshBefore + 1);
    expect(freshRead.read.res.status).toBe(200);
    expect(freshRead.read.res.body.data).toHaveLength(freshRead.read.limit);
    expect(upstream.hits.length).toBe(afterFirstRead + 2);
  });

  it('answers every read after the first from the stale value while the upstream hangs, never waiting on it again', async () => {
    vendor.setMode('blackhole');
    clockOffsetMs += PAST_FRESH_MS;

    // The first read waits out the on-demand deadline: the upstream accepts and never answers.
    const before = upstream.hits.length;
    const first = await get(sut, '/assets/BTC', key);
    expect([first.status, first.body.data]).toEqual([200, warmed.get('/assets/BTC')]);
    const afterFirstRead = upstream.hits.length;
    expect(afterFirstRead).toBe(before + 1);

    // The vendor still swallows everything: a read below that asked it would be counted, and would wait out the deadline.
    for (const path of ['/assets/ETH', '/assets/SOL']) {
      const res = await get(sut, path, key);
      expect([path, res.status, res.body.data]).toEqual([path, 200, warmed.get(path)]);
    }
    const neverCached = await get(sut, '/assets/XRP', key);
    expect([neverCached.status, neverCached.body]).toEqual([502, UPSTREAM_ERROR_BODY]);
    expect(neverCached.headers['x-credits-cost']).toBe('0');
    expect(upstream.hits.length).toBe(afterFirstRead);
  });
});
