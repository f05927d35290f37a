import { Fields } from '../kit/schema-reader';
import { RwaToken } from '../rwa-provider';
import { asObject, decimalFieldOrNull, isoFieldOrNull, mapArray, textOrNull } from './coingecko-reader';
import { RWA_ASSET_TYPES, RwaDetail, RwaMarketRow } from './coingecko-rwas.types';

/**
 * Boundary checks for CoinGecko's RWA API: `/rwas/markets` and `/rwas/{id}`. No real body has been recorded; the
 * shapes are the official SDK's (coingecko-typescript src/resources/rwas/rwas.ts), which marks most figures
 * optional and nullable: absent and null figures stay null. Each parser returns typed data or throws
 * UpstreamError kind 'shape'; unknown fields are ignored.
 */

export function parseRwasMarkets(json: unknown, label = 'rwas/markets'): RwaMarketRow[] {
  return mapArray(json, label, (item, path) => {
    const rwa = asObject(item, path);
    const market = rwa.object('tokenized_market_data');
    return {
      id: rwa.string('id'),
      name: rwa.string('name'),
      // Sent lower-case ('xau'); upper-cased like every other CoinGecko symbol we read.
      symbol: rwa.string('symbol').toUpperCase(),
      assetType: rwa.oneOf('asset_type', RWA_ASSET_TYPES),
      tokenPrice: decimalFieldOrNull(market, 'current_price'),
      tokenMarketCap: decimalFieldOrNull(market, 'market_cap'),
      tokenVolume24h: decimalFieldOrNull(market, 'total_volume'),
      // The `_in_currency` field comes only when price_change_percentage asks for it; USD either way.
      tokenChange24h: decimalFieldOrNull(market, 'price_change_percentage_24h_in_currency') ?? decimalFieldOrNull(market, 'price_change_percentage_24h'),
      updatedAt: isoFieldOrNull(market, 'last_updated'),
    };
  });
}

export function parseRwaDetail(json: unknown, label = 'rwas/id'): RwaDetail {
  const rwa = asObject(json, label);
  const id = rwa.string('id');
  const market = rwa.objectOrNull('tokenized_market_data');
  return {
    id,
    name: rwa.string('name'),
    symbol: rwa.string('symbol').toUpperCase(),
    slug: textOrNull(rwa, 'web_slug') ?? id,
    assetType: rwa.oneOf('asset_type', RWA_ASSET_TYPES),
    tokens: rwa.has('tokens') ? uniqueTokens(rwa) : [],
    updatedAt: isoFieldOrNull(rwa, 'last_updated') ?? (market && isoFieldOrNull(market, 'last_updated')),
  };
}

/**
 * The tokens CoinGecko links to a coin, each once. The SDK marks a token's id, name and symbol optional: one
 * without them cannot be joined to our crypto catalogue, so it is left out rather than failing the RWA.
 */
function uniqueTokens(rwa: Fields): RwaToken[] {
  const tokens = new Map<string, RwaToken>();
  rwa.array('tokens', (item, path) => {
    const token = asObject(item, path);
    const [coinId, name, symbol] = [textOrNull(token, 'id'), textOrNull(token, 'name'), textOrNull(token, 'symbol')];
    if (coinId !== null && name !== null && symbol !== null && !tokens.has(coinId)) tokens.set(coinId, { coinId, name, symbol: symbol.toUpperCase() });
  });
  return [...tokens.values()];
}
