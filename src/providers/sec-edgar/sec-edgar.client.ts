import { Inject, Injectable, Logger, OnModuleDestroy, Optional } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { AppConfig } from '../../config/app.config';
import { KV_STORE, KvStore } from '../../infra/kv/kv-store';
import { RequestBudget } from '../kit/request-budget';
import { UpstreamCache } from '../kit/upstream-cache';
import { UpstreamCircuit } from '../kit/upstream-circuit';
import { UPSTREAM_CLOCK, UpstreamClock } from '../kit/upstream-clock';
import { UpstreamHttpClient } from '../kit/upstream-http.client';
import { asCik, parseCompanyTickers, parseSubmissions, parseSubmissionsPage, SUBMISSIONS_PAGE_NAME } from './sec-edgar.schema';
import { SEC_EDGAR_PROVIDER, SecCompanyTicker, SecFilingRow, SecRegistrant, SecSubmissions } from './sec-edgar.types';

/** SEC counts requests per second. */
export const SEC_WINDOW_MS = 1_000;
/** A request a client waits on gives up rather than queue longer than this behind the per-second budget. */
export const SEC_MAX_BUDGET_WAIT_MS = 10_000;
/** company_tickers.json changes about daily: served from the KV store this long, and up to a week while SEC fails. */
const TICKERS_FRESH_MS = 12 * 3_600_000;
const TICKERS_STALE_LIMIT_MS = 7 * 24 * 3_600_000;
/** Each replica keeps the parsed map this long rather than parse ~10,000 entries from the KV store per lookup. */
const TICKERS_MEMO_MS = 10 * 60_000;

type SecSettings = AppConfig['stockVendors']['sec'];

/**
 * Typed client of SEC EDGAR: the ticker map (www.sec.gov/files/company_tickers.json), a registrant's
 * submissions (data.sec.gov/submissions/CIK##########.json) and their older pages. Every request carries the
 * declared User-Agent SEC requires (403 without it) and spends one from the per-second budget all replicas
 * share (SEC allows 10 a second per user across machines and blocks the address for minutes past it), with
 * the market vendors' timeout and retries. Returns typed data or throws UpstreamError.
 */
@Injectable()
export class SecEdgarClient implements OnModuleDestroy {
  /** Exposed so tests can see what was spent; the pool itself lives in the KV store (`budget:sec-edgar:<second>`). */
  readonly budget: RequestBudget;
  private readonly http: UpstreamHttpClient;
  private readonly sec: SecSettings;
  private readonly tickersCache: UpstreamCache;
  private memo?: { loadedAt: number; byTicker: ReadonlyMap<string, SecRegistrant> };

  constructor(config: ConfigService<AppConfig, true>, @Inject(KV_STORE) kv: KvStore, @Optional() @Inject(UPSTREAM_CLOCK) now?: UpstreamClock) {
    this.sec = config.get('stockVendors', { infer: true }).sec;
    const { timeoutMs, maxRetries } = config.get('marketVendors', { infer: true });
    this.budget = new RequestBudget({ kv, provider: SEC_EDGAR_PROVIDER, weightPerWindow: this.sec.requestsPerSecond, windowMs: SEC_WINDOW_MS });
    // Constructed whichever filings vendor is chosen (provider slots build every vendor): no User-Agent, no header; requests then refuse.
    this.http = new UpstreamHttpClient({
      provider: SEC_EDGAR_PROVIDER,
      timeoutMs,
      maxRetries,
      budget: this.budget,
      maxBudgetWaitMs: SEC_MAX_BUDGET_WAIT_MS,
      headers: this.sec.userAgent ? { 'user-agent': this.sec.userAgent } : {},
      circuit: new UpstreamCircuit({ provider: SEC_EDGAR_PROVIDER, now }),
      logger: new Logger(SecEdgarClient.name),
    });
    this.tickersCache = new UpstreamCache(kv, { name: 'sec-edgar.company-tickers', freshTtlMs: TICKERS_FRESH_MS, staleLimitMs: TICKERS_STALE_LIMIT_MS });
  }

  onModuleDestroy(): void {
    this.http.close();
  }

  /** Ticker (upper case, SEC's "BRK-B" notation) -> registrant; several tickers may share one CIK. */
  async tickers(signal?: AbortSignal): Promise<ReadonlyMap<string, SecRegistrant>> {
    if (this.memo && Date.now() - this.memo.loadedAt < TICKERS_MEMO_MS) return this.memo.byTicker;
    const rows = await this.tickersCache.get('all', () => this.companyTickers(signal));
    const byTicker = new Map<string, SecRegistrant>();
    for (const { ticker, cik, name } of rows) if (!byTicker.has(ticker)) byTicker.set(ticker, { cik, name });
    this.memo = { loadedAt: Date.now(), byTicker };
    return byTicker;
  }

  /** The registrant listed under `symbol` ("BRK.B" reads as SEC's "BRK-B"); null when SEC lists no such ticker. */
  async registrant(symbol: string, signal?: AbortSignal): Promise<SecRegistrant | null> {
    const ticker = symbol.trim().toUpperCase().replace(/\./g, '-');
    return (await this.tickers(signal)).get(ticker) ?? null;
  }

  /** The registrant's filing index: recent filings newest first, and the older pages to read with submissionsFile. */
  submissions(cik: string, signal?: AbortSignal): Promise<SecSubmissions> {
    const padded = asCik(cik, 'cik');
    return this.get({ label: 'submissions', url: `${this.sec.dataUrl}/submissions/CIK${padded}.json`, parse: parseSubmissions, signal });
  }

  /** One older page named in `submissions(cik).files`, newest first as SEC lists them. */
  submissionsFile(name: string, signal?: AbortSignal): Promise<SecFilingRow[]> {
    if (!SUBMISSIONS_PAGE_NAME.test(name)) throw new RangeError(`name: expected CIK##########-submissions-###.json, got "${name}"`);
    return this.get({ label: 'submissions/page', url: `${this.sec.dataUrl}/submissions/${name}`, parse: parseSubmissionsPage, signal });
  }

  /** Where the filing's main document is: /Archives/edgar/data/{cik, unpadded}/{accession, no dashes}/{primaryDocument}. */
  documentUrl(cik: string, { accessionNumber, primaryDocument }: Pick<SecFilingRow, 'accessionNumber' | 'primaryDocument'>): string {
    const folder = `${Number(asCik(cik, 'cik'))}/${accessionNumber.replace(/-/g, '')}`;
    return `${this.sec.archivesUrl}/Archives/edgar/data/${folder}/${primaryDocument.split('/').map(encodeURIComponent).join('/')}`;
  }

  private companyTickers(signal?: AbortSignal): Promise<SecCompanyTicker[]> {
    return this.get({ label: 'company_tickers', url: `${this.sec.filesUrl}/files/company_tickers.json`, parse: parseCompanyTickers, signal });
  }

  private get<T>({ label, url, parse, signal }: { label: string; url: string; parse: (json: unknown) => T; signal?: AbortSignal }): Promise<T> {
    // SEC blocks undeclared clients for minutes; never send one. Configuration guarantees it when SEC is the vendor.
    if (!this.sec.userAgent) return Promise.reject(new Error('sec-edgar: SEC_USER_AGENT is not set'));
    return this.http.request({ label, url, parse, signal });
  }
}
