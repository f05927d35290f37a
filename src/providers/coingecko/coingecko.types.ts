import { PriceExtreme, VenueTicker } from '../market-data-provider';

/** The `days` values `/coins/{id}/ohlc` accepts on every plan (the demo plan serves the past 365 days only). */
export const OHLC_DAYS = [1, 7, 14, 30, 90, 180, 365] as const;
export type OhlcDays = (typeof OHLC_DAYS)[number];

/** `/coins/markets` serves at most this many coins per page. */
export const MAX_MARKETS_PER_PAGE = 250;

export interface CoinsMarketsParams {
  /** 1-based. */
  page: number;
  /** 1 to 250. */
  perPage: number;
  /** CoinGecko ids; when set, only these coins (still ranked by market cap). */
  ids?: readonly string[];
  signal?: AbortSignal;
}

/** A link set of a coin, with CoinGecko's empty placeholders removed. */
export interface CryptoAssetLinks {
  homepage: string[];
  whitepaper: string | null;
  blockchainExplorers: string[];
  forums: string[];
  chats: string[];
  announcements: string[];
  twitterHandle: string | null;
  subreddit: string | null;
  sourceRepositories: string[];
}

/**
 * The extended metadata of a crypto asset (`/assets/{symbol}` beyond the list fields), from `/coins/{id}`.
 * Figures are USD decimal strings; null when CoinGecko has none.
 */
export interface CryptoAssetDetail {
  sourceId: string;
  symbol: string;
  name: string;
  /** English description as CoinGecko writes it: plain text with HTML anchors; null when empty. */
  description: string | null;
  categories: string[];
  links: CryptoAssetLinks;
  imageUrl: string | null;
  /** YYYY-MM-DD. */
  genesisDate: string | null;
  hashingAlgorithm: string | null;
  blockTimeMinutes: number | null;
  /** The asset platform of a token ("ethereum"); null for a native coin. */
  assetPlatform: string | null;
  /** Contract address by platform; empty for a native coin. */
  contracts: Record<string, string>;
  marketCapRank: number | null;
  circulatingSupply: string | null;
  totalSupply: string | null;
  maxSupply: string | null;
  fullyDilutedValuation: string | null;
  allTimeHigh: PriceExtreme;
  allTimeLow: PriceExtreme;
  /** ISO-8601 time of CoinGecko's last update. */
  updatedAt: string | null;
}

/** A spot market of a coin from `/coins/{id}/tickers`. */
export interface SpotTicker extends VenueTicker {
  marketType: 'spot';
  /** CoinGecko's exchange id ("binance"), to tell a CEX from a DEX by `/exchanges/{id}`; null when absent. */
  venueId: string | null;
}

/** A perpetual or dated futures contract from `/derivatives`, with the index it tracks. */
export interface DerivativeTicker extends VenueTicker {
  marketType: 'perp' | 'futures';
  /**
   * CoinGecko's index id, usually the base symbol ("BTC", "ETH") but sometimes a venue's own index
   * ("BXBT", "OkexSwap-BTC"): the caller maps it to an asset.
   */
  indexId: string;
  /** The venue's contract symbol as listed ("BTCUSDT", "ETH-PERP"). */
  contractSymbol: string;
  indexPrice: string | null;
  /** Percent per funding interval, as the venue reports it. */
  fundingRate: string | null;
  /** USD. */
  openInterest: string | null;
  /** ISO-8601; null for a perpetual. */
  expiresAt: string | null;
}
