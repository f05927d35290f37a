import { createTestApp, TestApp } from '../support/create-test-app';
import { makeAccount } from '../support/factories';
import { expectNoLedgerLines, minus, startStocksStack, stocksClient, StocksStack } from '../support/stocks-stack';
import { testConfig } from '../support/test-env';

const disabled = (kind: string) => ({ code: 'MARKET_DATA_DISABLED', msg: `${kind}: disabled or not configured`, data: null });

describe('Stocks with a vendor switched off', () => {
  let stack: StocksStack;
  /** Apps on the same simulator, database and catalogue, one vendor set to none each (and a KV prefix of their own: nothing cached). */
  let tradfiOff: TestApp;
  let filingsOff: TestApp;
  let cryptoOff: TestApp;

  beforeAll(async () => {
    stack = await startStocksStack();
    [tradfiOff, filingsOff, cryptoOff] = await Promise.all(
      ['MARKET_DATA_TRADFI_VENDOR', 'STOCK_FILINGS_VENDOR', 'MARKET_DATA_CRYPTO_VENDOR'].map((name) =>
        createTestApp(testConfig({ ...stack.env, [name]: 'none' })),
      ),
    );
  });
  afterAll(async () => {
    await Promise.all([tradfiOff?.close(), filingsOff?.close(), cryptoOff?.close()]);
    await stack?.close();
  });

  /** Each path answered 503 with `body`, unbilled, without a vendor call; the balance drops by the one credit of its own read. */
  async function expectDisabled(t: TestApp, paths: string[], body: ReturnType<typeof disabled>) {
    const client = stocksClient(t, (await makeAccount(t, { tier: 'pro' })).key);
    const before = await client.balance();
    const calls = stack.upstream.hits.length;
    const requestIds: unknown[] = [];
    for (const path of paths) {
      const res = await client.expectError(path, 503, body);
      expect({ path, body: res.body }).toEqual({ path, body });
      requestIds.push(res.headers['x-request-id']);
    }
    expect(stack.upstream.hits.length).toBe(calls);
    expect(await client.balance()).toBe(minus(before, 1));
    await expectNoLedgerLines(t, requestIds);
    return client;
  }

  it('answers fundamentals and company 503 MARKET_DATA_DISABLED without the tradfi vendor, the heatmap, filings and RWAs still 200', async () => {
    const client = await expectDisabled(
      tradfiOff,
      ['/stock/AAPL/fundamentals', '/stock/AAPL/company', '/stock/0700-HK/fundamentals', '/stock/0700/company'],
      disabled('equities data'),
    );

    const overview = (await client.ok('/stock/overview?market=US', 1)).body.data;
    expect(overview.categories.length).toBeGreaterThan(0);
    expect((await client.ok('/stock/AAPL/sec-filings?limit=3', 2)).body.data.count).toBe(3);
    expect((await client.ok('/rwa', 1)).body.data.items.length).toBeGreaterThan(0);
  });

  it('answers a symbol that is not a stock 404 before the disabled vendor matters', async () => {
    const client = stocksClient(tradfiOff, (await makeAccount(tradfiOff, { tier: 'pro' })).key);
    await client.expectError('/stock/BTC/fundamentals', 404, { code: 'MARKET_ASSET_NOT_FOUND' });
  });

  it('answers sec-filings 503 MARKET_DATA_DISABLED for any stock without the filings vendor, fundamentals still 200', async () => {
    const client = await expectDisabled(
      filingsOff,
      ['/stock/AAPL/sec-filings', '/stock/MSFT/sec-filings?forms=10-K&limit=5', '/stock/0700-HK/sec-filings'],
      disabled('filings'),
    );

    expect((await client.ok('/stock/AAPL/fundamentals', 1)).body.data.errors).toEqual([]);
  });

  it('answers /rwa 503 MARKET_DATA_DISABLED without the crypto vendor, stocks still 200', async () => {
    const client = await expectDisabled(cryptoOff, ['/rwa', '/rwa?type=STOCK&sort=tokenMcap&order=asc'], disabled('rwa data'));

    expect((await client.ok('/stock/AAPL/company', 1)).body.data.company.executives.length).toBeGreaterThan(0);
    expect((await client.ok('/stock/AAPL/sec-filings?limit=2', 2)).body.data.count).toBe(2);
  });
});
