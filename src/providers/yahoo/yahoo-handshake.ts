import { UpstreamError } from '../kit/upstream.error';
import { YAHOO_PROVIDER } from './yahoo-values';

/** Yahoo answers clients that name no browser with 429s sooner. */
export const YAHOO_USER_AGENT = 'Mozilla/5.0 (compatible; market-data-api/1.0)';

/** What a crumb looks like (letters, digits, '.', '/', '_' and '-'); "Too Many Requests", HTML or blanks are not one. */
const CRUMB_PATTERN = /^[A-Za-z0-9./_-]{5,64}$/;
const TOO_MANY_REQUESTS = /too many requests/i;
const CONSENT_LOCATION = /consent|guce\./i;

/** The cookie the crumb is bound to, and the crumb. Secrets: never logged nor put in an error message. */
export interface YahooSession {
  cookie: string;
  crumb: string;
}

export interface HandshakeOptions {
  cookieUrl: string;
  queryUrl: string;
  /** Per request, covering the headers and the whole body. */
  timeoutMs: number;
  signal?: AbortSignal;
  /** Awaited before each of the two requests (to spend the shared request budget). */
  beforeRequest?: () => Promise<void>;
}

/** Yahoo answered 429 (or "Too Many Requests" as the crumb): the caller backs off for minutes, not seconds. */
export class CrumbRateLimitedError extends UpstreamError {
  constructor(step: string) {
    super({ provider: YAHOO_PROVIDER, kind: 'http', upstreamStatus: 429, message: `${step}: too many requests` });
  }
}

/**
 * The cookie-and-crumb handshake: the cookie page's Set-Cookie, then `/v1/test/getcrumb` with that
 * cookie. Made with node's fetch rather than the kit's fetch-json, which neither exposes Set-Cookie nor
 * stops at a redirect; the timeout and the error kinds are the kit's. One attempt per step, no retry: a
 * handshake that fails is retried by the next call, after the caller's backoff.
 */
export async function performHandshake(options: HandshakeOptions): Promise<YahooSession> {
  const cookie = await fetchSessionCookie(options);
  const crumb = await fetchCrumb(options, cookie);
  return { cookie, crumb };
}

async function fetchSessionCookie(options: HandshakeOptions): Promise<string> {
  const step = 'cookie page';
  const { res } = await send(options, step, options.cookieUrl, { accept: 'text/html' });
  await res.body?.cancel().catch(() => undefined);
  if (res.status === 429) throw new CrumbRateLimitedError(step);
  if (res.status >= 300 && res.status < 400) {
    const consent = CONSENT_LOCATION.test(res.headers.get('location') ?? '');
    throw httpError(step, res.status, consent ? 'redirected to a consent page' : 'redirected');
  }
  if (res.status >= 500) throw httpError(step, res.status, `HTTP ${res.status}`);
  // The cookie host answers 404 with the cookie set; any other answer without one is a page we cannot use.
  const cookie = cookieHeaderFrom(res.headers.getSetCookie());
  if (cookie === null) {
    if (res.ok) throw new UpstreamError({ provider: YAHOO_PROVIDER, kind: 'shape', message: `${step}: set no cookie` });
    throw httpError(step, res.status, `HTTP ${res.status} without a cookie`);
  }
  return cookie;
}

async function fetchCrumb(options: HandshakeOptions, cookie: string): Promise<string> {
  const step = 'getcrumb';
  const { res, timeout } = await send(options, step, `${options.queryUrl}/v1/test/getcrumb`, { accept: 'text/plain', cookie });
  if (!res.ok) {
    await res.body?.cancel().catch(() => undefined);
    if (res.status === 429) throw new CrumbRateLimitedError(step);
    throw httpError(step, res.status, `HTTP ${res.status}`);
  }
  let text: string;
  try {
    text = (await res.text()).trim();
  } catch (err) {
    throw classify(err, options, step, timeout);
  }
  if (TOO_MANY_REQUESTS.test(text)) throw new CrumbRateLimitedError(step);
  if (!CRUMB_PATTERN.test(text)) throw new UpstreamError({ provider: YAHOO_PROVIDER, kind: 'shape', message: `${step}: the answer is not a crumb` });
  return text;
}

type Sent = { res: Response; timeout: AbortSignal };

async function send(options: HandshakeOptions, step: string, url: string, headers: Record<string, string>): Promise<Sent> {
  await options.beforeRequest?.();
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
  try {
    const res = await fetch(url, { headers: { 'user-agent': YAHOO_USER_AGENT, ...headers }, redirect: 'manual', signal });
    return { res, timeout };
  } catch (err) {
    throw classify(err, options, step, timeout);
  }
}

/** `name=value` of every cookie set (attributes dropped), as one Cookie header; null when none is set. */
function cookieHeaderFrom(setCookies: string[]): string | null {
  const pairs = setCookies.map((line) => line.split(';', 1)[0].trim()).filter((pair) => /^[^=\s]+=\S/.test(pair));
  return pairs.length === 0 ? null : pairs.join('; ');
}

function httpError(step: string, status: number, problem: string): UpstreamError {
  return new UpstreamError({ provider: YAHOO_PROVIDER, kind: 'http', upstreamStatus: status, message: `${step}: ${problem}` });
}

/** As the kit classifies a failed fetch: our timeout, the caller's abort, else the network. */
function classify(err: unknown, options: HandshakeOptions, step: string, timeout: AbortSignal): UpstreamError {
  const provider = YAHOO_PROVIDER;
  if (timeout.aborted) return new UpstreamError({ provider, kind: 'timeout', message: `${step}: no complete response within ${options.timeoutMs} ms` });
  if (options.signal?.aborted) return new UpstreamError({ provider, kind: 'aborted', message: `${step}: aborted by the caller` });
  const code = (err as { cause?: { code?: unknown } } | undefined)?.cause?.code;
  return new UpstreamError({ provider, kind: 'network', message: `${step}: network error (${typeof code === 'string' ? code : 'unknown'})`, cause: err });
}
