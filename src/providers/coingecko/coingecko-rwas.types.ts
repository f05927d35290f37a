import { RwaAssetType, RwaMarket, RwaToken } from '../rwa-provider';

/** The asset types CoinGecko's RWA API groups RWAs by (`asset_type`), in the order we list them. */
export const RWA_ASSET_TYPES: readonly RwaAssetType[] = ['stock', 'etf', 'commodity'];

/** `/rwas/markets` serves at most this many RWAs per page. */
export const MAX_RWAS_PER_PAGE = 250;

export interface RwasMarketsParams {
  assetType: RwaAssetType;
  /** 1-based. */
  page: number;
  /** 1 to 250. */
  perPage: number;
  signal?: AbortSignal;
}

/**
 * One row of `/rwas/markets`: the RWA and its tokens' aggregate market (USD). The list names no tokens;
 * `/rwas/{id}` does.
 */
export type RwaMarketRow = Omit<RwaMarket, 'slug' | 'tokens'>;

/** `/rwas/{id}?tokens=true`: the RWA's metadata and the tokens tracking it. */
export interface RwaDetail {
  id: string;
  name: string;
  /** Upper-cased, as the other CoinGecko symbols we read ('XAU'). */
  symbol: string;
  /** CoinGecko's page slug (`web_slug`). */
  slug: string;
  assetType: RwaAssetType;
  tokens: RwaToken[];
  /** ISO-8601. */
  updatedAt: string | null;
}
