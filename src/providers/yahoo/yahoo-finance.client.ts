import { Inject, Injectable, Logger, OnModuleDestroy, Optional } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { abortError } from '../../common/async/abort';
import { AppConfig } from '../../config/app.config';
import { KV_STORE, KvStore } from '../../infra/kv/kv-store';
import { Candle } from '../market-data-provider';
import { RequestBudget } from '../kit/request-budget';
import { UpstreamCircuit } from '../kit/upstream-circuit';
import { UPSTREAM_CLOCK, UpstreamClock } from '../kit/upstream-clock';
import { UpstreamHttpClient } from '../kit/upstream-http.client';
import { UpstreamError } from '../kit/upstream.error';
import { parseChart, parseSpark, SparkSeries } from './yahoo-chart.schema';
import { performHandshake, YAHOO_USER_AGENT, YahooSession } from './yahoo-handshake';
import { parseQuoteResponse, YahooQuote } from './yahoo-quote.schema';
import { parseQuoteSummary, YahooQuoteSummary, YahooQuoteSummaryModule } from './yahoo-quote-summary.schema';
import { YahooSessionKeeper } from './yahoo-session';
import { parseTimeseries, YahooTimeseries } from './yahoo-timeseries.schema';
import { isCrumbRejection, YAHOO_PROVIDER } from './yahoo-values';

/** Most symbols one `/v7/finance/quote` call takes; longer lists are sent in batches of this size. */
export const YAHOO_QUOTE_BATCH = 50;
/** Most symbols one `/v7/finance/spark` call takes. */
export const YAHOO_SPARK_BATCH = 20;
const CALLS_WINDOW_MS = 60_000;

export type YahooInterval = '1h' | '1d';
export type YahooRange = '1d' | '5d' | '1mo' | '3mo' | '6mo' | '1y' | '2y' | '5y' | '10y' | 'ytd' | 'max';

/**
 * Yahoo Finance has no official API, and its terms do not license redistribution of its data.
 *
 * Typed client of Yahoo's public JSON endpoints: quote and quoteSummary (need the cookie-and-crumb session,
 * shared by all replicas and renewed once when Yahoo refuses it), chart, spark and the fundamentals time
 * series (no session). Every request spends one call from the `callsPerMinute` budget shared by all
 * replicas, has the configured timeout and retries, and is shape-checked tolerantly (unknown keys ignored,
 * missing figures null). Failures are UpstreamError; the cookie and crumb never appear in an error or a log
 * line.
 */
@Injectable()
export class YahooFinanceClient implements OnModuleDestroy {
  /** Exposed so tests and jobs can see what was spent; the pool itself lives in the KV store. */
  readonly budget: RequestBudget;
  private readonly http: UpstreamHttpClient;
  private readonly sessions: YahooSessionKeeper;
  private readonly stopping = new AbortController();
  private readonly logger = new Logger(YahooFinanceClient.name);

  constructor(
    private readonly config: ConfigService<AppConfig, true>,
    @Inject(KV_STORE) kv: KvStore,
    @Optional() @Inject(UPSTREAM_CLOCK) now?: UpstreamClock,
  ) {
    const { yahoo, timeoutMs, maxRetries } = this.settings;
    this.budget = new RequestBudget({ kv, provider: YAHOO_PROVIDER, weightPerWindow: yahoo.callsPerMinute, windowMs: CALLS_WINDOW_MS });
    this.http = new UpstreamHttpClient({
      provider: YAHOO_PROVIDER,
      timeoutMs,
      maxRetries,
      budget: this.budget,
      headers: { 'user-agent': YAHOO_USER_AGENT },
      circuit: new UpstreamCircuit({ provider: YAHOO_PROVIDER, now }),
      logger: this.logger,
    });
    this.sessions = new YahooSessionKeeper({
      kv,
      // Two requests, each with its timeout, plus a margin for the budget and the store.
      handshakeTimeoutMs: 2 * timeoutMs + 5_000,
      handshake: (signal) => this.handshake(signal),
    });
  }

  /** At shutdown: calls in flight, waiting for budget or for the crumb end at once, as aborts. */
  onModuleDestroy(): void {
    this.stopping.abort(abortError('shutting down'));
    this.http.close();
  }

  /** Quotes in Yahoo's order, batched by YAHOO_QUOTE_BATCH; unknown symbols are absent. */
  async quote({ symbols, signal }: { symbols: readonly string[]; signal?: AbortSignal }): Promise<YahooQuote[]> {
    const quotes: YahooQuote[] = [];
    for (const batch of chunk(symbols, YAHOO_QUOTE_BATCH)) {
      const query = `symbols=${encodeURIComponent(batch.join(','))}`;
      quotes.push(...(await this.withSession(signal, (session) => this.quoteBatch(query, session, signal))));
    }
    return quotes;
  }

  /** Bars ascending by openTime; a range without trading gives []. */
  chart({ symbol, interval, range, signal }: { symbol: string; interval: YahooInterval; range: YahooRange; signal?: AbortSignal }): Promise<Candle[]> {
    const query = new URLSearchParams({ interval, range, includePrePost: 'false' });
    return this.http.request({
      label: 'chart',
      url: `${this.settings.yahoo.queryUrl}/v8/finance/chart/${encodeURIComponent(symbol)}?${query}`,
      parse: (json) => parseChart(json),
      signal,
    });
  }

  /** Closes per symbol, batched by YAHOO_SPARK_BATCH; for sparklines and 7-day changes. */
  async spark(params: { symbols: readonly string[]; interval: YahooInterval; range: YahooRange; signal?: AbortSignal }): Promise<SparkSeries[]> {
    const { symbols, interval, range, signal } = params;
    const series: SparkSeries[] = [];
    for (const batch of chunk(symbols, YAHOO_SPARK_BATCH)) {
      const query = new URLSearchParams({ symbols: batch.join(','), interval, range });
      const url = `${this.settings.yahoo.queryUrl}/v7/finance/spark?${query}`;
      series.push(...(await this.http.request({ label: 'spark', url, parse: (json) => parseSpark(json), signal })));
    }
    return series;
  }

  /**
   * The asked modules of one symbol, each null when Yahoo has none for it. Needs the session, as quote does.
   * `formatted=false` asks for plain numbers, as in the recorded bodies; `{raw, fmt}` is read all the same.
   * An unknown symbol is a 404 (kind 'http').
   */
  quoteSummary<K extends YahooQuoteSummaryModule>({
    symbol,
    modules,
    signal,
  }: {
    symbol: string;
    modules: readonly K[];
    signal?: AbortSignal;
  }): Promise<YahooQuoteSummary<K>> {
    const query = new URLSearchParams({ modules: modules.join(','), formatted: 'false' });
    const path = `/v10/finance/quoteSummary/${encodeURIComponent(symbol)}?${query}`;
    return this.withSession(signal, (session) =>
      this.http.request({
        label: 'quoteSummary',
        url: `${this.settings.yahoo.queryUrl}${path}&crumb=${encodeURIComponent(session.crumb)}`,
        headers: { cookie: session.cookie },
        parse: (json) => parseQuoteSummary(json, modules),
        signal,
      }),
    );
  }

  /**
   * Reported statement figures per type (`annualTotalRevenue`, `quarterlyNetIncome`) for periods ending
   * between period1 and period2; no session needed. Types Yahoo has nothing for come back with no points.
   */
  fundamentalsTimeSeries(params: { symbol: string; types: readonly string[]; period1: Date; period2: Date; signal?: AbortSignal }): Promise<YahooTimeseries[]> {
    const { symbol, types, period1, period2, signal } = params;
    const query = new URLSearchParams({ type: types.join(','), period1: unixSeconds(period1), period2: unixSeconds(period2) });
    return this.http.request({
      label: 'timeseries',
      url: `${this.settings.yahoo.queryUrl}/ws/fundamentals-timeseries/v1/finance/timeseries/${encodeURIComponent(symbol)}?${query}`,
      parse: (json) => parseTimeseries(json),
      signal,
    });
  }

  private get settings(): AppConfig['marketVendors'] {
    return this.config.get('marketVendors', { infer: true });
  }

  private quoteBatch(query: string, session: YahooSession, signal?: AbortSignal): Promise<YahooQuote[]> {
    return this.http.request({
      label: 'quote',
      // fetch-json logs method, host and path only, so the crumb in the query stays out of logs.
      url: `${this.settings.yahoo.queryUrl}/v7/finance/quote?${query}&crumb=${encodeURIComponent(session.crumb)}`,
      headers: { cookie: session.cookie },
      parse: (json) => parseQuoteResponse(json),
      signal,
    });
  }

  /** Runs `call` with the shared session; when Yahoo refuses the crumb, renews it once and runs it again. */
  private async withSession<T>(signal: AbortSignal | undefined, call: (session: YahooSession) => Promise<T>): Promise<T> {
    const session = await this.sessions.current(this.linked(signal));
    try {
      return await call(session);
    } catch (err) {
      if (!isCrumbRejection(err)) throw err;
      return call(await this.sessions.renew(session, this.linked(signal)));
    }
  }

  private async handshake(signal?: AbortSignal): Promise<YahooSession> {
    const { yahoo, timeoutMs } = this.settings;
    try {
      return await performHandshake({
        cookieUrl: yahoo.cookieUrl,
        queryUrl: yahoo.queryUrl,
        timeoutMs,
        signal,
        beforeRequest: () => this.budget.spend(1, signal ? { signal } : {}),
      });
    } catch (err) {
      // The messages name the step and the problem only, never the cookie or the crumb.
      if (err instanceof UpstreamError && err.kind !== 'aborted') this.logger.warn(`crumb handshake failed (${err.kind}): ${err.message}`);
      throw err;
    }
  }

  private linked(signal?: AbortSignal): AbortSignal {
    return signal ? AbortSignal.any([this.stopping.signal, signal]) : this.stopping.signal;
  }
}

function unixSeconds(date: Date): string {
  return String(Math.floor(date.getTime() / 1000));
}

function chunk<T>(items: readonly T[], size: number): T[][] {
  const batches: T[][] = [];
  for (let i = 0; i < items.length; i += size) batches.push(items.slice(i, i + size));
  return batches;
}
