import { ConfigService } from '@nestjs/config';
import { AppConfig, loadAppConfig } from '../../src/config/app.config';
import { MemoryKvStore } from '../../src/infra/kv/memory-kv.store';
import { YahooEquities } from '../../src/modules/stocks/providers/yahoo-equities';
import { YahooFinanceClient } from '../../src/providers/yahoo/yahoo-finance.client';
import { RunningSimulator, startSimulator } from '../../src/simulator/simulator.server';
import { quoteSummary } from '../../src/simulator/yahoo/yahoo-quote-summary';
import { timeseries } from '../../src/simulator/yahoo/yahoo-timeseries';
import { shapeDiff } from '../support/json-shape';
import { vendorFixture } from '../support/vendor-fixtures';

const SEED = 11;
/** Wednesday 2026-09-23 15:00:00.500 UTC: US markets open, Hong Kong closed. */
const T0 = Date.UTC(2026, 8, 23, 15, 0, 0, 500);
const COMPANY_MODULES = ['assetProfile', 'institutionOwnership', 'fundOwnership', 'insiderTransactions'];
const VALUATION_MODULES = ['price', 'summaryDetail', 'defaultKeyStatistics', 'financialData', 'recommendationTrend'];
const ALL_MODULES = [...VALUATION_MODULES, ...COMPANY_MODULES];

async function get(url: string, headers: Record<string, string> = {}): Promise<{ status: number; json: any }> {
  const res = await fetch(url, { headers });
  return { status: res.status, json: await res.json().catch(() => undefined) };
}

/**
 * The fundamentals endpoints of the Yahoo simulator: their bodies have the recorded bodies' shapes, the real
 * client reads them over the wire (cookie and crumb included), and YahooEquities turns them into complete
 * fundamentals and company profiles for the named stocks of each market.
 */
describe('Yahoo fundamentals: simulator, client and provider', () => {
  let sim: RunningSimulator;
  let client: YahooFinanceClient;
  const kv = new MemoryKvStore();
  const yq = (path: string, headers: Record<string, string> = {}) => get(`${sim.env.YAHOO_QUERY_URL}${path}`, headers);

  async function handshake(): Promise<{ cookie: string; crumb: string }> {
    const page = await fetch(sim.env.YAHOO_COOKIE_URL);
    const cookie = (page.headers.get('set-cookie') ?? '').split(';')[0];
    const crumb = await (await fetch(`${sim.env.YAHOO_QUERY_URL}/v1/test/getcrumb`, { headers: { cookie } })).text();
    return { cookie, crumb };
  }

  beforeAll(async () => {
    sim = await startSimulator({ port: 0, wallets: 20, seed: SEED, clock: () => T0, yahooCallsPerMinute: 0 });
    const config = new ConfigService<AppConfig, true>(loadAppConfig({ ...sim.env, COINGECKO_API_KEY: 'sim-demo-key' }) as unknown as Record<string, unknown>);
    client = new YahooFinanceClient(config, kv);
  });
  afterAll(async () => {
    client.onModuleDestroy();
    await kv.close();
    await sim.close();
  });

  describe('wire shapes match the recorded bodies', () => {
    it.each(ALL_MODULES)('quoteSummary %s', async (module) => {
      const { cookie, crumb } = await handshake();
      const res = await yq(`/v10/finance/quoteSummary/AAPL?modules=${module}&formatted=false&crumb=${crumb}`, { cookie });
      expect(res.status).toBe(200);
      expect(shapeDiff(res.json, vendorFixture('yahoo', `quoteSummary.AAPL.${module}.json`))).toEqual([]);
    });

    it('the time series: one entry per asked type, meta only where there are no figures', async () => {
      const recorded = vendorFixture('yahoo', 'fundamentalsTimeSeries.AAPL.financials-annual.json');
      const types: string[] = recorded.timeseries.result.map((entry: any) => entry.meta.type[0]);
      const res = await yq(
        `/ws/fundamentals-timeseries/v1/finance/timeseries/AAPL?type=${types.join(',')}&period1=1577836800&period2=${Math.floor(T0 / 1000)}`,
      );
      expect(res.status).toBe(200);
      const entry = (body: any, type: string) => body.timeseries.result.find((item: any) => item.meta.type[0] === type);
      expect(res.json.timeseries.result.map((item: any) => item.meta.type[0])).toEqual(types);
      expect(shapeDiff(entry(res.json, 'annualTotalRevenue'), entry(recorded, 'annualTotalRevenue'))).toEqual([]);
      expect(shapeDiff(entry(res.json, 'annualDilutedEPS'), entry(recorded, 'annualDilutedEPS'))).toEqual([]);
      expect(entry(res.json, 'annualGainOnSaleOfSecurity')).toEqual(entry(recorded, 'annualGainOnSaleOfSecurity'));
      expect(
        shapeDiff({ ...res.json, timeseries: { ...res.json.timeseries, result: [] } }, { ...recorded, timeseries: { ...recorded.timeseries, result: [] } }),
      ).toEqual([]);
    });

    it('refuses quoteSummary without the crumb, as the quote endpoint does', async () => {
      expect((await yq('/v10/finance/quoteSummary/AAPL?modules=price')).status).toBe(401);
    });

    it('answers an unknown symbol with Yahoo’s 404 body', async () => {
      const { cookie, crumb } = await handshake();
      const res = await yq(`/v10/finance/quoteSummary/NOPE?modules=price&crumb=${crumb}`, { cookie });
      expect(res).toEqual({
        status: 404,
        json: { quoteSummary: { result: null, error: { code: 'Not Found', description: 'Quote not found for symbol: NOPE' } } },
      });
    });

    it('gives a fund its price, summary, statistics and profile, and a 404 for accounts alone', async () => {
      const { cookie, crumb } = await handshake();
      const fund = await yq(`/v10/finance/quoteSummary/QQQ?modules=${ALL_MODULES.join(',')}&crumb=${crumb}`, { cookie });
      expect(Object.keys(fund.json.quoteSummary.result[0])).toEqual(['price', 'summaryDetail', 'defaultKeyStatistics', 'assetProfile']);
      expect(fund.json.quoteSummary.result[0].assetProfile.companyOfficers).toEqual([]);
      const accounts = await yq(`/v10/finance/quoteSummary/QQQ?modules=financialData&crumb=${crumb}`, { cookie });
      expect(accounts.status).toBe(404);
      expect(accounts.json.quoteSummary.error.description).toContain('No fundamentals data found');
    });
  });

  it('serves every equity of the world with all modules and statements, and funds their summary', () => {
    const book = sim.world.markets;
    const types = { types: ['annualTotalRevenue', 'quarterlyNetIncome', 'annualTotalAssets', 'quarterlyFreeCashFlow'], period1: null, period2: null };
    for (const listing of book.listings.filter((item) => item.type === 'EQUITY' || item.type === 'ETF')) {
      const reply = quoteSummary(book, listing.symbol, ALL_MODULES.join(','), T0) as { status: number; body: any };
      const series = (timeseries(book, listing.symbol, types, T0) as any).timeseries.result;
      const modules = Object.keys(reply.body.quoteSummary.result[0]);
      if (listing.type === 'ETF') {
        expect({ symbol: listing.symbol, modules }).toEqual({
          symbol: listing.symbol,
          modules: ['price', 'summaryDetail', 'defaultKeyStatistics', 'assetProfile'],
        });
        expect(series.filter((entry: any) => 'timestamp' in entry)).toEqual([]);
        continue;
      }
      expect({ symbol: listing.symbol, modules }).toEqual({ symbol: listing.symbol, modules: ALL_MODULES });
      expect(series.map((entry: any) => entry[entry.meta.type[0]]?.length)).toEqual([4, 5, 4, 5]);
    }
  });

  it('reads both endpoints through the client for AAPL and 0700.HK', async () => {
    for (const symbol of ['AAPL', '0700.HK']) {
      const summary = await client.quoteSummary({ symbol, modules: ['summaryDetail', 'financialData', 'fundOwnership'] });
      expect(summary.summaryDetail?.currency).toBe(symbol === 'AAPL' ? 'USD' : 'HKD');
      expect(summary.financialData?.totalRevenue).toMatch(/^\d+$/);
      expect(summary.fundOwnership?.holders).toHaveLength(10);
      const series = await client.fundamentalsTimeSeries({
        symbol,
        types: ['annualNetIncome', 'quarterlyNetIncome'],
        period1: new Date(T0 - 5 * 365 * 86_400_000),
        period2: new Date(T0),
      });
      expect(series.map((entry) => entry.points.length)).toEqual([4, 5]);
    }
  });

  it.each(['AAPL', '0700.HK'])('gives %s fundamentals: quote, metrics, ratings and three statements with line items', async (symbol) => {
    const sut = new YahooEquities(client);
    const fundamentals = await sut.getFundamentals({ sourceSymbol: symbol });

    expect(fundamentals.failures).toEqual([]);
    expect(fundamentals.quote).toMatchObject({ sourceSymbol: symbol, currency: symbol === 'AAPL' ? 'USD' : 'HKD' });
    expect(fundamentals.quote?.sector).toBeTruthy();
    expect(fundamentals.metrics.map((metric) => metric.key)).toEqual(expect.arrayContaining(['marketCap', 'trailingPE', 'totalRevenue', 'grossMargins']));
    expect(fundamentals.metrics.every((metric) => /^-?\d+(\.\d+)?$/.test(metric.value))).toBe(true);
    expect(fundamentals.analystRatings?.counts).not.toBeNull();
    expect(fundamentals.analystRatings?.consensus).toMatch(/buy|hold|underperform|sell/);
    for (const statement of [fundamentals.incomeStatement, fundamentals.balanceSheet, fundamentals.cashFlowStatement]) {
      expect(statement.filter((entry) => entry.periodType === 'annual')).toHaveLength(4);
      expect(statement.filter((entry) => entry.periodType === 'quarterly')).toHaveLength(5);
      expect(Object.keys(statement[0].lineItems).length).toBeGreaterThan(4);
    }
    expect(fundamentals.incomeStatement.find((entry) => entry.periodType === 'annual')?.fiscalPeriod).toBe('FY2025');
  });

  it.each(['AAPL', '0700.HK'])('gives %s a company profile with every section', async (symbol) => {
    const company = await new YahooEquities(client).getCompany({ sourceSymbol: symbol });
    expect(company.executives.length).toBeGreaterThanOrEqual(6);
    expect(company.executives[0]).toMatchObject({ role: 'Chief Executive Officer & Director', since: null, currency: symbol === 'AAPL' ? 'USD' : 'HKD' });
    expect(company.shareholders).toHaveLength(10);
    expect(company.funds).toHaveLength(10);
    expect(company.insiderTransactions.length).toBeGreaterThanOrEqual(10);
    expect(company.insiderTransactions.some((trade) => trade.change?.startsWith('-') && trade.price !== null)).toBe(true);
  });

  it('lists the accounts call as failed for an unknown symbol, the other calls having answered', async () => {
    const fundamentals = await new YahooEquities(client).getFundamentals({ sourceSymbol: 'NOPE' });
    expect(fundamentals.failures).toEqual([{ section: 'overview', endpoint: 'quoteSummary', message: 'not found upstream' }]);
    expect(fundamentals).toMatchObject({ quote: null, metrics: [], incomeStatement: [] });
  });

  it('gives the same bodies for the same seed and instant', async () => {
    const twin = await startSimulator({ port: 0, wallets: 20, seed: SEED, clock: () => T0 });
    try {
      for (const symbol of ['AAPL', '9988.HK', '005930.KS']) {
        expect(quoteSummary(twin.world.markets, symbol, ALL_MODULES.join(','), T0)).toEqual(quoteSummary(sim.world.markets, symbol, ALL_MODULES.join(','), T0));
      }
    } finally {
      await twin.close();
    }
  });
});
