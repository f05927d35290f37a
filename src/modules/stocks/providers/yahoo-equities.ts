import { Injectable } from '@nestjs/common';
import {
  CompanyProfile,
  EquitiesProvider,
  SectionFailure,
  StockFundamentals,
  StockHeadline,
  StockMarket,
  StockQuote,
} from '../../../providers/equities-provider';
import { ProviderDisabledError } from '../../../providers/kit/provider-disabled.error';
import { UpstreamError } from '../../../providers/kit/upstream.error';
import { toExecutive, toHolding, toInsiderTransaction } from '../../../providers/yahoo/yahoo-company.mapping';
import { YAHOO_QUOTE_BATCH, YahooFinanceClient } from '../../../providers/yahoo/yahoo-finance.client';
import { toAnalystRatings, toStockMetrics } from '../../../providers/yahoo/yahoo-fundamentals.mapping';
import { toStockQuote } from '../../../providers/yahoo/yahoo-quote.mapping';
import { STATEMENT_TYPES, toStatements } from '../../../providers/yahoo/yahoo-statements.mapping';

const VENDOR = 'yahoo';
/** Yahoo's free time series reach about four fiscal years back; five years of request cover them all. */
const STATEMENT_HISTORY_MS = 5 * 366 * 86_400_000;
/** assetProfile only for the quote's sector and industry. */
const FUNDAMENTALS_MODULES = ['summaryDetail', 'defaultKeyStatistics', 'financialData', 'recommendationTrend', 'assetProfile'] as const;
/** price and financialData only for the currency officers' pay is in. */
const COMPANY_MODULES = ['assetProfile', 'institutionOwnership', 'fundOwnership', 'insiderTransactions', 'financialData', 'price'] as const;

type Endpoint = 'quote' | 'quoteSummary' | 'timeseries';
/** The part of the fundamentals answer each call fills, as a SectionFailure names it. */
const FUNDAMENTALS_SECTION: Record<Endpoint, string> = { quote: 'quote', quoteSummary: 'overview', timeseries: 'financials' };

/** An operation this vendor does not offer: answered as a disabled provider is (503, not billed). */
export class EquitiesUnsupportedError extends ProviderDisabledError {
  constructor(
    readonly vendor: string,
    readonly operation: string,
  ) {
    super('equities data');
    this.name = 'EquitiesUnsupportedError';
    this.message = `equities data: ${operation} is not offered by ${vendor}`;
  }
}

/**
 * Stocks of the US, Hong Kong, Tokyo and Seoul from Yahoo Finance (no official API; its terms do not license
 * redistribution: one replaceable vendor). Fundamentals are three calls in parallel (quote, quoteSummary,
 * time series): one failing empties its sections and is listed in `failures`; only all three failing
 * rejects. The company profile is one quoteSummary call (one request of the scarce Yahoo budget rather than
 * two), so it is whole or it rejects; modules Yahoo lacks are empty sections. Headlines are not served here.
 */
@Injectable()
export class YahooEquities implements EquitiesProvider {
  readonly name = VENDOR;
  readonly markets: readonly StockMarket[] = ['US', 'HK', 'JP', 'KR'];
  readonly maxQuotesPerCall = YAHOO_QUOTE_BATCH;

  constructor(private readonly yahoo: YahooFinanceClient) {}

  /** Stock quotes only: funds, currencies and symbols of other markets are absent, as unknown ones are. */
  async getQuotes({ sourceSymbols, signal }: { sourceSymbols: readonly string[]; signal?: AbortSignal }): Promise<StockQuote[]> {
    if (sourceSymbols.length === 0) return [];
    const quotes = await this.yahoo.quote({ symbols: sourceSymbols, signal });
    return quotes.flatMap((quote) => toStockQuote(quote) ?? []);
  }

  async getFundamentals({ sourceSymbol, signal }: { sourceSymbol: string; signal?: AbortSignal }): Promise<StockFundamentals> {
    const now = Date.now();
    const [quotes, summary, series] = await Promise.allSettled([
      this.yahoo.quote({ symbols: [sourceSymbol], signal }),
      this.yahoo.quoteSummary({ symbol: sourceSymbol, modules: FUNDAMENTALS_MODULES, signal }),
      this.yahoo.fundamentalsTimeSeries({
        symbol: sourceSymbol,
        types: STATEMENT_TYPES,
        period1: new Date(now - STATEMENT_HISTORY_MS),
        period2: new Date(now),
        signal,
      }),
    ]);
    const failures = new FailureLog();
    const quoteRows = failures.read('quote', FUNDAMENTALS_SECTION.quote, quotes);
    const modules = failures.read('quoteSummary', FUNDAMENTALS_SECTION.quoteSummary, summary);
    const timeseries = failures.read('timeseries', FUNDAMENTALS_SECTION.timeseries, series);
    failures.throwIfNothingSucceeded();

    const row = quoteRows?.find((quote) => quote.symbol.toUpperCase() === sourceSymbol.toUpperCase()) ?? null;
    const stockQuote = row === null ? null : toStockQuote(row);
    const profile = modules?.assetProfile ?? null;
    const quote = stockQuote && { ...stockQuote, sector: profile?.sector ?? null, industry: profile?.industry ?? null };
    const statements = timeseries === null ? { incomeStatement: [], balanceSheet: [], cashFlowStatement: [] } : toStatements(timeseries);
    return {
      quote,
      metrics: modules === null ? [] : toStockMetrics(modules, row?.currency ?? null),
      analystRatings: modules === null ? null : toAnalystRatings(modules),
      ...statements,
      failures: failures.entries,
    };
  }

  async getCompany({ sourceSymbol, signal }: { sourceSymbol: string; signal?: AbortSignal }): Promise<CompanyProfile> {
    const modules = await this.yahoo.quoteSummary({ symbol: sourceSymbol, modules: COMPANY_MODULES, signal });
    const payCurrency = modules.financialData?.financialCurrency ?? modules.price?.currency ?? null;
    return {
      executives: (modules.assetProfile?.officers ?? []).map((officer) => toExecutive(officer, payCurrency)),
      shareholders: (modules.institutionOwnership?.holders ?? []).flatMap((row) => toHolding(row) ?? []),
      funds: (modules.fundOwnership?.holders ?? []).flatMap((row) => toHolding(row) ?? []),
      insiderTransactions: (modules.insiderTransactions?.transactions ?? []).map(toInsiderTransaction),
      failures: [],
    };
  }

  /** Per-symbol news comes from the news sources, not from this vendor. */
  getHeadlines(): Promise<StockHeadline[]> {
    return Promise.reject(new EquitiesUnsupportedError(VENDOR, 'headlines'));
  }
}

/** The SectionFailure of each failed call, and the first error, thrown when no call succeeded. */
class FailureLog {
  readonly entries: SectionFailure[] = [];
  private firstError: UpstreamError | null = null;
  private calls = 0;

  /** The call's value, or null after recording its failure. An abort or a bug is not a section failure: rethrown. */
  read<T>(endpoint: Endpoint, section: string, result: PromiseSettledResult<T>): T | null {
    this.calls += 1;
    if (result.status === 'fulfilled') return result.value;
    const error: unknown = result.reason;
    if (!(error instanceof UpstreamError) || error.kind === 'aborted') throw error;
    this.firstError ??= error;
    this.entries.push({ section, endpoint, message: safeMessage(error) });
    return null;
  }

  throwIfNothingSucceeded(): void {
    if (this.firstError !== null && this.entries.length === this.calls) throw this.firstError;
  }
}

/** Our words for a failed call: UpstreamError messages name hosts and paths, which clients must not see. */
function safeMessage(error: UpstreamError): string {
  switch (error.kind) {
    case 'http':
      if (error.upstreamStatus === 404) return 'not found upstream';
      return error.upstreamStatus === 429 ? 'upstream rate limited' : 'upstream unavailable';
    case 'timeout':
      return 'upstream timed out';
    case 'network':
      return 'upstream unreachable';
    case 'shape':
      return 'unexpected upstream response';
    case 'budget':
      return 'upstream request budget exhausted';
    default:
      return 'upstream unavailable';
  }
}
