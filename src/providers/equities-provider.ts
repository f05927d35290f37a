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

/** One overview metric (`marketCap`, `trailingPE`, ...): `value` a decimal string, in `currency` when it is money. */
export interface StockMetric {
  key: string;
  label: string;
  value: string;
  /** ISO 4217 when the value is money (then converted to USD by the caller); null for ratios and counts. */
  currency: string | null;
}

/** One reported period of one statement, its line items by key (`totalRevenue`), each a decimal string. */
export interface FinancialStatement {
  /** YYYY-MM-DD end of the period. */
  periodEnd: string;
  /** `FY2024` for a fiscal year, `Q3 FY2024` for a quarter; the vendor's own calendar. */
  fiscalPeriod: string;
  periodType: 'annual' | 'quarterly';
  currency: string | null;
  lineItems: Record<string, string>;
}

/** A part of a composite answer that could not be read: which, from which upstream call, why (safe to show). */
export interface SectionFailure {
  /** `overviewMetrics`, `analystRatings`, `incomeStatement`, `executives`, ... */
  section: string;
  /** The vendor's call, named without host or parameters: `quoteSummary/financialData`, `timeseries`. */
  endpoint: string;
  message: string;
}

export interface AnalystRatings {
  /** The current month's counts (strongBuy, buy, hold, sell, strongSell), as decimal strings. */
  counts: Record<'strongBuy' | 'buy' | 'hold' | 'sell' | 'strongSell', string> | null;
  /** The vendor's consensus key: `buy`, `hold`, `strong_buy`, ... */
  consensus: string | null;
  targetMeanPrice: string | null;
  analysts: string | null;
}

/**
 * A stock's fundamentals from several vendor calls. A call that fails leaves its sections empty (null or
 * []) and adds a SectionFailure; the method rejects only when no call at all succeeded.
 */
export interface StockFundamentals {
  quote: StockQuote | null;
  metrics: StockMetric[];
  analystRatings: AnalystRatings | null;
  incomeStatement: FinancialStatement[];
  balanceSheet: FinancialStatement[];
  cashFlowStatement: FinancialStatement[];
  failures: SectionFailure[];
}

export interface Executive {
  name: string;
  role: string;
  age: string | null;
  /** Year in office since, when the vendor says. */
  since: string | null;
  compensation: string | null;
  /** ISO 4217 of `compensation`. */
  currency: string | null;
}

export interface Holding {
  name: string;
  /** Fraction of shares outstanding, decimal string (0.0931 = 9.31 %). */
  stake: string;
  /** Fractional change of the position since the previous report. */
  change: string | null;
  /** YYYY-MM-DD. */
  reportedAt: string | null;
  /** Share of the fund's own assets; null when the vendor has none. */
  weight: string | null;
}

export interface InsiderTransaction {
  name: string;
  /** The insider's relation (`Chief Executive Officer`, `Director`). */
  relation: string | null;
  /** YYYY-MM-DD. */
  transactionDate: string;
  /** YYYY-MM-DD when the vendor (or a regulator's filing) says; else null. */
  filingDate: string | null;
  /** SEC Form 4 code (S sale, P purchase, M exercise, A award, F tax, G gift) when known. */
  transactionCode: string | null;
  shares: string | null;
  /** Signed: negative for a disposal. */
  change: string | null;
  price: string | null;
  value: string | null;
  /** The vendor's own wording, kept for a later code look-up. */
  text: string | null;
}

/** A company's people and holders from several vendor calls, partial as StockFundamentals is. */
export interface CompanyProfile {
  executives: Executive[];
  shareholders: Holding[];
  funds: Holding[];
  insiderTransactions: InsiderTransaction[];
  failures: SectionFailure[];
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
