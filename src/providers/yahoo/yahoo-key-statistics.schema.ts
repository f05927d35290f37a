import { Fields } from '../kit/schema-reader';
import { decimalOrNull, textOrNull, yahooReader } from './yahoo-values';
import { dateOrNull } from './yahoo-dates';

/**
 * The quoteSummary modules of valuation and analyst figures. Every figure is a decimal string or null
 * (missing, null, `{}`, or `{raw, fmt}` unwrapped); ratios stay fractions as Yahoo sends them (0.0041 is a
 * 0.41 % yield), money is in the module's currency.
 */
export interface YahooPriceModule {
  currency: string | null;
  /** EQUITY, ETF, ... */
  quoteType: string | null;
  name: string | null;
}

export interface YahooSummaryDetail {
  /** The trading currency: marketCap and the 52-week range are in it. */
  currency: string | null;
  marketCap: string | null;
  trailingPE: string | null;
  forwardPE: string | null;
  dividendYield: string | null;
  beta: string | null;
  fiftyTwoWeekHigh: string | null;
  fiftyTwoWeekLow: string | null;
  averageVolume: string | null;
}

export interface YahooKeyStatistics {
  sharesOutstanding: string | null;
  enterpriseValue: string | null;
  priceToBook: string | null;
  forwardPE: string | null;
  trailingEps: string | null;
  forwardEps: string | null;
  beta: string | null;
  profitMargins: string | null;
  /** YYYY-MM-DD. */
  lastFiscalYearEnd: string | null;
}

export interface YahooFinancialData {
  /** The reporting currency, which can differ from the trading one (a Hong Kong listing reporting in CNY). */
  financialCurrency: string | null;
  totalRevenue: string | null;
  grossMargins: string | null;
  operatingMargins: string | null;
  profitMargins: string | null;
  returnOnEquity: string | null;
  totalCash: string | null;
  totalDebt: string | null;
  freeCashflow: string | null;
  /** `buy`, `strong_buy`, `hold`, `underperform`, `sell`, or `none` when no analyst covers it. */
  recommendationKey: string | null;
  recommendationMean: string | null;
  targetMeanPrice: string | null;
  numberOfAnalystOpinions: string | null;
}

export interface YahooRecommendationPeriod {
  /** `0m` is the current month, `-1m` the one before. */
  period: string;
  strongBuy: string | null;
  buy: string | null;
  hold: string | null;
  sell: string | null;
  strongSell: string | null;
}

export interface YahooRecommendationTrend {
  trend: YahooRecommendationPeriod[];
}

function decimals<K extends string>(fields: Fields, keys: readonly K[]): Record<K, string | null> {
  return Object.fromEntries(keys.map((key) => [key, decimalOrNull(fields.raw[key])])) as Record<K, string | null>;
}

export function parsePriceModule(fields: Fields): YahooPriceModule {
  const raw = fields.raw;
  return { currency: textOrNull(raw.currency), quoteType: textOrNull(raw.quoteType), name: textOrNull(raw.longName) ?? textOrNull(raw.shortName) };
}

export function parseSummaryDetail(fields: Fields): YahooSummaryDetail {
  const figures = decimals(fields, ['marketCap', 'trailingPE', 'forwardPE', 'dividendYield', 'beta', 'fiftyTwoWeekHigh', 'fiftyTwoWeekLow', 'averageVolume']);
  return { currency: textOrNull(fields.raw.currency), ...figures };
}

export function parseKeyStatistics(fields: Fields): YahooKeyStatistics {
  const figures = decimals(fields, ['sharesOutstanding', 'enterpriseValue', 'priceToBook', 'forwardPE', 'trailingEps', 'forwardEps', 'beta', 'profitMargins']);
  return { ...figures, lastFiscalYearEnd: dateOrNull(fields.raw.lastFiscalYearEnd) };
}

export function parseFinancialData(fields: Fields): YahooFinancialData {
  const figures = decimals(fields, [
    'totalRevenue',
    'grossMargins',
    'operatingMargins',
    'profitMargins',
    'returnOnEquity',
    'totalCash',
    'totalDebt',
    'freeCashflow',
    'recommendationMean',
    'targetMeanPrice',
    'numberOfAnalystOpinions',
  ]);
  return { financialCurrency: textOrNull(fields.raw.financialCurrency), recommendationKey: textOrNull(fields.raw.recommendationKey), ...figures };
}

/** Periods without a `period` name cannot be placed in time and are left out. */
export function parseRecommendationTrend(fields: Fields): YahooRecommendationTrend {
  if (!fields.has('trend')) return { trend: [] };
  const trend = fields.array('trend', (item, path) => {
    const row = yahooReader.asObject(item, path);
    const period = textOrNull(row.raw.period);
    return period === null ? null : { period, ...decimals(row, ['strongBuy', 'buy', 'hold', 'sell', 'strongSell']) };
  });
  return { trend: trend.filter((row): row is YahooRecommendationPeriod => row !== null) };
}
