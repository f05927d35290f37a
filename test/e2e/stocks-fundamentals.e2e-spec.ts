import { Decimal } from '../../src/common/decimal/decimal';
import { makeAccount } from '../support/factories';
import { DECIMAL, ISO_MS } from '../support/markets-stack';
import { ASSET_NOT_FOUND, expectNoLedgerLines, minus, startStocksStack, stocksClient, StocksStack } from '../support/stocks-stack';

type Data = Record<string, any>;

const DAY = /^\d{4}-\d\d-\d\d$/;
const COUNT = /^\d+$/;
const ASSET_KEYS = ['id', 'symbol', 'stockCode', 'displaySymbol', 'name', 'market', 'currency', 'sector', 'industry', 'country'];
const SOURCE_KEYS = ['provider', 'symbol', 'updatedAt', 'freshness'];
const QUOTE_NUMBERS = ['price', 'priceUsd', 'change', 'changePercent', 'high', 'low'];
/** The metrics the issue names; the route documents a few more. */
const NAMED_METRICS = [
  'marketCap',
  'trailingPE',
  'forwardPE',
  'trailingEps',
  'dividendYield',
  'beta',
  'fiftyTwoWeekHigh',
  'fiftyTwoWeekLow',
  'sharesOutstanding',
  'profitMargins',
  'grossMargins',
  'operatingMargins',
  'totalRevenue',
];
/** Figures in money, converted to USD; the others (ratios, multiples, counts) have an empty valueUsd. */
const MONEY_METRICS = [
  'marketCap',
  'enterpriseValue',
  'trailingEps',
  'fiftyTwoWeekHigh',
  'fiftyTwoWeekLow',
  'totalRevenue',
  'totalCash',
  'totalDebt',
  'freeCashflow',
];
const RATING_COUNTS = ['Strong Buy', 'Buy', 'Hold', 'Sell', 'Strong Sell'];
const STATEMENTS = ['incomeStatement', 'balanceSheet', 'cashFlowStatement'];
const STATEMENT_KEYS = ['periodEnd', 'fiscalPeriod', 'periodType', 'currency', 'lineItems'];
const COMPANY_KEYS: Record<string, string[]> = {
  executives: ['name', 'role', 'age', 'since', 'compensation', 'compensationUsd'],
  shareholders: ['name', 'stake', 'change', 'reportedAt'],
  funds: ['name', 'stake', 'change', 'weight'],
  insiderTransactions: ['name', 'transactionDate', 'filingDate', 'transactionCode', 'shares', 'change', 'price', 'value'],
};

const sorted = (keys: string[]) => [...keys].sort();
/** `actual` is `expected` rounded to `places` decimals (the route rounds USD figures). */
const expectNear = (actual: string | number, expected: InstanceType<typeof Decimal>, places: number) =>
  expect(new Decimal(actual).minus(expected).abs().toNumber()).toBeLessThanOrEqual(10 ** -places / 2 + 1e-12);

function expectStockAsset(asset: Data, { symbol, market, currency }: { symbol: string; market: string; currency: string }) {
  expect(sorted(Object.keys(asset))).toEqual(sorted(ASSET_KEYS));
  expect(Number.isInteger(asset.id)).toBe(true);
  for (const key of ASSET_KEYS.slice(1)) expect({ [key]: typeof asset[key] }).toEqual({ [key]: 'string' });
  expect(asset).toMatchObject({ symbol, market, currency, stockCode: `${symbol}-${market}` });
  expect(asset.name.length).toBeGreaterThan(0);
}

function expectSource(source: Data, symbol: string) {
  expect(sorted(Object.keys(source))).toEqual(sorted(SOURCE_KEYS));
  expect(source).toEqual({ provider: 'yahoo', symbol, updatedAt: expect.stringMatching(ISO_MS), freshness: 'fresh' });
}

function expectStatement(entry: Data, currency: string) {
  expect(sorted(Object.keys(entry))).toEqual(sorted(STATEMENT_KEYS));
  expect(entry.periodEnd).toMatch(DAY);
  expect(['annual', 'quarterly']).toContain(entry.periodType);
  expect(entry.fiscalPeriod).toMatch(entry.periodType === 'annual' ? /^FY\d{4}$/ : /^Q[1-4] FY\d{4}$/);
  expect(entry.currency).toBe(currency);
  expect(Object.keys(entry.lineItems).length).toBeGreaterThan(0);
  for (const [line, value] of Object.entries(entry.lineItems)) expect({ [line]: value }).toEqual({ [line]: expect.stringMatching(DECIMAL) });
}

describe('GET /stock/{symbol}/fundamentals and /company', () => {
  let stack: StocksStack;
  let client: ReturnType<typeof stocksClient>;
  let hkdPerUsd: string;

  beforeAll(async () => {
    stack = await startStocksStack();
    client = stocksClient(stack.t, (await makeAccount(stack.t, { tier: 'pro' })).key);
    [{ rate: hkdPerUsd }] = await stack.t.db.query(
      `SELECT q.price::text AS rate FROM assets a JOIN asset_quotes q ON q.asset_id = a.id WHERE a.yahoo_symbol = 'HKD=X'`,
    );
  });
  afterAll(() => stack.close());

  describe('fundamentals', () => {
    let body: Data;

    beforeAll(async () => {
      body = (await client.ok('/stock/AAPL/fundamentals', 1)).body.data;
    });

    it('answers the asset block, the source block, the overview, the financials and no errors', async () => {
      expect(sorted(Object.keys(body))).toEqual(sorted(['asset', 'source', 'overview', 'financials', 'errors']));
      expectStockAsset(body.asset, { symbol: 'AAPL', market: 'US', currency: 'USD' });
      const [row] = await stack.t.db.query(`SELECT id, name, sector, industry FROM assets WHERE yahoo_symbol = 'AAPL'`);
      expect(body.asset).toMatchObject({ id: row.id, name: row.name, sector: row.sector, industry: row.industry, displaySymbol: 'AAPL' });
      expect(body.asset.country).toBe('United States');
      expectSource(body.source, 'AAPL');
      expect(body.errors).toEqual([]);
    });

    it('gives the quote as numbers with its timestamp, USD at par for a US stock', () => {
      const { quote } = body.overview;
      expect(sorted(Object.keys(quote))).toEqual(sorted([...QUOTE_NUMBERS, 'timestamp']));
      for (const field of QUOTE_NUMBERS) expect({ [field]: typeof quote[field] }).toEqual({ [field]: 'number' });
      expect(quote.timestamp).toMatch(ISO_MS);
      expect(quote.priceUsd).toBe(quote.price);
      expect(quote.low).toBeLessThanOrEqual(quote.high);
    });

    it('gives the overview metrics as strings, money metrics with valueUsd and the others with an empty one', () => {
      const metrics: Data[] = body.overview.overviewMetrics;
      const keys = metrics.map((m) => m.key);
      expect(keys).toEqual(expect.arrayContaining(NAMED_METRICS));
      expect(new Set(keys).size).toBe(keys.length);
      for (const metric of metrics) {
        expect(sorted(Object.keys(metric))).toEqual(sorted(['key', 'label', 'value', 'valueUsd']));
        expect(metric.label.length).toBeGreaterThan(0);
        expect(metric.value).toMatch(DECIMAL);
        // USD at par: the USD value is the value itself.
        expect({ key: metric.key, valueUsd: metric.valueUsd }).toEqual({ key: metric.key, valueUsd: MONEY_METRICS.includes(metric.key) ? metric.value : '' });
      }
    });

    it("gives the analysts' counts, consensus and target price as strings", () => {
      const ratings: Data[] = body.overview.analystRatings;
      expect(ratings.map((r) => r.label)).toEqual(expect.arrayContaining([...RATING_COUNTS, 'Consensus', 'Target Price']));
      for (const rating of ratings) {
        expect(sorted(Object.keys(rating))).toEqual(['label', 'value']);
        expect(typeof rating.value).toBe('string');
        if (RATING_COUNTS.includes(rating.label)) expect(rating.value).toMatch(COUNT);
      }
      expect(ratings.find((r) => r.label === 'Target Price')?.value).toMatch(DECIMAL);
    });

    it('fills the three statements with annual and quarterly entries, newest first, line items as decimal strings', () => {
      for (const name of STATEMENTS) {
        const entries: Data[] = body.financials[name];
        expect({ name, entries: entries.length > 0 }).toEqual({ name, entries: true });
        for (const entry of entries) expectStatement(entry, 'USD');
        expect(new Set(entries.map((e) => e.periodType))).toEqual(new Set(['annual', 'quarterly']));
        // Newest period end first; at the same end the fiscal year before its last quarter.
        entries.slice(1).forEach((entry, i) => {
          const before = entries[i];
          expect(entry.periodEnd <= before.periodEnd).toBe(true);
          if (entry.periodEnd === before.periodEnd) expect([before.periodType, entry.periodType]).toEqual(['annual', 'quarterly']);
        });
      }
      expect(Object.keys(body.financials.incomeStatement[0].lineItems)).toEqual(expect.arrayContaining(['totalRevenue', 'netIncome']));
      expect(Object.keys(body.financials.balanceSheet[0].lineItems)).toEqual(expect.arrayContaining(['totalAssets', 'stockholdersEquity']));
      expect(Object.keys(body.financials.cashFlowStatement[0].lineItems)).toEqual(expect.arrayContaining(['operatingCashFlow', 'freeCashFlow']));
    });

    it('answers AAPL-US and aapl with the same body from the same cached read, billed 1 each, its age in Age', async () => {
      const yahooCalls = stack.upstream.paths('/yahoo/').length;
      for (const symbol of ['AAPL-US', 'aapl', 'aapl-us']) {
        const res = await client.ok(`/stock/${symbol}/fundamentals`, 1);
        expect({ symbol, body: res.body.data }).toEqual({ symbol, body });
        expect(res.headers.age).toMatch(/^\d+$/);
      }
      expect(stack.upstream.paths('/yahoo/')).toHaveLength(yahooCalls);
    });
  });

  describe('company', () => {
    let body: Data;

    beforeAll(async () => {
      body = (await client.ok('/stock/AAPL/company', 1)).body.data;
    });

    it('answers the asset and source blocks, four non-empty lists of all-string rows and no errors', () => {
      expect(sorted(Object.keys(body))).toEqual(sorted(['asset', 'source', 'company', 'errors']));
      expectStockAsset(body.asset, { symbol: 'AAPL', market: 'US', currency: 'USD' });
      expectSource(body.source, 'AAPL');
      expect(body.errors).toEqual([]);
      expect(sorted(Object.keys(body.company))).toEqual(sorted(Object.keys(COMPANY_KEYS)));
      for (const [list, keys] of Object.entries(COMPANY_KEYS)) {
        expect({ list, rows: body.company[list].length > 0 }).toEqual({ list, rows: true });
        for (const row of body.company[list]) {
          expect(sorted(Object.keys(row))).toEqual(sorted(keys));
          for (const key of keys) expect({ list, key, type: typeof row[key] }).toEqual({ list, key, type: 'string' });
        }
      }
    });

    it('writes days as YYYY-MM-DD and figures as decimals, empty where the vendor has none', () => {
      const { executives, shareholders, funds, insiderTransactions } = body.company;
      const decimalOrEmpty = expect.stringMatching(/^(-?\d+(\.\d+)?)?$/);
      for (const e of executives)
        expect(e).toMatchObject({ compensation: decimalOrEmpty, compensationUsd: e.compensation, age: expect.stringMatching(/^(\d+)?$/) });
      for (const h of [...shareholders, ...funds]) expect(h).toMatchObject({ stake: expect.stringMatching(DECIMAL), change: decimalOrEmpty });
      for (const h of shareholders) expect(h.reportedAt).toMatch(/^(\d{4}-\d\d-\d\d)?$/);
      for (const t of insiderTransactions) {
        expect(t.transactionDate).toMatch(DAY);
        expect(t.filingDate).toMatch(/^(\d{4}-\d\d-\d\d)?$/);
        expect(t).toMatchObject({ shares: decimalOrEmpty, change: decimalOrEmpty, price: decimalOrEmpty, value: decimalOrEmpty });
      }
    });

    it('lists holders largest stake first and insider transactions newest first', () => {
      const { shareholders, funds, insiderTransactions } = body.company;
      for (const holders of [shareholders, funds]) {
        holders.slice(1).forEach((h: Data, i: number) => expect(new Decimal(h.stake).lte(holders[i].stake)).toBe(true));
      }
      insiderTransactions.slice(1).forEach((t: Data, i: number) => expect(t.transactionDate <= insiderTransactions[i].transactionDate).toBe(true));
    });

    it('answers AAPL-US and aapl with the same body, billed 1 each, its age in Age', async () => {
      for (const symbol of ['AAPL-US', 'aapl']) {
        const res = await client.ok(`/stock/${symbol}/company`, 1);
        expect({ symbol, body: res.body.data }).toEqual({ symbol, body });
        expect(res.headers.age).toMatch(/^\d+$/);
      }
    });
  });

  describe('a Hong Kong stock', () => {
    it('answers 0700 and 0700-HK identically, in HKD, the quote and money metrics converted at the catalogue HKD quote', async () => {
      const bare = (await client.ok('/stock/0700/fundamentals', 1)).body.data;
      const coded = (await client.ok('/stock/0700-HK/fundamentals', 1)).body.data;
      expect(coded).toEqual(bare);
      expectStockAsset(bare.asset, { symbol: '0700', market: 'HK', currency: 'HKD' });
      expect(bare.asset).toMatchObject({ displaySymbol: '0700.HK', country: 'Hong Kong' });
      expectSource(bare.source, '0700.HK');

      const { quote, overviewMetrics } = bare.overview;
      expectNear(quote.priceUsd, new Decimal(quote.price).div(hkdPerUsd), 6);
      expect(quote.priceUsd).toBeLessThan(quote.price);
      const marketCap = overviewMetrics.find((m: Data) => m.key === 'marketCap');
      expectNear(marketCap.valueUsd, new Decimal(marketCap.value).div(hkdPerUsd), 2);
      for (const name of STATEMENTS) for (const entry of bare.financials[name]) expectStatement(entry, 'HKD');
    });

    it("answers the company of 0700 and 0700-HK identically, executives' pay converted to USD", async () => {
      const bare = (await client.ok('/stock/0700/company', 1)).body.data;
      const coded = (await client.ok('/stock/0700-HK/company', 1)).body.data;
      expect(coded).toEqual(bare);
      const paid = bare.company.executives.filter((e: Data) => e.compensation !== '');
      expect(paid.length).toBeGreaterThan(0);
      for (const e of paid) expectNear(e.compensationUsd, new Decimal(e.compensation).div(hkdPerUsd), 2);
    });
  });

  it('converts a Tokyo listing at the catalogue JPY quote', async () => {
    const [{ rate }] = await stack.t.db.query(
      `SELECT q.price::text AS rate FROM assets a JOIN asset_quotes q ON q.asset_id = a.id WHERE a.yahoo_symbol = 'JPY=X'`,
    );
    const body = (await client.ok('/stock/7203-JP/fundamentals', 1)).body.data;
    expectStockAsset(body.asset, { symbol: '7203', market: 'JP', currency: 'JPY' });
    expect(body.asset).toMatchObject({ displaySymbol: '7203.T', country: 'Japan' });
    expectNear(body.overview.quote.priceUsd, new Decimal(body.overview.quote.price).div(rate), 6);
    expect(body.errors).toEqual([]);
  });

  describe('a symbol that is not a stock', () => {
    it.each([
      ['BTC', 'a crypto asset'],
      ['SPY', 'an ETF'],
      ['NOSUCHSTOCK', 'an unknown symbol'],
      ['AAPL-HK', 'a stock code of another market'],
    ])('answers %s (%s) 404 MARKET_ASSET_NOT_FOUND naming the symbol, unbilled, without asking the vendor', async (symbol) => {
      const before = await client.balance();
      const yahooCalls = stack.upstream.paths('/yahoo/').length;
      const requestIds: unknown[] = [];
      for (const route of ['fundamentals', 'company']) {
        const res = await client.expectError(`/stock/${symbol}/${route}`, 404, { code: ASSET_NOT_FOUND });
        expect(res.body.msg).toBe(`symbol: no asset matches "${symbol}"`);
        requestIds.push(res.headers['x-request-id']);
      }
      expect(stack.upstream.paths('/yahoo/')).toHaveLength(yahooCalls);
      // One credit for the balance read itself.
      expect(await client.balance()).toBe(minus(before, 1));
      await expectNoLedgerLines(stack.t, requestIds);
    });
  });
});
