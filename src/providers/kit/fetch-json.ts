import { abortableDelay } from '../../common/async/abort';
import { UpstreamError } from './upstream.error';

/** A server's Retry-After is honoured up to this; a longer ask is the server's problem, not a reason to stall a job. */
export const RETRY_AFTER_CAP_MS = 30_000;
const DEFAULT_BACKOFF_BASE_MS = 500;
const DEFAULT_BACKOFF_MAX_MS = 10_000;

export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

export interface FetchJsonOptions {
  url: string;
  method?: 'GET' | 'POST';
  /** Sent as JSON when present. */
  body?: unknown;
  /** Extra request headers (a vendor's key header, the User-Agent SEC asks for). */
  headers?: Readonly<Record<string, string>>;
  /** 'text' returns the body unparsed (RSS and Atom feeds); 'bytes', as a Buffer (compressed files); 'json', the default, parses it. */
  responseType?: 'json' | 'text' | 'bytes';
  /**
   * A conditional GET (the caller sends If-None-Match / If-Modified-Since): a 304 is then an answer, with a
   * null body, not an HTTP error.
   */
  acceptNotModified?: boolean;
  /**
   * Statuses that are an answer rather than a failure (a file host answering 403 for a file not yet
   * published): returned with a null body, never retried.
   */
  acceptStatuses?: readonly number[];
  /** Per attempt, covering the headers and the whole body. */
  timeoutMs: number;
  /** Attempts after the first; only 429, 5xx, timeouts and network failures are retried. */
  maxRetries: number;
  provider: string;
  signal?: AbortSignal;
  /** Injectable so tests do not wait out real backoff. */
  sleep?: Sleep;
  /** Injectable jitter source in [0, 1). */
  random?: () => number;
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  onRetry?: (info: { attempt: number; delayMs: number; error: UpstreamError }) => void;
  /**
   * Awaited before every attempt, the first and each retry (e.g. to spend a rate budget, since each
   * attempt costs the upstream the same); whatever it throws ends the call as it is.
   */
  beforeAttempt?: (attempt: number) => Promise<void>;
}

/** A successful answer: a 2xx, or a 304 or another status the call accepts. */
export interface UpstreamResponse {
  status: number;
  /** The parsed JSON, the text or the bytes; null for a 304 or an accepted status. */
  body: unknown;
  /** For the validators a conditional GET sends next time (ETag, Last-Modified). */
  headers: Headers;
}

type Attempt = { ok: true; response: UpstreamResponse } | { ok: false; error: UpstreamError; retryAfterMs?: number };

const defaultSleep: Sleep = abortableDelay;

/**
 * One JSON (or text) request with a timeout per attempt and exponential backoff with jitter on 429, 5xx,
 * timeouts and network errors (never on another 4xx). Returns the parsed body, still `unknown`:
 * the caller checks its shape. Throws UpstreamError only.
 */
export async function fetchJson(options: FetchJsonOptions): Promise<unknown> {
  return (await fetchUpstream(options)).body;
}

/** fetchJson with the status and the response headers alongside the body. */
export async function fetchUpstream(options: FetchJsonOptions): Promise<UpstreamResponse> {
  const sleep = options.sleep ?? defaultSleep;
  for (let attempt = 1; ; attempt++) {
    await options.beforeAttempt?.(attempt);
    const result = await attemptOnce(options);
    if (result.ok) return result.response;
    const { error } = result;
    if (options.signal?.aborted) throw stoppedError(options, error);
    if (!error.retryable || attempt > options.maxRetries) throw error;
    const delayMs = result.retryAfterMs ?? backoffDelay(attempt, options);
    options.onRetry?.({ attempt, delayMs, error });
    try {
      await sleep(delayMs, options.signal);
    } catch {
      throw stoppedError(options, error);
    }
    if (options.signal?.aborted) throw stoppedError(options, error);
  }
}

/**
 * The error of a call whose caller's signal aborted after `lastError`: past the caller's deadline (a
 * timeout signal) that failure is the upstream's answer, as nothing came in the time it had; any other
 * abort is the caller stopping.
 */
function stoppedError(options: FetchJsonOptions, lastError: UpstreamError): UpstreamError {
  return isDeadline(options.signal) ? lastError : abortedError(options);
}

/** Whether `signal` aborted because a deadline passed (AbortSignal.timeout), not because someone stopped. */
function isDeadline(signal: AbortSignal | undefined): boolean {
  const reason: unknown = signal?.reason;
  return typeof reason === 'object' && reason !== null && (reason as { name?: unknown }).name === 'TimeoutError';
}

async function attemptOnce(options: FetchJsonOptions): Promise<Attempt> {
  const { url, method = 'GET', body, timeoutMs, provider, responseType = 'json' } = options;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
  const target = describe(method, url);
  const failed = (err: unknown): Attempt => ({ ok: false, error: classify(err, timeout, options, target) });

  let res: Response;
  try {
    res = await fetch(url, {
      method,
      headers: requestHeaders(options),
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
    });
  } catch (err) {
    return failed(err);
  }

  if ((res.status === 304 && options.acceptNotModified) || options.acceptStatuses?.includes(res.status)) {
    await res.body?.cancel().catch(() => undefined);
    return { ok: true, response: { status: res.status, body: null, headers: res.headers } };
  }

  if (!res.ok) {
    // Cancel the body so the connection is freed without reading an error page.
    await res.body?.cancel().catch(() => undefined);
    const error = new UpstreamError({ provider, kind: 'http', upstreamStatus: res.status, message: `HTTP ${res.status} from ${target}` });
    return { ok: false, error, retryAfterMs: error.retryable ? parseRetryAfter(res.headers.get('retry-after')) : undefined };
  }

  const answered = (value: unknown): Attempt => ({ ok: true, response: { status: res.status, body: value, headers: res.headers } });
  if (responseType === 'bytes') {
    try {
      return answered(Buffer.from(await res.arrayBuffer()));
    } catch (err) {
      return failed(err);
    }
  }
  let text: string;
  try {
    text = await res.text();
  } catch (err) {
    return failed(err);
  }
  if (responseType === 'text') return answered(text);
  try {
    return answered(JSON.parse(text) as unknown);
  } catch {
    return { ok: false, error: new UpstreamError({ provider, kind: 'shape', message: `response of ${target} is not JSON` }) };
  }
}

function requestHeaders({ body, headers, responseType = 'json' }: FetchJsonOptions): Record<string, string> {
  const accept = responseType === 'json' ? 'application/json' : '*/*';
  return { accept, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers };
}

function classify(err: unknown, timeout: AbortSignal, options: FetchJsonOptions, target: string): UpstreamError {
  const { provider, timeoutMs } = options;
  if (timeout.aborted) return new UpstreamError({ provider, kind: 'timeout', message: `no complete response from ${target} within ${timeoutMs} ms` });
  if (isDeadline(options.signal)) return new UpstreamError({ provider, kind: 'timeout', message: `no complete response from ${target} by the deadline` });
  if (options.signal?.aborted) return abortedError(options);
  return new UpstreamError({ provider, kind: 'network', message: `network error on ${target} (${networkCode(err)})`, cause: err });
}

function abortedError({ provider, method = 'GET', url }: FetchJsonOptions): UpstreamError {
  return new UpstreamError({ provider, kind: 'aborted', message: `${describe(method, url)} aborted by the caller` });
}

/** Equal jitter: half the exponential step is fixed, half random, so replicas do not retry in lockstep. */
function backoffDelay(attempt: number, options: FetchJsonOptions): number {
  const base = options.backoffBaseMs ?? DEFAULT_BACKOFF_BASE_MS;
  const max = options.backoffMaxMs ?? DEFAULT_BACKOFF_MAX_MS;
  const step = Math.min(max, base * 2 ** (attempt - 1));
  return Math.round(step / 2 + (options.random ?? Math.random)() * (step / 2));
}

/** Retry-After as delta-seconds or an HTTP date, capped; undefined when absent or unreadable. */
export function parseRetryAfter(header: string | null, now = Date.now()): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  const trimmed = header.trim();
  let ms: number;
  if (/^\d+$/.test(trimmed)) ms = Number(trimmed) * 1000;
  else {
    const at = Date.parse(trimmed);
    if (Number.isNaN(at)) return undefined;
    ms = Math.max(0, at - now);
  }
  return Math.min(ms, RETRY_AFTER_CAP_MS);
}

/** Method, origin and path only: a query string may carry something that does not belong in a log. */
function describe(method: string, url: string): string {
  try {
    const parsed = new URL(url);
    return `${method} ${parsed.origin}${parsed.pathname}`;
  } catch {
    return `${method} <invalid url>`;
  }
}

function networkCode(err: unknown): string {
  const cause = (err as { cause?: { code?: unknown } } | undefined)?.cause;
  if (cause && typeof cause.code === 'string') return cause.code;
  if (err instanceof Error) return err.name;
  return 'unknown';
}
