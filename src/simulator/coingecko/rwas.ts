import { jsonError } from '../json-reply';
import { CryptoCoin } from '../world/crypto-universe';
import { MarketBook } from '../world/market-book';
import { stringHash } from '../world/prng';
import { RWA_ISSUERS, RWAS, RwaDef } from '../world/tokenized-assets';
import { cgPrice, DAY_MS, HOUR_MS, imageUrl, isoMs, pctChange, PCT_WINDOWS, round } from './coin-markets';

/**
 * CoinGecko's RWA API (`/rwas/list`, `/rwas/markets`, `/rwas/{id}`) over the world's tokenized assets. No real
 * body was recorded: fields, key names and defaults follow the official SDK's types (coingecko-typescript
 * src/resources/rwas/rwas.ts) and the API reference; `tokenized_market_data` aggregates the RWA's tokens, all in USD.
 */

const MAX_PER_PAGE = 250;
const DEFAULT_PER_PAGE = 100;
const SPARKLINE_HOURS = 168;
const RWA_NOT_FOUND = { error: 'rwa not found' };
const INCORRECT_PATH = { error: 'Incorrect path. Please check https://www.coingecko.com/api/documentation' };

interface Rwa {
  def: RwaDef;
  tokens: CryptoCoin[];
}

function rwasOf(book: MarketBook): Rwa[] {
  return RWAS.map((def) => ({ def, tokens: def.tokens.map((token) => book.coin(token.id) as CryptoCoin) }));
}

function pageParam(raw: string | null, fallback: number): number {
  const value = Number(raw);
  return raw !== null && Number.isInteger(value) && value > 0 ? value : fallback;
}

/** The tokens' price at `at`, weighted by each token's 24 h volume then. */
function tokenizedPx(book: MarketBook, rwa: Rwa, at: number): number {
  let value = 0;
  let volume = 0;
  for (const coin of rwa.tokens) {
    const weight = book.coinVolume24h(coin, at);
    value += book.coinPx(coin, at) * weight;
    volume += weight;
  }
  return value / volume;
}

function tokenizedCap(book: MarketBook, rwa: Rwa, at: number): number {
  return rwa.tokens.reduce((sum, coin) => sum + book.coinMarketCap(coin, at), 0);
}

function tokenizedVolume(book: MarketBook, rwa: Rwa, at: number): number {
  return rwa.tokens.reduce((sum, coin) => sum + book.coinVolume24h(coin, at), 0);
}

interface DataOptions {
  sparkline: boolean;
  windows: string[];
}

/** `tokenized_market_data`: the tokens' aggregate market, in USD. */
function tokenizedMarketData(book: MarketBook, rwa: Rwa, t: number, { sparkline, windows }: DataOptions): Record<string, unknown> {
  const pxAt = (at: number) => tokenizedPx(book, rwa, at);
  const px = pxAt(t);
  const px24 = pxAt(t - DAY_MS);
  const cap = tokenizedCap(book, rwa, t);
  const cap24 = tokenizedCap(book, rwa, t - DAY_MS);
  const range = book.range24h(pxAt, t);
  const data: Record<string, unknown> = {
    current_price: cgPrice(px),
    market_cap: Math.round(cap),
    market_cap_change_24h: round(cap - cap24, 2),
    market_cap_change_percentage_24h: round(pctChange(cap, cap24) ?? 0, 5),
    total_volume: Math.round(tokenizedVolume(book, rwa, t)),
    high_24h: cgPrice(range.high),
    low_24h: cgPrice(range.low),
    price_change_24h: cgPrice(px - px24),
    price_change_percentage_24h: round(pctChange(px, px24) ?? 0, 5),
  };
  for (const window of windows) data[`price_change_percentage_${window}_in_currency`] = pctChange(px, pxAt(t - PCT_WINDOWS[window]));
  if (sparkline) {
    const lastHour = Math.floor(t / HOUR_MS) * HOUR_MS;
    data.sparkline_in_7d = { price: Array.from({ length: SPARKLINE_HOURS }, (_, k) => pxAt(lastHour - (SPARKLINE_HOURS - 1 - k) * HOUR_MS)) };
  }
  data.last_updated = isoMs(t);
  return data;
}

/** The token with the largest market cap, whose image stands for the RWA. */
function leadToken(book: MarketBook, rwa: Rwa, t: number): CryptoCoin {
  return rwa.tokens.reduce((lead, coin) => (book.coinMarketCap(coin, t) > book.coinMarketCap(lead, t) ? coin : lead));
}

function sortRwas(book: MarketBook, rwas: Rwa[], order: string, t: number): Rwa[] {
  const key = order.startsWith('volume') ? (rwa: Rwa) => tokenizedVolume(book, rwa, t) : (rwa: Rwa) => tokenizedCap(book, rwa, t);
  if (order === 'id_asc' || order === 'id_desc') return rwas.sort((a, b) => (a.def.id < b.def.id ? -1 : 1) * (order === 'id_asc' ? 1 : -1));
  const sign = order.endsWith('_asc') ? 1 : -1;
  return rwas.sort((a, b) => sign * (key(a) - key(b)) || (a.def.id < b.def.id ? -1 : 1));
}

function assetTypeFilter(query: URLSearchParams): (rwa: Rwa) => boolean {
  const assetType = query.get('asset_type');
  return (rwa) => assetType === null || rwa.def.assetType === assetType;
}

/** `/rwas/markets`: one page of RWAs with their tokens' aggregate market, market cap first unless told otherwise. */
function rwaMarkets(book: MarketBook, query: URLSearchParams, t: number): object[] {
  const ids = query.get('ids');
  const wanted = ids === null ? null : new Set(ids.split(',').map((id) => id.trim().toLowerCase()));
  const perPage = Math.min(MAX_PER_PAGE, pageParam(query.get('per_page'), DEFAULT_PER_PAGE));
  const page = pageParam(query.get('page'), 1);
  const windows = (query.get('price_change_percentage') ?? '')
    .split(',')
    .map((w) => w.trim())
    .filter((w) => w in PCT_WINDOWS);
  const options = { sparkline: query.get('sparkline') === 'true', windows };
  const rwas = rwasOf(book)
    .filter(assetTypeFilter(query))
    .filter((rwa) => wanted === null || wanted.has(rwa.def.id));
  return sortRwas(book, rwas, query.get('order') ?? 'market_cap_desc', t)
    .slice((page - 1) * perPage, page * perPage)
    .map((rwa) => ({
      id: rwa.def.id,
      name: rwa.def.name,
      symbol: rwa.def.symbol,
      asset_type: rwa.def.assetType,
      image: imageUrl(leadToken(book, rwa, t), 'large'),
      tokenized_market_data: tokenizedMarketData(book, rwa, t, options),
    }));
}

/** A made-up contract address per token, the same in every world (the token definitions take no seed). */
function contractAddress(coinId: string): string {
  let hex = '';
  for (let k = 0; hex.length < 40; k++) hex += stringHash(`${coinId}:contract:${k}`).toString(16).padStart(8, '0');
  return `0x${hex.slice(0, 40)}`;
}

/** `/rwas/{id}`: metadata, with `tokens` and `tokenized_market_data` only when asked (both default to false). */
function rwaDetail(book: MarketBook, rwa: Rwa, query: URLSearchParams, t: number): object {
  const lead = leadToken(book, rwa, t);
  const body: Record<string, unknown> = {
    id: rwa.def.id,
    name: rwa.def.name,
    symbol: rwa.def.symbol,
    web_slug: rwa.def.id,
    asset_type: rwa.def.assetType,
    image: { thumb: imageUrl(lead, 'thumb'), small: imageUrl(lead, 'small'), large: imageUrl(lead, 'large') },
  };
  if (query.get('tokens') === 'true') {
    body.tokens = rwa.def.tokens.map((token) => ({
      id: token.id,
      name: token.name,
      symbol: token.symbol,
      platforms: { ethereum: contractAddress(token.id) },
      issuer_details: RWA_ISSUERS[token.issuer],
    }));
  }
  if (query.get('tokenized_market_data') === 'true') {
    body.tokenized_market_data = tokenizedMarketData(book, rwa, t, { sparkline: query.get('sparkline') === 'true', windows: [] });
  }
  body.last_updated = isoMs(t);
  return body;
}

/** Answers `/rwas/...`; the route key is for the counters. */
export function rwaRoute(book: MarketBook, subpath: string, query: URLSearchParams, t: number): { key: string; body: unknown } {
  if (subpath === '/rwas/list') {
    const body = rwasOf(book)
      .filter(assetTypeFilter(query))
      .map(({ def }) => ({ id: def.id, name: def.name, symbol: def.symbol, asset_type: def.assetType }));
    return { key: 'rwas.list', body };
  }
  if (subpath === '/rwas/markets') return { key: 'rwas.markets', body: rwaMarkets(book, query, t) };
  const match = /^\/rwas\/([^/]+)$/.exec(subpath);
  if (!match) throw jsonError(404, INCORRECT_PATH);
  const rwa = rwasOf(book).find(({ def }) => def.id === decodeURIComponent(match[1]));
  if (!rwa) throw jsonError(404, RWA_NOT_FOUND);
  return { key: 'rwas.detail', body: rwaDetail(book, rwa, query, t) };
}
