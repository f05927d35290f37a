import { Global, Module } from '@nestjs/common';
import { UPSTREAM_CLOCK } from '../../src/providers/kit/upstream-clock';
import { makeAccount } from '../support/factories';
import { expectNoLedgerLines, FailRule, minus, startStocksStack, stocksClient, StocksStack, UPSTREAM_ERROR_BODY } from '../support/stocks-stack';

type Data = Record<string, any>;

const MINUTE_MS = 60_000;
/** Contract 8.8 and the route's documentation: a whole answer is kept 30 minutes, one with a failed section a minute. */
const WHOLE_FRESH_MS = 30 * MINUTE_MS;
const PARTIAL_FRESH_MS = MINUTE_MS;
const EMPTY_FINANCIALS = { incomeStatement: [], balanceSheet: [], cashFlowStatement: [] };
/** Past the per-replica answer cache of fundamentals and company (2 s of wall clock), so a read reaches the shared cache again. */
const ANSWER_CACHE_MS = 2_100;

/** The three Yahoo calls a fundamentals answer is made of, for one symbol. */
const quoteCall = (symbol: string): FailRule => new RegExp(`/v7/finance/quote\\?symbols=${symbol}&`);
const summaryCall = (symbol: string): FailRule => `/v10/finance/quoteSummary/${symbol}?`;
const seriesCall = (symbol: string): FailRule => `/ws/fundamentals-timeseries/v1/finance/timeseries/${symbol}?`;

let clockOffsetMs = 0;

/** What the app's upstream caches read as now: tests move it to age cached answers without waiting. */
@Global()
@Module({ providers: [{ provide: UPSTREAM_CLOCK, useValue: () => Date.now() + clockOffsetMs }], exports: [UPSTREAM_CLOCK] })
class FakeCacheClockModule {}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Moves the caches' clock and lets the per-replica answers expire. */
async function cacheClockAt(offsetMs: number): Promise<void> {
  clockOffsetMs = offsetMs;
  await sleep(ANSWER_CACHE_MS);
}

describe('Stock fundamentals and company when a vendor call fails', () => {
  let stack: StocksStack;
  let client: ReturnType<typeof stocksClient>;

  beforeAll(async () => {
    stack = await startStocksStack({ imports: [FakeCacheClockModule] });
    client = stocksClient(stack.t, (await makeAccount(stack.t, { tier: 'pro' })).key);
  });
  afterEach(() => stack.upstream.heal());
  afterAll(() => stack.close());

  const yahooCallsFor = (symbol: string) => stack.upstream.paths('/yahoo/').filter((path) => path.includes(symbol)).length;

  /** Our words only: no host, port, URL, status or vendor name of the upstream. */
  function expectOurWords(text: string) {
    const { port } = new URL(stack.upstream.url);
    expect(text).not.toContain(stack.upstream.url);
    expect(text).not.toContain(stack.sim.url);
    for (const leak of ['127.0.0.1', `:${port}`, `:${stack.sim.port}`, 'http://', 'simulated failure', 'crumb']) expect(text).not.toContain(leak);
  }

  /** A 200 with one failed section: its `errors` entry is returned, after checking it is the only one, in our words. */
  async function partial(symbol: string, { section, endpoint }: { section: string; endpoint: string }): Promise<Data> {
    const before = await client.balance();
    const res = await client.ok(`/stock/${symbol}/fundamentals`, 1);
    const body = res.body.data;
    expect(body.errors).toEqual([{ section, endpoint, message: expect.any(String) }]);
    expect(body.errors[0].message.length).toBeGreaterThan(0);
    expect(body.errors[0].message).not.toMatch(/yahoo|\/|\d{3}/i);
    expectOurWords(res.text);
    expect(body.source).toMatchObject({ provider: 'yahoo', symbol, freshness: 'fresh' });
    // Billed once, as any success; one more credit for the balance read.
    expect(await client.balance()).toBe(minus(before, 2));
    return body;
  }

  describe('one call failing', () => {
    it('empties the financials when the time series fails, with one errors entry, the other sections full', async () => {
      stack.upstream.fail(seriesCall('MSFT'));
      const body = await partial('MSFT', { section: 'financials', endpoint: 'timeseries' });

      expect(body.financials).toEqual(EMPTY_FINANCIALS);
      expect(body.overview.quote).toMatchObject({ price: expect.any(Number), timestamp: expect.any(String) });
      expect(body.overview.overviewMetrics.length).toBeGreaterThan(0);
      expect(body.overview.analystRatings.length).toBeGreaterThan(0);
      expect(body.asset).toMatchObject({ symbol: 'MSFT', market: 'US' });
      expect(stack.upstream.paths(seriesCall('MSFT')).length).toBeGreaterThan(0);
    });

    it('empties the metrics and ratings when quoteSummary fails, with one errors entry, the quote and financials full', async () => {
      stack.upstream.fail(summaryCall('NVDA'));
      const body = await partial('NVDA', { section: 'overview', endpoint: 'quoteSummary' });

      expect(body.overview.overviewMetrics).toEqual([]);
      expect(body.overview.analystRatings).toEqual([]);
      expect(body.overview.quote).toMatchObject({ price: expect.any(Number), priceUsd: expect.any(Number) });
      for (const statement of Object.values(body.financials)) expect((statement as Data[]).length).toBeGreaterThan(0);
      // The asset block is the catalogue's: the failed profile module takes nothing from it.
      expect(body.asset).toMatchObject({ symbol: 'NVDA', sector: 'Technology' });
    });

    it('answers a null quote when the quote call fails, with one errors entry, metrics, ratings and financials full', async () => {
      stack.upstream.fail(quoteCall('AMZN'));
      const body = await partial('AMZN', { section: 'quote', endpoint: 'quote' });

      expect(body.overview.quote).toBeNull();
      expect(body.overview.overviewMetrics.length).toBeGreaterThan(0);
      // Money metrics still know their currency (quoteSummary's own): their USD value is there.
      expect(body.overview.overviewMetrics.find((m: Data) => m.key === 'marketCap')).toMatchObject({ valueUsd: expect.stringMatching(/^\d+/) });
      expect(body.overview.analystRatings.length).toBeGreaterThan(0);
      for (const statement of Object.values(body.financials)) expect((statement as Data[]).length).toBeGreaterThan(0);
    });
  });

  describe('nothing to serve', () => {
    it('answers 502 MARKET_UPSTREAM_ERROR when all three calls fail and nothing is cached, naming nothing upstream, unbilled', async () => {
      for (const rule of [quoteCall('META'), summaryCall('META'), seriesCall('META')]) stack.upstream.fail(rule);
      const before = await client.balance();

      const res = await client.expectError('/stock/META/fundamentals', 502, UPSTREAM_ERROR_BODY);

      expect(res.body).toEqual(UPSTREAM_ERROR_BODY);
      expectOurWords(res.text);
      for (const rule of [quoteCall('META'), summaryCall('META'), seriesCall('META')]) expect(stack.upstream.paths(rule).length).toBeGreaterThan(0);
      expect(await client.balance()).toBe(minus(before, 1));
      await expectNoLedgerLines(stack.t, [res.headers['x-request-id']]);
    });

    it('answers the company 502 when its one call fails and nothing is cached, unbilled', async () => {
      stack.upstream.fail(summaryCall('NVDA'));
      const before = await client.balance();

      const res = await client.expectError('/stock/NVDA/company', 502, UPSTREAM_ERROR_BODY);

      expect(res.body).toEqual(UPSTREAM_ERROR_BODY);
      expectOurWords(res.text);
      expect(await client.balance()).toBe(minus(before, 1));
      await expectNoLedgerLines(stack.t, [res.headers['x-request-id']]);
    });
  });

  describe('how long answers are kept', () => {
    afterAll(() => {
      clockOffsetMs = 0;
    });

    it('asks a partial answer again after a minute and keeps a whole one for 30 minutes', async () => {
      // MSFT's answer without financials is from the first test; the time series works again.
      let msftCalls = yahooCallsFor('MSFT');
      const cached = (await client.ok('/stock/MSFT/fundamentals', 1)).body.data;
      expect(cached.errors).toHaveLength(1);
      expect(yahooCallsFor('MSFT')).toBe(msftCalls);
      await client.ok('/stock/AAPL/fundamentals', 1);
      const aaplCalls = yahooCallsFor('AAPL');

      await cacheClockAt(PARTIAL_FRESH_MS + 1_000);
      const whole = (await client.ok('/stock/MSFT/fundamentals', 1)).body.data;
      expect(yahooCallsFor('MSFT')).toBeGreaterThan(msftCalls);
      expect(whole.errors).toEqual([]);
      expect(whole.financials.incomeStatement.length).toBeGreaterThan(0);
      await client.ok('/stock/AAPL/fundamentals', 1);
      expect(yahooCallsFor('AAPL')).toBe(aaplCalls);

      // The whole MSFT answer is now kept as long as AAPL's.
      msftCalls = yahooCallsFor('MSFT');
      await cacheClockAt(WHOLE_FRESH_MS - MINUTE_MS);
      await client.ok('/stock/AAPL/fundamentals', 1);
      await client.ok('/stock/MSFT/fundamentals', 1);
      expect(yahooCallsFor('AAPL')).toBe(aaplCalls);
      expect(yahooCallsFor('MSFT')).toBe(msftCalls);

      await cacheClockAt(WHOLE_FRESH_MS + MINUTE_MS);
      await client.ok('/stock/AAPL/fundamentals', 1);
      expect(yahooCallsFor('AAPL')).toBeGreaterThan(aaplCalls);
    });

    it('serves the last whole answer, marked stale, when every call fails past its 30 minutes, and 502 past an hour', async () => {
      // Loaded 35 minutes ago as the cache and the wall clock both see it once the offset is back at 0.
      clockOffsetMs = -35 * MINUTE_MS;
      const loaded = (await client.ok('/stock/GOOGL/fundamentals', 1)).body.data;
      for (const rule of [quoteCall('GOOGL'), summaryCall('GOOGL'), seriesCall('GOOGL')]) stack.upstream.fail(rule);
      await cacheClockAt(0);
      const calls = yahooCallsFor('GOOGL');

      const res = await client.ok('/stock/GOOGL/fundamentals', 1);

      expect(yahooCallsFor('GOOGL')).toBeGreaterThan(calls);
      expect(res.body.data).toEqual({ ...loaded, source: { ...loaded.source, freshness: 'stale' } });
      expect(Number(res.headers.age)).toBeGreaterThanOrEqual(35 * 60 - 5);

      await cacheClockAt(30 * MINUTE_MS);
      const before = await client.balance();
      const gone = await client.expectError('/stock/GOOGL/fundamentals', 502, UPSTREAM_ERROR_BODY);
      expect(gone.body).toEqual(UPSTREAM_ERROR_BODY);
      expect(await client.balance()).toBe(minus(before, 1));
    });
  });
});
