import { IncomingMessage, ServerResponse } from 'node:http';
import { send } from '../http-io';
import { clientOf, jsonError, queryOf, sendJson } from '../json-reply';
import { SimRequestError } from '../sim-request-error';
import { ProtocolContext, StartedProtocol } from '../simulator-protocol';
import { WeightBudget } from '../hyperliquid/weight-budget';
import { CrumbSessions, DEFAULT_CRUMB_TTL_MS, sessionCookie } from './crumb-sessions';
import { chart, ChartRequest, spark } from './yahoo-chart';
import { quoteResult } from './yahoo-quote';
import { quoteSummary } from './yahoo-quote-summary';
import { timeseries, TimeseriesRequest } from './yahoo-timeseries';

export const YAHOO_PATH = '/yahoo';
export const YAHOO_COOKIE_PATH = `${YAHOO_PATH}/cookie`;
/** Yahoo publishes no limit; about one call a second is what keeps clients unblocked. */
export const YAHOO_DEFAULT_CALLS_PER_MINUTE = 60;
const INVALID_CRUMB = { finance: { result: null, error: { code: 'Unauthorized', description: 'Invalid Crumb' } } };
const INVALID_COOKIE = { finance: { result: null, error: { code: 'Unauthorized', description: 'Invalid Cookie' } } };

export interface YahooCounters {
  requestsByPath: Record<string, number>;
  rateLimited: number;
  unauthorized: number;
  crumbsIssued: number;
}

export interface YahooSimulation extends StartedProtocol {
  counters: YahooCounters;
  resetCounters(): void;
}

function emptyCounters(): YahooCounters {
  return { requestsByPath: {}, rateLimited: 0, unauthorized: 0, crumbsIssued: 0 };
}

/** A Unix-seconds query parameter, or null when absent or not a whole number. */
function secondsParam(query: URLSearchParams, name: string): number | null {
  const raw = query.get(name);
  return raw === null || !/^\d+$/.test(raw) ? null : Number(raw);
}

function chartRequest(query: URLSearchParams): ChartRequest {
  return {
    interval: query.get('interval') ?? '1d',
    range: query.get('range'),
    period1: secondsParam(query, 'period1'),
    period2: secondsParam(query, 'period2'),
  };
}

function timeseriesRequest(query: URLSearchParams): TimeseriesRequest {
  const types = (query.get('type') ?? '')
    .split(',')
    .map((type) => type.trim())
    .filter(Boolean);
  return { types, period1: secondsParam(query, 'period1'), period2: secondsParam(query, 'period2') };
}

function symbolsOf(query: URLSearchParams): string[] {
  return (query.get('symbols') ?? '')
    .split(',')
    .map((symbol) => symbol.trim().toUpperCase())
    .filter(Boolean);
}

/**
 * The local Yahoo Finance query host under `/yahoo`: the cookie page, `getcrumb`, quote and quoteSummary (cookie +
 * crumb), chart, spark and the fundamentals time series (open, as upstream), with a per-minute call budget per
 * address.
 */
export function startYahoo({ world, options, clock }: ProtocolContext): YahooSimulation {
  const budget = new WeightBudget(options.yahooCallsPerMinute ?? YAHOO_DEFAULT_CALLS_PER_MINUTE);
  const sessions = new CrumbSessions(world.seed, options.yahooCrumbTtlMs ?? DEFAULT_CRUMB_TTL_MS);
  const counters = emptyCounters();
  const book = world.markets;

  const route = (req: IncomingMessage, res: ServerResponse, path: string, now: number): void => {
    const query = queryOf(req.url);
    const cookie = sessionCookie(req.headers.cookie);
    if (path === YAHOO_COOKIE_PATH) {
      // fc.yahoo.com answers 404 and sets the session cookie anyway; clients read the header, not the status.
      const issued = sessions.newCookie(now);
      return send(res, 404, '<html><body>Not Found</body></html>', 'text/html', { 'set-cookie': issued.header });
    }
    if (path === `${YAHOO_PATH}/v1/test/getcrumb`) {
      const crumb = sessions.crumbFor(cookie, now);
      if (crumb === null) throw jsonError(401, INVALID_COOKIE);
      counters.crumbsIssued++;
      return send(res, 200, crumb, 'text/plain');
    }
    if (path === `${YAHOO_PATH}/v7/finance/quote`) {
      if (!sessions.valid(cookie, query.get('crumb'), now)) throw jsonError(401, INVALID_CRUMB);
      const result = symbolsOf(query).flatMap((symbol) => {
        const listing = book.listing(symbol);
        return listing ? [quoteResult(book, listing, now)] : [];
      });
      return sendJson(res, 200, { quoteResponse: { result, error: null } });
    }
    const summaryMatch = new RegExp(`^${YAHOO_PATH}/v10/finance/quoteSummary/([^/]+)$`).exec(path);
    if (summaryMatch) {
      if (!sessions.valid(cookie, query.get('crumb'), now)) throw jsonError(401, INVALID_CRUMB);
      const reply = quoteSummary(book, decodeURIComponent(summaryMatch[1]).toUpperCase(), query.get('modules'), now);
      return sendJson(res, reply.status, reply.body);
    }
    const seriesMatch = new RegExp(`^${YAHOO_PATH}/ws/fundamentals-timeseries/v1/finance/timeseries/([^/]+)$`).exec(path);
    if (seriesMatch) return sendJson(res, 200, timeseries(book, decodeURIComponent(seriesMatch[1]).toUpperCase(), timeseriesRequest(query), now));
    if (path === `${YAHOO_PATH}/v7/finance/spark`) return sendJson(res, 200, spark(book, symbolsOf(query), chartRequest(query), now));
    const chartMatch = new RegExp(`^${YAHOO_PATH}/v8/finance/chart/([^/]+)$`).exec(path);
    if (chartMatch) return sendJson(res, 200, chart(book, decodeURIComponent(chartMatch[1]).toUpperCase(), chartRequest(query), now));
    send(res, 404, 'Not Found', 'text/plain');
  };

  const handle = async (req: IncomingMessage, res: ServerResponse, path: string): Promise<void> => {
    if (req.method !== 'GET') return send(res, 405, 'Method Not Allowed', 'text/plain');
    const now = clock();
    const decision = budget.reserve(clientOf(req.socket.remoteAddress), 1, now);
    if (!decision.allowed) {
      counters.rateLimited++;
      return send(res, 429, 'Too Many Requests\r\n', 'text/plain', { 'retry-after': String(decision.retryAfterSeconds) });
    }
    counters.requestsByPath[path] = (counters.requestsByPath[path] ?? 0) + 1;
    try {
      route(req, res, path, now);
    } catch (error) {
      if (error instanceof SimRequestError) {
        if (error.status === 401) counters.unauthorized++;
        return send(res, error.status, error.body, error.contentType);
      }
      throw error;
    }
  };

  return { counters, resetCounters: () => Object.assign(counters, emptyCounters()), handle };
}
