import { refuseAs } from './kit/provider-disabled.error';

export const EQUITIES_PROVIDER = Symbol('EQUITIES_PROVIDER');

/** Stock markets of the contract (part 2.4). */
export type StockMarket = 'US' | 'HK' | 'JP' | 'KR';

/** A listed stock as the vendor names it: `sourceSymbol` is its own ('AAPL', '0700.HK'). */
export interface StockRef {
  sourceSymbol: string;
  market: StockMarket;
}

/** Figures in the listing currency, as decimal strings; null when the vendor has none. Changes are percent. */
export interface StockQuote extends StockRef {
  name: string;
  currency: string;
  price: string | null;
  change: string | null;
  changePercent: string | null;
  high: string | null;
  low: string | null;
  volume: string | null;
  marketCap: string | null;
  sector: string | null;
  industry: string | null;
  /** ISO-8601 time of the price. */
  priceUpdatedAt: string | null;
}

export interface LabelledValue {
  key: string;
  label: string;
  /** Decimal string, in the listing currency when it is money. */
  value: string;
}

/** One reported period of one statement line ('annualTotalRevenue' for FY2024). */
export interface StatementEntry {
  key: string;
  /** YYYY-MM-DD end of the period. */
  periodEnd: string;
  value: string;
}

export interface StockFundamentals {
  quote: StockQuote;
  metrics: LabelledValue[];
  analystRatings: { label: string; value: string }[];
  incomeStatement: StatementEntry[];
  balanceSheet: StatementEntry[];
  cashFlowStatement: StatementEntry[];
  /** Sections the vendor failed to give; the rest is still served (contract `errors[]`). */
  missingSections: { section: string; reason: string }[];
}

export interface CompanyProfile {
  name: string;
  country: string | null;
  sector: string | null;
  industry: string | null;
  executives: { name: string; role: string; age: string | null; since: string | null; compensation: string | null }[];
  shareholders: { name: string; stake: string; change: string | null; reportedAt: string | null }[];
  funds: { name: string; stake: string; change: string | null; weight: string | null }[];
  insiderTransactions: { name: string; transactionDate: string; shares: string | null; price: string | null; value: string | null }[];
  missingSections: { section: string; reason: string }[];
}

export interface StockHeadline {
  sourceGuid: string;
  title: string;
  url: string;
  publisher: string;
  /** ISO-8601. */
  publishedAt: string;
}

/**
 * Stock data (contract parts 2.4, 4.3): quotes in batches, fundamentals, company profile and per-symbol
 * headlines. Typed data or UpstreamError (ProviderDisabledError when no vendor is configured); a licensed
 * vendor replaces the default one by configuration alone.
 */
export interface EquitiesProvider {
  readonly name: string;
  readonly markets: readonly StockMarket[];
  /** Most symbols one getQuotes call takes; the caller chunks. */
  readonly maxQuotesPerCall: number;
  getQuotes(params: { sourceSymbols: readonly string[]; signal?: AbortSignal }): Promise<StockQuote[]>;
  getFundamentals(params: { sourceSymbol: string; signal?: AbortSignal }): Promise<StockFundamentals>;
  getCompany(params: { sourceSymbol: string; signal?: AbortSignal }): Promise<CompanyProfile>;
  getHeadlines(params: { sourceSymbol: string; limit: number; signal?: AbortSignal }): Promise<StockHeadline[]>;
}

const refuse = refuseAs('equities data');

/** Answers when no equities vendor is configured or it is switched off. */
export class DisabledEquitiesProvider implements EquitiesProvider {
  readonly name = 'none';
  readonly markets: readonly StockMarket[] = [];
  readonly maxQuotesPerCall = 0;
  getQuotes = refuse;
  getFundamentals = refuse;
  getCompany = refuse;
  getHeadlines = refuse;
}
