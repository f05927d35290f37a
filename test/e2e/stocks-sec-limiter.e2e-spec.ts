import { SEC_WINDOW_MS } from '../../src/providers/sec-edgar/sec-edgar.client';
import { createTestApp, TestApp } from '../support/create-test-app';
import { makeAccount } from '../support/factories';
import { get } from '../support/http';
import { startStocksStack, StocksStack } from '../support/stocks-stack';
import { testConfig } from '../support/test-env';

/** Below SEC's 10 a second, so the simulator never refuses: only the shared budget keeps the apps under it. */
const REQUESTS_PER_SECOND = 3;
/** Uncached listings each app asks at once: four times the per-second budget between the two. */
const LISTINGS_PER_APP = 6;
const DAY_MS = 86_400_000;

const day = (at: number) => new Date(at).toISOString().slice(0, 10);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Just after the top of the next wall-clock second, where the budget's next window opens. */
async function startOfNextSecond(): Promise<void> {
  await sleep(SEC_WINDOW_MS - (Date.now() % SEC_WINDOW_MS) + 10);
}

describe('The SEC request budget across two app instances', () => {
  let stack: StocksStack;
  let twin: TestApp;
  let key: string;
  let nextRange = 0;

  beforeAll(async () => {
    stack = await startStocksStack({ env: { SEC_REQUESTS_PER_SECOND: String(REQUESTS_PER_SECOND) } });
    // The same settings, so the same KV prefix: one budget, one cache, as two replicas of one deployment.
    twin = await createTestApp(stack.config);
    ({ key } = await makeAccount(stack.t, { tier: 'pro' }));
  });
  afterAll(async () => {
    await twin?.close();
    await stack?.close();
  });

  /** A filing-date range inside the last year no request asked yet: a listing the 30-minute cache cannot answer, one EDGAR read. */
  function uncachedRange(): string {
    const k = nextRange++;
    const to = Date.now() - k * DAY_MS;
    return `from=${day(to - (60 + k) * DAY_MS)}&to=${day(to)}`;
  }

  /** Each app asks `count` uncached listings at once; returns how many EDGAR requests the proxy saw in each wall-clock second. */
  async function burst(apps: TestApp[], count: number): Promise<number[]> {
    // Each app reads the ticker map once first, so the burst is submissions reads only.
    for (const app of apps) expect((await get(app, `/stock/AAPL/sec-filings?${uncachedRange()}`, key)).status).toBe(200);
    await startOfNextSecond();
    const from = stack.upstream.hits.length;
    const started = Date.now();
    const answers = await Promise.all(apps.flatMap((app) => Array.from({ length: count }, () => get(app, `/stock/AAPL/sec-filings?${uncachedRange()}`, key))));
    expect(answers.map((res) => res.status)).toEqual(answers.map(() => 200));
    const seen = stack.upstream.hits.slice(from).filter((hit) => hit.path.startsWith('/sec/'));
    expect(seen.length).toBe(apps.length * count);
    const perSecond = new Map<number, number>();
    for (const { at } of seen) perSecond.set(Math.floor(at / SEC_WINDOW_MS), (perSecond.get(Math.floor(at / SEC_WINDOW_MS)) ?? 0) + 1);
    expect(Math.min(...perSecond.keys())).toBe(Math.floor(started / SEC_WINDOW_MS));
    return [...perSecond.values()];
  }

  it(`keeps two instances together at ${REQUESTS_PER_SECOND} EDGAR requests a second`, async () => {
    const perSecond = await burst([stack.t, twin], LISTINGS_PER_APP);

    expect(Math.max(...perSecond)).toBeLessThanOrEqual(REQUESTS_PER_SECOND);
    // The budget is spent, not just respected: 12 reads take at least four windows, the first one full.
    expect(perSecond.length).toBeGreaterThanOrEqual(Math.ceil((2 * LISTINGS_PER_APP) / REQUESTS_PER_SECOND));
    expect(perSecond[0]).toBe(REQUESTS_PER_SECOND);
    expect(stack.sim.protocols.sec.counters.rateLimited).toBe(0);
  });

  it('lets two instances with budgets of their own (another KV prefix) go past it: what the shared budget prevents', async () => {
    const loner = await createTestApp(testConfig(stack.env));
    try {
      const perSecond = await burst([stack.t, loner], LISTINGS_PER_APP);

      expect(Math.max(...perSecond)).toBeGreaterThan(REQUESTS_PER_SECOND);
    } finally {
      await loner.close();
    }
  });
});
