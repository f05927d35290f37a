import { UpstreamError } from '../kit/upstream.error';
import { parseQuoteSummary, YahooQuoteSummaryModule } from './yahoo-quote-summary.schema';
import { CrumbRejectedError } from './yahoo-values';
import { shapeErrorOf, vendorFixture } from '../../../test/support/vendor-fixtures';

const fixture = (name: string): any => vendorFixture('yahoo', name);
const ALL_MODULES: YahooQuoteSummaryModule[] = [
  'price',
  'summaryDetail',
  'defaultKeyStatistics',
  'financialData',
  'recommendationTrend',
  'assetProfile',
  'institutionOwnership',
  'fundOwnership',
  'insiderTransactions',
];

/** The one module of a single-module recording. */
function onlyModule<K extends YahooQuoteSummaryModule>(module: K) {
  return parseQuoteSummary(fixture(`quoteSummary.AAPL.${module}.json`), [module])[module];
}

describe(parseQuoteSummary.name, () => {
  it('reads summaryDetail: trading currency and valuation figures, fractions as sent', () => {
    expect(onlyModule('summaryDetail')).toEqual({
      currency: 'USD',
      marketCap: '3688676720640',
      trailingPE: '38.91442',
      forwardPE: '29.548735',
      dividendYield: '0.0041',
      beta: '1.2',
      fiftyTwoWeekHigh: '260.1',
      fiftyTwoWeekLow: '164.08',
      averageVolume: '50792552',
    });
  });

  it('reads defaultKeyStatistics, with the fiscal year end as a date', () => {
    expect(onlyModule('defaultKeyStatistics')).toEqual({
      sharesOutstanding: '15022100480',
      enterpriseValue: '3731694026752',
      priceToBook: '55.328976',
      forwardPE: '29.80388',
      trailingEps: '6.31',
      forwardEps: '8.31',
      beta: '1.2',
      profitMargins: '0.24295',
      lastFiscalYearEnd: '2024-09-28',
    });
  });

  it('reads financialData: reporting currency, margins and the analysts consensus', () => {
    expect(onlyModule('financialData')).toEqual({
      financialCurrency: 'USD',
      totalRevenue: '395760009216',
      grossMargins: '0.46519002',
      operatingMargins: '0.34459',
      profitMargins: '0.24295',
      returnOnEquity: '1.3652',
      totalCash: '53774999552',
      totalDebt: '96798998528',
      freeCashflow: '93833871360',
      recommendationKey: 'buy',
      recommendationMean: '2.06522',
      targetMeanPrice: '252.22575',
      numberOfAnalystOpinions: '40',
    });
  });

  it('reads the recommendation trend by month', () => {
    const { trend } = onlyModule('recommendationTrend')!;
    expect(trend.map((row) => row.period)).toEqual(['0m', '-1m', '-2m', '-3m']);
    expect(trend[0]).toEqual({ period: '0m', strongBuy: '7', buy: '21', hold: '14', sell: '2', strongSell: '2' });
  });

  it('reads the price module currency and type', () => {
    expect(onlyModule('price')).toEqual({ currency: 'USD', quoteType: 'EQUITY', name: 'Apple Inc.' });
  });

  it('reads assetProfile officers, pay unwrapped from {raw, fmt}, and names without double spaces', () => {
    const profile = onlyModule('assetProfile')!;
    expect(profile).toMatchObject({ sector: 'Technology', industry: 'Consumer Electronics', country: 'United States', fullTimeEmployees: '150000' });
    expect(profile.officers).toHaveLength(10);
    expect(profile.officers[0]).toEqual({
      name: 'Mr. Timothy D. Cook',
      title: 'CEO & Director',
      age: '63',
      yearBorn: '1961',
      fiscalYear: '2023',
      totalPay: '16239562',
    });
    expect(profile.officers[4]).toMatchObject({ name: 'Mr. Kevan Parekh', age: '52', totalPay: null });
    expect(profile.officers[5]).toMatchObject({ name: 'Mr. Chris Kondo', age: null, yearBorn: null });
  });

  it.each(['institutionOwnership', 'fundOwnership'] as const)('reads %s rows with stakes as fractions and report dates', (module) => {
    const { holders } = onlyModule(module)!;
    expect(holders).toHaveLength(10);
    expect(holders.every((row) => /^\d{4}-\d{2}-\d{2}$/.test(row.reportDate ?? '') && row.pctHeld !== null)).toBe(true);
  });

  it('reads the largest institution and fund', () => {
    expect(onlyModule('institutionOwnership')!.holders[0]).toEqual({
      organization: 'Vanguard Group Inc',
      pctHeld: '0.0929',
      pctChange: '0.0365',
      position: '1395785512',
      value: '342735136731',
      reportDate: '2024-12-31',
    });
    expect(onlyModule('fundOwnership')!.holders[0]).toMatchObject({
      organization: 'Vanguard Total Stock Market Index Fund',
      pctChange: '-0.0050999997',
      reportDate: '2024-09-30',
    });
  });

  it('reads insider transactions, with or without a value and a wording', () => {
    const { transactions } = onlyModule('insiderTransactions')!;
    expect(transactions).toHaveLength(85);
    expect(transactions[0]).toEqual({
      filerName: 'LEVINSON ARTHUR D',
      filerRelation: 'Director',
      transactionText: 'Sale at price 226.35 per share.',
      shares: '1516',
      value: '343147',
      startDate: '2025-02-03',
      ownership: 'D',
    });
    expect(transactions[1]).toMatchObject({ filerName: 'GORSKY ALEX', transactionText: null, value: null, startDate: '2025-01-31' });
  });

  it('gives the same modules from the 30-module recording as from the single-module ones', () => {
    const all = parseQuoteSummary(fixture('quoteSummary.AAPL.all-modules.json'), ALL_MODULES);
    for (const module of ALL_MODULES.filter((name) => name !== 'price')) expect(all[module]).toEqual(onlyModule(module));
    // The price module was recorded in another session (pre-market there), its identity is the same.
    expect(all.price).toEqual(onlyModule('price'));
  });

  it('finds none of the modules it reads in the (nearly empty) incomeStatementHistory recording: statements come from the time series', () => {
    const body = fixture('quoteSummary.AAPL.incomeStatementHistory.json');
    expect(body.quoteSummary.result[0].incomeStatementHistory.incomeStatementHistory[0].grossProfit).toEqual({ raw: 0, fmt: null, longFmt: '0' });
    const parsed = parseQuoteSummary(body, ALL_MODULES);
    expect(Object.values(parsed).every((module) => module === null)).toBe(true);
  });

  it('answers null for an asked module the body lacks, and only for asked modules', () => {
    const parsed = parseQuoteSummary(fixture('quoteSummary.AAPL.summaryDetail.json'), ['summaryDetail', 'financialData']);
    expect(Object.keys(parsed).sort()).toEqual(['financialData', 'summaryDetail']);
    expect(parsed.financialData).toBeNull();
    expect(parseQuoteSummary({ quoteSummary: { result: [], error: null } }, ['price'])).toEqual({ price: null });
  });

  it('reads {raw, fmt} figures and treats {} and null as no figure', () => {
    const body = {
      quoteSummary: {
        result: [
          { summaryDetail: { currency: 'HKD', marketCap: { raw: 4.1e12, fmt: '4.1T' }, trailingPE: {}, beta: null, forwardPE: { raw: 1e-7, fmt: '0.00' } } },
        ],
        error: null,
      },
    };
    expect(parseQuoteSummary(body, ['summaryDetail']).summaryDetail).toMatchObject({
      currency: 'HKD',
      marketCap: '4100000000000',
      trailingPE: null,
      beta: null,
      forwardPE: '0.0000001',
    });
  });

  it('leaves out rows without a name or date rather than failing the module', () => {
    const body = {
      quoteSummary: {
        result: [
          {
            institutionOwnership: { ownershipList: [{ pctHeld: { raw: 0.1 } }, { organization: 'Kept', pctHeld: { raw: 0.05 } }] },
            insiderTransactions: { transactions: [{ filerName: 'NO DATE' }, { filerName: 'DATED', startDate: { raw: 1738540800 } }] },
          },
        ],
        error: null,
      },
    };
    const parsed = parseQuoteSummary(body, ['institutionOwnership', 'insiderTransactions']);
    expect(parsed.institutionOwnership!.holders.map((row) => row.organization)).toEqual(['Kept']);
    expect(parsed.insiderTransactions!.transactions.map((row) => [row.filerName, row.startDate])).toEqual([['DATED', '2025-02-03']]);
  });

  it('names Yahoo’s error code, never its description, for an error body', () => {
    const body = { quoteSummary: { result: null, error: { code: 'Not Found', description: 'Quote not found for symbol: NOPE' } } };
    const error = (() => {
      try {
        parseQuoteSummary(body, ['price']);
      } catch (err) {
        return err as UpstreamError;
      }
      throw new Error('expected an error');
    })();
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error.message).toContain('Not Found');
    expect(error.message).not.toContain('NOPE');
  });

  it('turns "Invalid Crumb" into a crumb rejection', () => {
    const body = { finance: { result: null, error: { code: 'Unauthorized', description: 'Invalid Crumb' } } };
    expect(() => parseQuoteSummary(body, ['price'])).toThrow(CrumbRejectedError);
  });

  it('refuses a wrong structure as a shape error naming the path', () => {
    expect(shapeErrorOf(() => parseQuoteSummary('<html>', ['price'])).message).toContain('quoteSummary');
    const body = { quoteSummary: { result: [{ fundOwnership: { ownershipList: {} } }], error: null } };
    expect(shapeErrorOf(() => parseQuoteSummary(body, ['fundOwnership'])).message).toContain('quoteSummary.quoteSummary.result[0].fundOwnership.ownershipList');
  });
});
