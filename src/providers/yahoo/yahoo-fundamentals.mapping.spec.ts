import { toAnalystRatings, toStockMetrics, YAHOO_METRICS } from './yahoo-fundamentals.mapping';
import { parseQuoteSummary } from './yahoo-quote-summary.schema';
import { STATEMENT_TYPES, toStatements } from './yahoo-statements.mapping';
import { parseTimeseries, YahooTimeseries } from './yahoo-timeseries.schema';
import { vendorFixture } from '../../../test/support/vendor-fixtures';

const MODULES = ['summaryDetail', 'defaultKeyStatistics', 'financialData', 'recommendationTrend'] as const;
const aapl = () => parseQuoteSummary(vendorFixture('yahoo', 'quoteSummary.AAPL.all-modules.json'), MODULES);

function series(type: string, points: [asOfDate: string, value: string, currency?: string][]): YahooTimeseries {
  return { type, points: points.map(([asOfDate, value, currency = 'USD']) => ({ asOfDate, value, currency, periodType: null })) };
}

describe(toStockMetrics.name, () => {
  it('gives every listed metric for AAPL, in list order, money with its currency and ratios without', () => {
    const metrics = toStockMetrics(aapl(), null);
    expect(metrics.map((metric) => metric.key)).toEqual(YAHOO_METRICS.map((metric) => metric.key));
    expect(metrics.find((metric) => metric.key === 'marketCap')).toEqual({ key: 'marketCap', label: 'Market cap', value: '3688676720640', currency: 'USD' });
    expect(metrics.find((metric) => metric.key === 'dividendYield')).toEqual({
      key: 'dividendYield',
      label: 'Dividend yield',
      value: '0.0041',
      currency: null,
    });
    expect(metrics.find((metric) => metric.key === 'sharesOutstanding')?.currency).toBeNull();
    expect(metrics.find((metric) => metric.key === 'totalRevenue')).toMatchObject({ value: '395760009216', currency: 'USD' });
  });

  it('puts account figures in the reporting currency and price figures in the trading one', () => {
    const modules = aapl();
    const metrics = toStockMetrics(
      { ...modules, summaryDetail: { ...modules.summaryDetail!, currency: 'HKD' }, financialData: { ...modules.financialData!, financialCurrency: 'CNY' } },
      null,
    );
    const currencyOf = (key: string) => metrics.find((metric) => metric.key === key)?.currency;
    expect([currencyOf('marketCap'), currencyOf('fiftyTwoWeekHigh'), currencyOf('trailingEps')]).toEqual(['HKD', 'HKD', 'HKD']);
    expect([currencyOf('totalRevenue'), currencyOf('totalCash'), currencyOf('freeCashflow')]).toEqual(['CNY', 'CNY', 'CNY']);
  });

  it('falls back to the next module, then to the quote currency, and leaves out money of unknown currency', () => {
    const modules = aapl();
    const withoutDetail = toStockMetrics({ ...modules, summaryDetail: null }, 'USD');
    expect(withoutDetail.find((metric) => metric.key === 'beta')?.value).toBe('1.2');
    expect(withoutDetail.find((metric) => metric.key === 'forwardPE')?.value).toBe('29.80388');
    expect(withoutDetail.find((metric) => metric.key === 'trailingEps')?.currency).toBe('USD');
    const noCurrency = toStockMetrics({ ...modules, summaryDetail: null, financialData: null }, null);
    expect(noCurrency.every((metric) => metric.currency === null)).toBe(true);
    expect(noCurrency.map((metric) => metric.key)).toEqual(['forwardPE', 'priceToBook', 'beta', 'sharesOutstanding', 'profitMargins']);
  });

  it('gives no metrics when no module came', () => {
    expect(toStockMetrics({ summaryDetail: null, defaultKeyStatistics: null, financialData: null }, 'USD')).toEqual([]);
  });
});

describe(toAnalystRatings.name, () => {
  it('reads the current month’s counts and the consensus', () => {
    expect(toAnalystRatings(aapl())).toEqual({
      counts: { strongBuy: '7', buy: '21', hold: '14', sell: '2', strongSell: '2' },
      consensus: 'buy',
      targetMeanPrice: '252.22575',
      analysts: '40',
    });
  });

  it('treats Yahoo’s "none" as no consensus, and no coverage at all as null', () => {
    const modules = aapl();
    expect(toAnalystRatings({ recommendationTrend: null, financialData: { ...modules.financialData!, recommendationKey: 'none' } })).toMatchObject({
      counts: null,
      consensus: null,
      analysts: '40',
    });
    expect(toAnalystRatings({ recommendationTrend: { trend: [] }, financialData: null })).toBeNull();
  });
});

describe(toStatements.name, () => {
  it('groups the recorded annual income statement by period, newest first, line items in list order', () => {
    const { incomeStatement, balanceSheet, cashFlowStatement } = toStatements(
      parseTimeseries(vendorFixture('yahoo', 'fundamentalsTimeSeries.AAPL.financials-annual.json')),
    );
    expect(incomeStatement.map((entry) => [entry.periodEnd, entry.fiscalPeriod, entry.periodType, entry.currency])).toEqual([
      ['2024-09-30', 'FY2024', 'annual', 'USD'],
      ['2023-09-30', 'FY2023', 'annual', 'USD'],
      ['2022-09-30', 'FY2022', 'annual', 'USD'],
    ]);
    expect(incomeStatement[0].lineItems).toEqual({
      totalRevenue: '391035000000',
      costOfRevenue: '210352000000',
      grossProfit: '180683000000',
      operatingExpense: '57467000000',
      operatingIncome: '123216000000',
      pretaxIncome: '123485000000',
      taxProvision: '29749000000',
      netIncome: '93736000000',
      ebitda: '134661000000',
      basicEps: '6.11',
      dilutedEps: '6.08',
      dilutedAverageShares: '15408095000',
    });
    expect([balanceSheet, cashFlowStatement]).toEqual([[], []]);
  });

  it('numbers quarters back from the fiscal year’s last month (September here)', () => {
    const statements = toStatements([
      series('annualTotalAssets', [['2024-09-30', '100']]),
      series('quarterlyTotalAssets', [
        ['2024-09-30', '100'],
        ['2024-12-31', '110'],
        ['2025-03-31', '120'],
        ['2025-06-30', '130'],
      ]),
    ]);
    expect(statements.balanceSheet.map((entry) => `${entry.periodEnd} ${entry.fiscalPeriod}`)).toEqual([
      '2025-06-30 Q3 FY2025',
      '2025-03-31 Q2 FY2025',
      '2024-12-31 Q1 FY2025',
      '2024-09-30 FY2024',
      '2024-09-30 Q4 FY2024',
    ]);
  });

  it('numbers quarters as calendar ones when there is no annual period, and keeps the series currency', () => {
    const statements = toStatements([
      series('quarterlyOperatingCashFlow', [
        ['2025-03-31', '5', 'CNY'],
        ['2025-06-30', '6', 'CNY'],
      ]),
      series('quarterlyFreeCashFlow', [['2025-06-30', '4', 'CNY']]),
    ]);
    expect(statements.cashFlowStatement).toEqual([
      {
        periodEnd: '2025-06-30',
        fiscalPeriod: 'Q2 FY2025',
        periodType: 'quarterly',
        currency: 'CNY',
        lineItems: { operatingCashFlow: '6', freeCashFlow: '4' },
      },
      { periodEnd: '2025-03-31', fiscalPeriod: 'Q1 FY2025', periodType: 'quarterly', currency: 'CNY', lineItems: { operatingCashFlow: '5' } },
    ]);
  });

  it('ignores types it does not map and asks for each line annual and quarterly', () => {
    expect(toStatements([series('trailingTotalRevenue', [['2025-06-30', '1']])]).incomeStatement).toEqual([]);
    expect(STATEMENT_TYPES).toContain('annualTotalRevenue');
    expect(STATEMENT_TYPES).toContain('quarterlyFreeCashFlow');
    expect(STATEMENT_TYPES).toHaveLength(2 * (12 + 7 + 7));
  });
});
