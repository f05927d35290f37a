import { toDecimalString } from '../../common/decimal/decimal';
import type { QuoteFigures } from '../../providers/market-data-provider';
import type { AssetType, StockMarket } from './asset-types';

/** A catalogue entry as the seed and the crypto job write it: keyed by exactly one vendor id. */
export interface CatalogueAsset {
  type: AssetType;
  symbol: string;
  name: string;
  market?: StockMarket | null;
  stockCode?: string | null;
  currency?: string | null;
  sector?: string | null;
  industry?: string | null;
  categories?: string[];
  coingeckoId?: string | null;
  yahooSymbol?: string | null;
  binancePair?: string | null;
  marketCapRank?: number | null;
}

/** The latest quote of one asset, with market cap and volume in USD for sorting across currencies. */
export interface AssetQuoteInput extends QuoteFigures {
  assetId: number;
  marketCapUsd: string | null;
  volume24hUsd: string | null;
  sourceUpdatedAt: Date | null;
}

/** An asset with its latest quote (all quote fields null before the first refresh). */
export interface AssetRow extends QuoteFigures {
  id: number;
  type: AssetType;
  symbol: string;
  name: string;
  market: StockMarket | null;
  stockCode: string | null;
  currency: string | null;
  sector: string | null;
  industry: string | null;
  categories: string[];
  coingeckoId: string | null;
  yahooSymbol: string | null;
  binancePair: string | null;
  marketCapRank: number | null;
  listed: boolean;
  sourceUpdatedAt: Date | null;
  refreshedAt: Date | null;
}

export interface AssetPage {
  rows: AssetRow[];
  total: number;
}

/** The select list every asset read shares: `a` is assets, `q` the left-joined asset_quotes. */
export const ASSET_COLUMNS = `
  a.id, a.type, a.symbol, a.name, a.market, a.stock_code, a.currency, a.sector, a.industry, a.categories,
  a.coingecko_id, a.yahoo_symbol, a.binance_pair, a.market_cap_rank, a.listed,
  q.price::text AS price, q.change1h::text AS change1h, q.change24h::text AS change24h, q.change7d::text AS change7d,
  q.volume24h::text AS volume24h, q.market_cap::text AS market_cap, q.high24h::text AS high24h, q.low24h::text AS low24h,
  q.sparkline_7d::text[] AS sparkline_7d, q.source_updated_at, q.refreshed_at`;

export function toAssetRow(r: Record<string, unknown>): AssetRow {
  return {
    id: Number(r.id),
    type: r.type as AssetType,
    symbol: String(r.symbol),
    name: String(r.name),
    market: (r.market ?? null) as StockMarket | null,
    stockCode: textOrNull(r.stock_code),
    currency: textOrNull(r.currency),
    sector: textOrNull(r.sector),
    industry: textOrNull(r.industry),
    categories: (r.categories as string[] | null) ?? [],
    coingeckoId: textOrNull(r.coingecko_id),
    yahooSymbol: textOrNull(r.yahoo_symbol),
    binancePair: textOrNull(r.binance_pair),
    marketCapRank: r.market_cap_rank === null ? null : Number(r.market_cap_rank),
    listed: Boolean(r.listed),
    price: decimalOrNull(r.price),
    change1h: decimalOrNull(r.change1h),
    change24h: decimalOrNull(r.change24h),
    change7d: decimalOrNull(r.change7d),
    volume24h: decimalOrNull(r.volume24h),
    marketCap: decimalOrNull(r.market_cap),
    high24h: decimalOrNull(r.high24h),
    low24h: decimalOrNull(r.low24h),
    sparkline7d: ((r.sparkline_7d as string[] | null) ?? []).map((v) => toDecimalString(v)),
    sourceUpdatedAt: (r.source_updated_at as Date | null) ?? null,
    refreshedAt: (r.refreshed_at as Date | null) ?? null,
  };
}

function textOrNull(value: unknown): string | null {
  return value === null || value === undefined ? null : String(value);
}

function decimalOrNull(value: unknown): string | null {
  return value === null || value === undefined ? null : toDecimalString(String(value));
}
