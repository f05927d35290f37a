import { Logger } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { setTimeout as delay } from 'node:timers/promises';
import { AppConfig, loadAppConfig } from '../../src/config/app.config';
import { KvStore } from '../../src/infra/kv/kv-store';
import { MemoryKvStore } from '../../src/infra/kv/memory-kv.store';
import { RedisKvStore } from '../../src/infra/kv/redis-kv.store';
import { SEC_WINDOW_MS, SecEdgarClient } from '../../src/providers/sec-edgar/sec-edgar.client';
import { RunningSimulator, startSimulator } from '../../src/simulator/simulator.server';
import { SIMULATOR_SEC_USER_AGENT } from '../../src/simulator/sec/sec.protocol';
import { TEST_REDIS_URL, uniqueKeyPrefix } from '../support/test-env';

const REQUESTS_PER_SECOND = 5;
const CALLS_PER_REPLICA = 15;

/**
 * The SEC budget is one pool for every replica: two clients, each with its own Redis connection to the same
 * key prefix (two replicas of one deployment), together stay under SEC_REQUESTS_PER_SECOND as SEC counts it:
 * per address, per clock second, at the simulator.
 */
describe('SecEdgarClient budget shared by two replicas through Redis', () => {
  let sim: RunningSimulator;
  const prefix = uniqueKeyPrefix();
  const replicaStores = [RedisKvStore.connect(TEST_REDIS_URL, prefix), RedisKvStore.connect(TEST_REDIS_URL, prefix)];
  let config: ConfigService<AppConfig, true>;
  let warn: jest.SpyInstance;

  beforeAll(async () => {
    // SEC's own limit (10/s) at the simulator: the assertion is that the clients kept to their 5.
    sim = await startSimulator({ port: 0, wallets: 20 });
    const env = { ...sim.env, SEC_REQUESTS_PER_SECOND: String(REQUESTS_PER_SECOND), MARKET_UPSTREAM_MAX_RETRIES: '0' };
    config = new ConfigService<AppConfig, true>(loadAppConfig(env) as unknown as Record<string, unknown>);
    warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
  });

  afterAll(async () => {
    warn.mockRestore();
    const [first] = replicaStores;
    await first.client.eval(`for _, k in ipairs(redis.call('KEYS', ARGV[1])) do redis.call('DEL', k) end`, 0, `${prefix}*`);
    await Promise.all(replicaStores.map((kv) => kv.close()));
    await sim.close();
  });

  /** Both replicas' calls at once, from a second's start; the simulator's counters of that burst. */
  async function burst(stores: readonly KvStore[]) {
    const replicas = stores.map((kv) => new SecEdgarClient(config, kv));
    const ciks = sim.protocols.sec.registrants.slice(0, 6).map((registrant) => String(registrant.cik));
    // Drawn once per day and registrant: drawn before the burst, so the simulator answers each call at once.
    await Promise.all(
      ciks.map((cik) => fetch(`${sim.url}/sec/submissions/CIK${cik.padStart(10, '0')}.json`, { headers: { 'user-agent': SIMULATOR_SEC_USER_AGENT } })),
    );
    sim.protocols.sec.resetCounters();
    // Start just after a second begins: a call admitted in one second cannot then reach the simulator in the next.
    await delay(SEC_WINDOW_MS - (Date.now() % SEC_WINDOW_MS) + 10);
    const startedAt = Date.now();
    const calls = replicas.flatMap((client) => Array.from({ length: CALLS_PER_REPLICA }, (_, i) => client.submissions(ciks[i % ciks.length])));
    const results = await Promise.all(calls);
    replicas.forEach((client) => client.onModuleDestroy());
    return { results, elapsedMs: Date.now() - startedAt, counters: { ...sim.protocols.sec.counters } };
  }

  it(`keeps ${2 * CALLS_PER_REPLICA} calls from two replicas at ${REQUESTS_PER_SECOND} a second or fewer, each with the User-Agent`, async () => {
    const { results, elapsedMs, counters } = await burst(replicaStores);

    expect(results.every((submissions) => submissions.recent.length >= 1000)).toBe(true);
    expect(counters.requestsByRoute).toEqual({ submissions: 2 * CALLS_PER_REPLICA });
    expect(counters.peakPerSecond).toBeGreaterThan(0);
    expect(counters.peakPerSecond).toBeLessThanOrEqual(REQUESTS_PER_SECOND);
    expect(counters.rateLimited).toBe(0);
    // Every call declared itself: the simulator answers 403 to any request without a contact User-Agent.
    expect(counters.undeclared).toBe(0);
    // 30 calls at 5 a second span at least six windows, whatever the two replicas' timing.
    expect(elapsedMs).toBeGreaterThanOrEqual(((2 * CALLS_PER_REPLICA) / REQUESTS_PER_SECOND - 1) * SEC_WINDOW_MS);
  });

  it('goes past the limit when each replica keeps its own budget: the shared store is what holds it', async () => {
    const { counters } = await burst([new MemoryKvStore(), new MemoryKvStore()]);
    expect(counters.peakPerSecond).toBeGreaterThan(REQUESTS_PER_SECOND);
  });

  it('counts both replicas in one Redis window per second', async () => {
    const [a, b] = replicaStores.map((kv) => new SecEdgarClient(config, kv));
    await delay(SEC_WINDOW_MS - (Date.now() % SEC_WINDOW_MS) + 10);
    const at = Date.now();
    await Promise.all([a.budget.spend(1), b.budget.spend(1), b.budget.spend(1)]);
    expect(a.budget.windowKey(at)).toBe(`budget:sec-edgar:${Math.floor(at / SEC_WINDOW_MS)}`);
    expect(await replicaStores[0].get(a.budget.windowKey(at))).toBe('3');
  });
});
