import { AnalystRatings, StockMetric } from '../equities-provider';
import { YahooQuoteSummary } from './yahoo-quote-summary.schema';

type MetricModules = YahooQuoteSummary<'summaryDetail' | 'defaultKeyStatistics' | 'financialData'>;
type MetricSource = { [M in keyof MetricModules]: readonly [M, keyof NonNullable<MetricModules[M]>] }[keyof MetricModules];

/**
 * Which currency a metric is in: `trading` (the listing's: price-based figures), `reporting` (the company's
 * accounts, financialData.financialCurrency, which for some listings is not the trading one), or null for
 * ratios (fractions as Yahoo sends them: 0.24 is 24 %), multiples and counts.
 */
type MetricMoney = 'trading' | 'reporting' | null;

interface MetricDef {
  key: string;
  label: string;
  /** Read in this order; the first module that has the figure gives it. */
  sources: readonly MetricSource[];
  money: MetricMoney;
}

/** The overview metrics, in display order. A metric Yahoo has no figure for is left out. */
export const YAHOO_METRICS: readonly MetricDef[] = [
  { key: 'marketCap', label: 'Market cap', sources: [['summaryDetail', 'marketCap']], money: 'trading' },
  { key: 'enterpriseValue', label: 'Enterprise value', sources: [['defaultKeyStatistics', 'enterpriseValue']], money: 'trading' },
  { key: 'trailingPE', label: 'P/E (TTM)', sources: [['summaryDetail', 'trailingPE']], money: null },
  {
    key: 'forwardPE',
    label: 'Forward P/E',
    sources: [
      ['summaryDetail', 'forwardPE'],
      ['defaultKeyStatistics', 'forwardPE'],
    ],
    money: null,
  },
  { key: 'priceToBook', label: 'Price/book', sources: [['defaultKeyStatistics', 'priceToBook']], money: null },
  { key: 'trailingEps', label: 'EPS (TTM)', sources: [['defaultKeyStatistics', 'trailingEps']], money: 'trading' },
  { key: 'dividendYield', label: 'Dividend yield', sources: [['summaryDetail', 'dividendYield']], money: null },
  {
    key: 'beta',
    label: 'Beta (5Y monthly)',
    sources: [
      ['summaryDetail', 'beta'],
      ['defaultKeyStatistics', 'beta'],
    ],
    money: null,
  },
  { key: 'fiftyTwoWeekHigh', label: '52-week high', sources: [['summaryDetail', 'fiftyTwoWeekHigh']], money: 'trading' },
  { key: 'fiftyTwoWeekLow', label: '52-week low', sources: [['summaryDetail', 'fiftyTwoWeekLow']], money: 'trading' },
  { key: 'averageVolume', label: 'Average volume (3M)', sources: [['summaryDetail', 'averageVolume']], money: null },
  { key: 'sharesOutstanding', label: 'Shares outstanding', sources: [['defaultKeyStatistics', 'sharesOutstanding']], money: null },
  { key: 'totalRevenue', label: 'Revenue (TTM)', sources: [['financialData', 'totalRevenue']], money: 'reporting' },
  { key: 'grossMargins', label: 'Gross margin', sources: [['financialData', 'grossMargins']], money: null },
  { key: 'operatingMargins', label: 'Operating margin', sources: [['financialData', 'operatingMargins']], money: null },
  {
    key: 'profitMargins',
    label: 'Profit margin',
    sources: [
      ['financialData', 'profitMargins'],
      ['defaultKeyStatistics', 'profitMargins'],
    ],
    money: null,
  },
  { key: 'returnOnEquity', label: 'Return on equity (TTM)', sources: [['financialData', 'returnOnEquity']], money: null },
  { key: 'totalCash', label: 'Total cash', sources: [['financialData', 'totalCash']], money: 'reporting' },
  { key: 'totalDebt', label: 'Total debt', sources: [['financialData', 'totalDebt']], money: 'reporting' },
  { key: 'freeCashflow', label: 'Free cash flow (TTM)', sources: [['financialData', 'freeCashflow']], money: 'reporting' },
];

/**
 * The metrics Yahoo has figures for, in YAHOO_METRICS order. A money metric whose currency is unknown is left
 * out: a bare number would read as a ratio. `fallbackCurrency` is the quote's, for a body without
 * summaryDetail.
 */
export function toStockMetrics(modules: MetricModules, fallbackCurrency: string | null): StockMetric[] {
  const trading = modules.summaryDetail?.currency ?? fallbackCurrency;
  const currencies: Record<NonNullable<MetricMoney>, string | null> = { trading, reporting: modules.financialData?.financialCurrency ?? trading };
  return YAHOO_METRICS.flatMap(({ key, label, sources, money }) => {
    const value = firstFigure(modules, sources);
    const currency = money === null ? null : currencies[money];
    if (value === null || (money !== null && currency === null)) return [];
    return [{ key, label, value, currency }];
  });
}

function firstFigure(modules: MetricModules, sources: readonly MetricSource[]): string | null {
  for (const [module, field] of sources) {
    const figures = modules[module] as Record<string, string | null> | null;
    const value = figures?.[field as string] ?? null;
    if (value !== null) return value;
  }
  return null;
}

/**
 * The current month's recommendation counts (`0m`) and financialData's consensus, mean target and number
 * of analysts; null when Yahoo has none of them (funds, uncovered stocks). Yahoo's `none` key means no
 * consensus.
 */
export function toAnalystRatings(modules: YahooQuoteSummary<'recommendationTrend' | 'financialData'>): AnalystRatings | null {
  const current = modules.recommendationTrend?.trend.find((row) => row.period === '0m');
  const { strongBuy = null, buy = null, hold = null, sell = null, strongSell = null } = current ?? {};
  const counts =
    strongBuy !== null && buy !== null && hold !== null && sell !== null && strongSell !== null ? { strongBuy, buy, hold, sell, strongSell } : null;
  const financial = modules.financialData;
  const key = financial?.recommendationKey ?? null;
  const ratings: AnalystRatings = {
    counts,
    consensus: key === null || key === 'none' ? null : key,
    targetMeanPrice: financial?.targetMeanPrice ?? null,
    analysts: financial?.numberOfAnalystOpinions ?? null,
  };
  return Object.values(ratings).every((value) => value === null) ? null : ratings;
}
