import { Candle, GlobalMarketStats, MarketQuote } from '../market-data-provider';
import { Fields } from '../kit/schema-reader';
import {
  asArray,
  asJsonDecimal,
  asObject,
  decimalField,
  decimalFieldOrNull,
  fixedLength,
  isoFieldOrNull,
  isoFromEpoch,
  mapArray,
  shapeError,
} from './coingecko-reader';
import { OhlcDays } from './coingecko.types';

/**
 * Boundary checks for the market-wide documents: `/coins/markets`, `/global` and `/coins/{id}/ohlc`. Each
 * parser returns typed data or throws UpstreamError kind 'shape'; unknown fields are ignored and figures
 * CoinGecko leaves null (a coin with no 24 h trades, no max supply) stay null.
 */

export function parseCoinsMarkets(json: unknown, label = 'coins/markets'): MarketQuote[] {
  return mapArray(json, label, parseMarketsItem);
}

function parseMarketsItem(item: unknown, path: string): MarketQuote {
  const coin = asObject(item, path);
  return {
    sourceId: coin.string('id'),
    // Symbols are not unique on CoinGecko; the id is the key, the symbol only what users type.
    symbol: coin.string('symbol').toUpperCase(),
    name: coin.string('name'),
    type: 'CRYPTO',
    market: null,
    // Asked with vs_currency=usd.
    currency: 'USD',
    price: decimalFieldOrNull(coin, 'current_price'),
    change1h: decimalFieldOrNull(coin, 'price_change_percentage_1h_in_currency'),
    // The plain 24 h field is the same figure; bodies asked without price_change_percentage carry only it.
    change24h: decimalFieldOrNull(coin, 'price_change_percentage_24h_in_currency') ?? decimalFieldOrNull(coin, 'price_change_percentage_24h'),
    change7d: decimalFieldOrNull(coin, 'price_change_percentage_7d_in_currency'),
    volume24h: decimalFieldOrNull(coin, 'total_volume'),
    marketCap: decimalFieldOrNull(coin, 'market_cap'),
    high24h: decimalFieldOrNull(coin, 'high_24h'),
    low24h: decimalFieldOrNull(coin, 'low_24h'),
    sparkline7d: sparkline(coin),
    updatedAt: isoFieldOrNull(coin, 'last_updated'),
  };
}

/** `sparkline_in_7d.price`, about 168 hourly prices oldest first; gaps (null) are left out. */
function sparkline(coin: Fields): string[] {
  const holder = coin.objectOrNull('sparkline_in_7d');
  if (!holder || !holder.has('price')) return [];
  const points = asArray(holder.raw.price, holder.at('price'));
  return points.flatMap((point, i) => (point === null ? [] : [asJsonDecimal(point, `${holder.at('price')}[${i}]`)]));
}

export function parseGlobal(json: unknown, label = 'global'): GlobalMarketStats {
  const data = asObject(json, label).object('data');
  const dominance = data.objectOrNull('market_cap_percentage');
  return {
    totalMarketCapUsd: decimalField(data.object('total_market_cap'), 'usd'),
    totalVolume24hUsd: decimalField(data.object('total_volume'), 'usd'),
    btcDominance: dominance && decimalFieldOrNull(dominance, 'btc'),
    ethDominance: dominance && decimalFieldOrNull(dominance, 'eth'),
    marketCapChange24h: decimalFieldOrNull(data, 'market_cap_change_percentage_24h_usd'),
    activeCryptocurrencies: data.integerOrNull('active_cryptocurrencies'),
    markets: data.integerOrNull('markets'),
    updatedAt: data.has('updated_at') ? isoFromEpoch(data.raw.updated_at, data.at('updated_at'), 'seconds') : null,
  };
}

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/** The candle body `/coins/{id}/ohlc` picks for a span: 30 minutes up to 2 days, 4 hours up to 30, then 4 days. */
export function ohlcCandleMs(days: OhlcDays): number {
  if (days <= 2) return 30 * MINUTE_MS;
  if (days <= 30) return 4 * HOUR_MS;
  return 4 * DAY_MS;
}

/**
 * `[[closeTimeMs, o, h, l, c], ...]` as candles ascending by openTime. CoinGecko stamps each row with its
 * close time, so the open time is that minus the candle body for `days`. Volume is null: the endpoint has
 * none, and market_chart's total_volumes is a rolling 24 h figure, not a bar's.
 */
export function parseOhlc(json: unknown, days: OhlcDays, label = 'coins/ohlc'): Candle[] {
  const bodyMs = ohlcCandleMs(days);
  const candles = mapArray(json, label, (item, path) => {
    const [closeTime, open, high, low, close] = fixedLength(item, path, 5, true);
    const openAt = Date.parse(isoFromEpoch(closeTime, `${path}[0]`, 'milliseconds')) - bodyMs;
    return {
      openTime: new Date(openAt).toISOString(),
      open: asJsonDecimal(open, `${path}[1]`),
      high: asJsonDecimal(high, `${path}[2]`),
      low: asJsonDecimal(low, `${path}[3]`),
      close: asJsonDecimal(close, `${path}[4]`),
      volume: null,
    };
  });
  return ascendingByOpenTime(candles, label);
}

/** Sorted ascending; two rows for one open time would be two different bars, which no reader can trust. */
function ascendingByOpenTime(candles: Candle[], label: string): Candle[] {
  const sorted = [...candles].sort((a, b) => a.openTime.localeCompare(b.openTime));
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i].openTime === sorted[i - 1].openTime) throw shapeError(label, `two candles open at ${sorted[i].openTime}`);
  }
  return sorted;
}
