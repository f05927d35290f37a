import { ProviderDisabledError } from '../../../providers/kit/provider-disabled.error';
import { UpstreamError } from '../../../providers/kit/upstream.error';
import { YAHOO_QUOTE_BATCH, YahooFinanceClient } from '../../../providers/yahoo/yahoo-finance.client';
import { parseQuoteSummary, YahooQuoteSummaryModule } from '../../../providers/yahoo/yahoo-quote-summary.schema';
import { parseQuoteResponse } from '../../../providers/yahoo/yahoo-quote.schema';
import { parseTimeseries } from '../../../providers/yahoo/yahoo-timeseries.schema';
import { vendorFixture } from '../../../../test/support/vendor-fixtures';
import { EquitiesUnsupportedError, YahooEquities } from './yahoo-equities';

const fixture = (name: string): any => vendorFixture('yahoo', name);
const quotes = (...names: string[]) => names.flatMap((name) => parseQuoteResponse(fixture(`quote.${name}.json`)));
/** The recorded AAPL body read for whichever modules the provider asks. */
const summaryFor = ({ modules }: { modules: readonly YahooQuoteSummaryModule[] }) =>
  Promise.resolve(parseQuoteSummary(fixture('quoteSummary.AAPL.all-modules.json'), modules) as any);
/** A body in which Yahoo has none of the modules (a fund asked for company data). */
const noModules = () =>
  parseQuoteSummary({ quoteSummary: { result: [{}], error: null } }, [
    'price',
    'summaryDetail',
    'defaultKeyStatistics',
    'financialData',
    'recommendationTrend',
    'assetProfile',
    'institutionOwnership',
    'fundOwnership',
    'insiderTransactions',
  ]);
const recordedSeries = () => parseTimeseries(fixture('fundamentalsTimeSeries.AAPL.financials-annual.json'));

function upstreamError(kind: UpstreamError['kind'], upstreamStatus?: number): UpstreamError {
  return new UpstreamError({ provider: 'yahoo', kind, upstreamStatus, message: `HTTP ${upstreamStatus ?? 0} from query1.finance.yahoo.com/ws/x?crumb=secret` });
}

describe(YahooEquities.name, () => {
  let yahoo: jest.Mocked<Pick<YahooFinanceClient, 'quote' | 'quoteSummary' | 'fundamentalsTimeSeries'>>;
  let sut: YahooEquities;

  beforeEach(() => {
    yahoo = { quote: jest.fn(), quoteSummary: jest.fn(), fundamentalsTimeSeries: jest.fn() };
    yahoo.quote.mockResolvedValue(quotes('AAPL'));
    yahoo.quoteSummary.mockImplementation(summaryFor);
    yahoo.fundamentalsTimeSeries.mockResolvedValue(recordedSeries());
    sut = new YahooEquities(yahoo as unknown as YahooFinanceClient);
  });

  it('serves the four stock markets, quote batches as the client sends them', () => {
    expect(sut).toMatchObject({ name: 'yahoo', markets: ['US', 'HK', 'JP', 'KR'], maxQuotesPerCall: YAHOO_QUOTE_BATCH });
  });

  describe('getQuotes', () => {
    it('keeps stocks only: a fund or a currency is absent', async () => {
      yahoo.quote.mockResolvedValue(quotes('AAPL', 'QQQ', 'EURUSD=X'));
      const result = await sut.getQuotes({ sourceSymbols: ['AAPL', 'QQQ', 'EURUSD=X'] });
      expect(result.map((quote) => [quote.sourceSymbol, quote.market, quote.currency, quote.price])).toEqual([['AAPL', 'US', 'USD', '244.6']]);
    });

    it('asks nothing for no symbols', async () => {
      expect(await sut.getQuotes({ sourceSymbols: [] })).toEqual([]);
      expect(yahoo.quote).not.toHaveBeenCalled();
    });
  });

  describe('getFundamentals', () => {
    it('combines the quote, the summary modules and the time series', async () => {
      const result = await sut.getFundamentals({ sourceSymbol: 'AAPL' });

      expect(result.quote).toMatchObject({ sourceSymbol: 'AAPL', price: '244.6', sector: 'Technology', industry: 'Consumer Electronics' });
      expect(result.metrics.find((metric) => metric.key === 'trailingPE')).toEqual({
        key: 'trailingPE',
        label: 'P/E (TTM)',
        value: '38.91442',
        currency: null,
      });
      expect(result.analystRatings).toMatchObject({ consensus: 'buy', analysts: '40', counts: { strongBuy: '7' } });
      expect(result.incomeStatement.map((entry) => entry.fiscalPeriod)).toEqual(['FY2024', 'FY2023', 'FY2022']);
      expect(result.failures).toEqual([]);
      expect(yahoo.quoteSummary).toHaveBeenCalledWith(
        expect.objectContaining({ symbol: 'AAPL', modules: expect.arrayContaining(['summaryDetail', 'recommendationTrend']) }),
      );
      const [{ types, period1, period2 }] = yahoo.fundamentalsTimeSeries.mock.calls[0];
      expect(types).toEqual(expect.arrayContaining(['annualTotalRevenue', 'quarterlyTotalAssets', 'annualFreeCashFlow']));
      expect(period2.getTime() - period1.getTime()).toBeGreaterThan(4 * 365 * 86_400_000);
    });

    it('leaves the statements empty and lists one failure when the time series fails, without its URL', async () => {
      yahoo.fundamentalsTimeSeries.mockRejectedValue(upstreamError('timeout'));
      const result = await sut.getFundamentals({ sourceSymbol: 'AAPL' });

      expect([result.incomeStatement, result.balanceSheet, result.cashFlowStatement]).toEqual([[], [], []]);
      expect(result.failures).toEqual([{ section: 'financials', endpoint: 'timeseries', message: 'upstream timed out' }]);
      expect(JSON.stringify(result.failures)).not.toMatch(/yahoo\.com|crumb|secret|http/i);
      expect(result.metrics.length).toBeGreaterThan(10);
      expect(result.quote).not.toBeNull();
    });

    it('leaves metrics and ratings empty when quoteSummary fails, the quote without sector', async () => {
      yahoo.quoteSummary.mockRejectedValue(upstreamError('http', 404));
      const result = await sut.getFundamentals({ sourceSymbol: 'AAPL' });

      expect(result).toMatchObject({
        metrics: [],
        analystRatings: null,
        failures: [{ section: 'overview', endpoint: 'quoteSummary', message: 'not found upstream' }],
      });
      expect(result.quote).toMatchObject({ price: '244.6', sector: null });
      expect(result.incomeStatement).toHaveLength(3);
    });

    it('lists each failed call in call order', async () => {
      yahoo.quote.mockRejectedValue(upstreamError('http', 429));
      yahoo.fundamentalsTimeSeries.mockRejectedValue(upstreamError('shape'));
      const result = await sut.getFundamentals({ sourceSymbol: 'AAPL' });

      expect(result.quote).toBeNull();
      expect(result.metrics.find((metric) => metric.key === 'marketCap')?.currency).toBe('USD');
      expect(result.failures).toEqual([
        { section: 'quote', endpoint: 'quote', message: 'upstream rate limited' },
        { section: 'financials', endpoint: 'timeseries', message: 'unexpected upstream response' },
      ]);
    });

    it('rejects with the first error when every call failed', async () => {
      const first = upstreamError('network');
      yahoo.quote.mockRejectedValue(first);
      yahoo.quoteSummary.mockRejectedValue(upstreamError('http', 503));
      yahoo.fundamentalsTimeSeries.mockRejectedValue(upstreamError('timeout'));
      await expect(sut.getFundamentals({ sourceSymbol: 'AAPL' })).rejects.toBe(first);
    });

    it('passes an abort on instead of listing it as a failure', async () => {
      yahoo.fundamentalsTimeSeries.mockRejectedValue(upstreamError('aborted'));
      await expect(sut.getFundamentals({ sourceSymbol: 'AAPL' })).rejects.toMatchObject({ name: 'AbortError' });
    });

    it('has no stock quote for a fund, and what the body lacks is empty, not failed', async () => {
      yahoo.quote.mockResolvedValue(quotes('QQQ'));
      yahoo.quoteSummary.mockResolvedValue(noModules());
      yahoo.fundamentalsTimeSeries.mockResolvedValue([]);
      const result = await sut.getFundamentals({ sourceSymbol: 'QQQ' });
      expect(result).toEqual({ quote: null, metrics: [], analystRatings: null, incomeStatement: [], balanceSheet: [], cashFlowStatement: [], failures: [] });
    });
  });

  describe('getCompany', () => {
    it('reads officers, holders and insider trades from one quoteSummary call', async () => {
      const result = await sut.getCompany({ sourceSymbol: 'AAPL' });

      expect(yahoo.quoteSummary).toHaveBeenCalledTimes(1);
      expect(result.executives[0]).toEqual({
        name: 'Mr. Timothy D. Cook',
        role: 'CEO & Director',
        age: '63',
        since: null,
        compensation: '16239562',
        currency: 'USD',
      });
      expect(result.shareholders).toHaveLength(10);
      expect(result.funds[0]).toMatchObject({ name: 'Vanguard Total Stock Market Index Fund', stake: '0.0305', weight: null });
      expect(result.insiderTransactions).toHaveLength(85);
      expect(result.insiderTransactions[0]).toMatchObject({ change: '-1516', price: '226.35', relation: 'Director', filingDate: null, transactionCode: null });
      expect(result.failures).toEqual([]);
    });

    it('gives empty sections for modules Yahoo has not got', async () => {
      yahoo.quoteSummary.mockResolvedValue(noModules());
      expect(await sut.getCompany({ sourceSymbol: 'QQQ' })).toEqual({ executives: [], shareholders: [], funds: [], insiderTransactions: [], failures: [] });
    });

    it('rejects when its one call fails', async () => {
      yahoo.quoteSummary.mockRejectedValue(upstreamError('timeout'));
      await expect(sut.getCompany({ sourceSymbol: 'AAPL' })).rejects.toBeInstanceOf(UpstreamError);
    });
  });

  it('does not serve headlines: an unsupported operation, answered as a disabled provider', async () => {
    const refusal = sut.getHeadlines();
    await expect(refusal).rejects.toBeInstanceOf(EquitiesUnsupportedError);
    await expect(refusal).rejects.toBeInstanceOf(ProviderDisabledError);
    await expect(refusal).rejects.toThrow('equities data: headlines is not offered by yahoo');
  });
});
