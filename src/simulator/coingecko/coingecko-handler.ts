import { IncomingMessage, ServerResponse } from 'node:http';
import { send } from '../http-io';
import { clientOf, jsonError, queryOf, sendJson } from '../json-reply';
import { SimRequestError } from '../sim-request-error';
import { ProtocolContext, StartedProtocol } from '../simulator-protocol';
import { WeightBudget } from '../hyperliquid/weight-budget';
import { CryptoCoin } from '../world/crypto-universe';
import { MarketBook } from '../world/market-book';
import { coinDetail } from './coin-detail';
import { coinOhlc, marketItem, PCT_WINDOWS } from './coin-markets';
import { coinTickers, derivatives } from './coin-tickers';
import { globalStats, search } from './global-and-search';
import { rwaRoute } from './rwas';
import { unitsPerUsd } from './vs-currencies';

export const COINGECKO_PATH = '/coingecko/api/v3';
/** The demo plan's published limit (it varies with load upstream); the simulator's unless told otherwise. */
export const COINGECKO_DEMO_CALLS_PER_MINUTE = 30;
const MAX_PER_PAGE = 250;
const DEFAULT_PER_PAGE = 100;
const TICKERS_PER_PAGE = 100;
const OHLC_DAYS = new Set(['1', '7', '14', '30', '90', '180', '365']);
const RATE_LIMITED = {
  status: {
    error_code: 429,
    error_message:
      "You've exceeded the Rate Limit. Please visit https://www.coingecko.com/en/api/pricing to subscribe to our API plans for higher rate limits.",
  },
};
const COIN_NOT_FOUND = { error: 'coin not found' };

export interface CoinGeckoCounters {
  requestsByRoute: Record<string, number>;
  rateLimited: number;
  /** Requests that carried a demo or pro key. */
  keyed: number;
}

export interface CoinGeckoSimulation extends StartedProtocol {
  counters: CoinGeckoCounters;
  resetCounters(): void;
}

function emptyCounters(): CoinGeckoCounters {
  return { requestsByRoute: {}, rateLimited: 0, keyed: 0 };
}

function positiveInt(raw: string | null, fallback: number): number {
  const value = Number(raw);
  return raw !== null && Number.isInteger(value) && value > 0 ? value : fallback;
}

/** Units of vs_currency per USD over time; 422 without one, as upstream. */
function vsRate(book: MarketBook, query: URLSearchParams): (t: number) => number {
  const currency = query.get('vs_currency')?.toLowerCase();
  if (!currency) throw jsonError(422, { error: 'Missing parameter vs_currency' });
  if (unitsPerUsd(book, currency, 0) === undefined) throw jsonError(400, { error: 'invalid vs_currency' });
  return (t) => unitsPerUsd(book, currency, t) as number;
}

function sortCoins(book: MarketBook, order: string, t: number): CryptoCoin[] {
  const byCap = book.coinsByMarketCap(t);
  switch (order) {
    case 'market_cap_asc':
      return byCap.reverse();
    case 'volume_desc':
    case 'volume_asc': {
      const sign = order === 'volume_desc' ? -1 : 1;
      return byCap.sort((a, b) => sign * (book.coinVolume24h(a, t) - book.coinVolume24h(b, t)));
    }
    case 'id_asc':
    case 'id_desc':
      return byCap.sort((a, b) => (a.id < b.id ? -1 : 1) * (order === 'id_asc' ? 1 : -1));
    default:
      return byCap;
  }
}

function coinsMarkets(book: MarketBook, query: URLSearchParams, t: number): object[] {
  const rate = vsRate(book, query);
  const ranks = new Map(book.coinsByMarketCap(t).map((coin, k) => [coin, k + 1]));
  const ids = query.get('ids');
  const wanted = ids === null ? null : new Set(ids.split(',').map((id) => id.trim().toLowerCase()));
  const perPage = Math.min(MAX_PER_PAGE, positiveInt(query.get('per_page'), DEFAULT_PER_PAGE));
  const page = positiveInt(query.get('page'), 1);
  const windows = (query.get('price_change_percentage') ?? '')
    .split(',')
    .map((w) => w.trim())
    .filter((w) => w in PCT_WINDOWS);
  const sparkline = query.get('sparkline') === 'true';
  return sortCoins(book, query.get('order') ?? 'market_cap_desc', t)
    .filter((coin) => wanted === null || wanted.has(coin.id))
    .slice((page - 1) * perPage, page * perPage)
    .map((coin) => marketItem(book, coin, ranks.get(coin) ?? 0, t, { rate, sparkline, windows }));
}

function flag(query: URLSearchParams, name: string): boolean {
  return query.get(name) !== 'false';
}

/** Answers one `/coins/...`, `/global`, ... request; the route key is for the counters. */
function route(book: MarketBook, subpath: string, query: URLSearchParams, t: number): { key: string; body: unknown } {
  if (subpath === '/ping') return { key: 'ping', body: { gecko_says: '(V3) To the Moon!' } };
  if (subpath === '/coins/markets') return { key: 'coins.markets', body: coinsMarkets(book, query, t) };
  if (subpath === '/derivatives') return { key: 'derivatives', body: derivatives(book, t) };
  if (subpath === '/global') return { key: 'global', body: globalStats(book, t) };
  if (subpath === '/search') return { key: 'search', body: search(book, query.get('query') ?? '', t) };
  if (subpath.startsWith('/rwas/')) return rwaRoute(book, subpath, query, t);
  const match = /^\/coins\/([^/]+)(\/tickers|\/ohlc)?$/.exec(subpath);
  if (!match) throw jsonError(404, { error: 'Incorrect path. Please check https://www.coingecko.com/api/documentation' });
  const coin = book.coin(decodeURIComponent(match[1]));
  if (!coin) throw jsonError(404, COIN_NOT_FOUND);
  const rank = book.coinsByMarketCap(t).indexOf(coin) + 1;
  if (match[2] === '/tickers') {
    const page = positiveInt(query.get('page'), 1);
    const tickers = coinTickers(book, coin, t).slice((page - 1) * TICKERS_PER_PAGE, page * TICKERS_PER_PAGE);
    return { key: 'coins.tickers', body: { name: coin.name, tickers } };
  }
  if (match[2] === '/ohlc') {
    const rate = vsRate(book, query);
    const days = query.get('days');
    if (days === null) throw jsonError(422, { error: 'Missing parameter days' });
    if (!OHLC_DAYS.has(days) && days !== 'max') throw jsonError(400, { error: 'invalid days' });
    return { key: 'coins.ohlc', body: coinOhlc(book, coin, t, days === 'max' ? 365 * 4 : Number(days), rate) };
  }
  const options = {
    localization: flag(query, 'localization'),
    tickers: flag(query, 'tickers'),
    marketData: flag(query, 'market_data'),
    communityData: flag(query, 'community_data'),
    developerData: flag(query, 'developer_data'),
  };
  return { key: 'coins.detail', body: coinDetail(book, coin, rank, t, options) };
}

/**
 * The local CoinGecko API v3 under `/coingecko/api/v3`: markets, coin detail, tickers, OHLC, derivatives, global,
 * search and the RWA API, from the world's coins and tokenized assets. A demo or pro key is accepted (and not
 * required); calls per minute are budgeted per key, or per address without one.
 */
export function startCoinGecko({ world, options, clock }: ProtocolContext): CoinGeckoSimulation {
  const budget = new WeightBudget(options.coingeckoCallsPerMinute ?? COINGECKO_DEMO_CALLS_PER_MINUTE);
  const counters = emptyCounters();

  const handle = async (req: IncomingMessage, res: ServerResponse, path: string): Promise<void> => {
    if (req.method !== 'GET') return send(res, 404, 'Not Found', 'text/plain');
    const query = queryOf(req.url);
    const header = (name: string) => {
      const value = req.headers[name];
      return typeof value === 'string' ? value : null;
    };
    const key = header('x-cg-pro-api-key') ?? header('x-cg-demo-api-key') ?? query.get('x_cg_pro_api_key') ?? query.get('x_cg_demo_api_key');
    if (key) counters.keyed++;
    const now = clock();
    const decision = budget.reserve(clientOf(req.socket.remoteAddress, key), 1, now);
    if (!decision.allowed) {
      counters.rateLimited++;
      return sendJson(res, 429, RATE_LIMITED, { 'retry-after': String(decision.retryAfterSeconds) });
    }
    try {
      const { key: routeKey, body } = route(world.markets, path.slice(COINGECKO_PATH.length) || '/', query, now);
      counters.requestsByRoute[routeKey] = (counters.requestsByRoute[routeKey] ?? 0) + 1;
      sendJson(res, 200, body);
    } catch (error) {
      if (error instanceof SimRequestError) return send(res, error.status, error.body, error.contentType);
      throw error;
    }
  };

  return { counters, resetCounters: () => Object.assign(counters, emptyCounters()), handle };
}
