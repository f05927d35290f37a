import { refuseAs } from './kit/provider-disabled.error';

/** The Markets module's MarketDataRouter is bound to this token; vendors implement MarketDataProvider. */
export const MARKET_DATA_PROVIDER = Symbol('MARKET_DATA_PROVIDER');

/** Asset classes of the Markets contract (part 2.3). */
export type AssetType = 'CRYPTO' | 'STOCK' | 'ETF' | 'FOREX' | 'COMMODITY';
export type CandleInterval = 'H1' | 'D1';
export type TickerMarketType = 'spot' | 'perp' | 'futures';

/** An asset as the vendor knows it: `sourceId` is the vendor's own id ('bitcoin', '0700.HK'), never our asset id. */
export interface CatalogueEntry {
  sourceId: string;
  symbol: string;
  name: string;
  type: AssetType;
  /** Stocks: US, HK, JP or KR; null otherwise. */
  market: string | null;
}

/** The figures of an Asset (contract 2.3). Decimal strings (no exponent); null when there is no figure. Changes are percent. */
export interface QuoteFigures {
  price: string | null;
  change1h: string | null;
  change24h: string | null;
  change7d: string | null;
  volume24h: string | null;
  marketCap: string | null;
  high24h: string | null;
  low24h: string | null;
  /** About a week of closes, oldest first; empty when the vendor gives none. */
  sparkline7d: string[];
}

/** One asset's market figures as a vendor gives them. */
export interface MarketQuote extends CatalogueEntry, QuoteFigures {
  /** ISO 4217 currency of the price and market cap; null when the vendor does not say. */
  currency: string | null;
  /** ISO-8601 time of the vendor's last update, when it says. */
  updatedAt: string | null;
}

export interface Candle {
  /** ISO-8601. */
  openTime: string;
  open: string;
  high: string;
  low: string;
  close: string;
  /** Per-bar volume; null when the vendor has none (rolling volumes are not bar volumes). */
  volume: string | null;
}

export interface VenueTicker {
  /** base/quote. */
  pair: string;
  venue: string;
  venueKind: 'cex' | 'dex' | null;
  marketType: TickerMarketType;
  price: string;
  volume24h: string | null;
}

export interface GlobalMarketStats {
  totalMarketCapUsd: string;
  totalVolume24hUsd: string;
  btcDominance: string | null;
  ethDominance: string | null;
  marketCapChange24h: string | null;
  activeCryptocurrencies: number | null;
  markets: number | null;
  updatedAt: string | null;
}

/** All-time high or low in the quote currency. */
export interface PriceExtreme {
  price: string | null;
  /** ISO-8601. */
  at: string | null;
  /** Percent from that extreme to the current price. */
  changePercent: string | null;
}

/**
 * What a vendor says of an asset beyond its quote (`/assets/{symbol}`'s extended metadata). Every field is
 * null (or empty) when the vendor has no such figure: crypto vendors fill the supply and project fields,
 * exchange-listed ones the exchange and trading state.
 */
export interface AssetProfile {
  description: string | null;
  /** The vendor's category labels ("Smart Contract Platform"). */
  categories: string[];
  /** Web links by kind (homepage, whitepaper, explorers, ...), empty kinds left out. */
  links: Record<string, string[]>;
  imageUrl: string | null;
  /** YYYY-MM-DD. */
  genesisDate: string | null;
  hashingAlgorithm: string | null;
  /** Token contract address by platform; empty for a native coin or a security. */
  contracts: Record<string, string>;
  circulatingSupply: string | null;
  totalSupply: string | null;
  maxSupply: string | null;
  fullyDilutedValuation: string | null;
  allTimeHigh: PriceExtreme | null;
  allTimeLow: PriceExtreme | null;
  /** The exchange the quote comes from ("NasdaqGS", "HKSE"). */
  exchange: string | null;
  /** ISO 4217 currency of the price. */
  currency: string | null;
  /** The vendor's market state (REGULAR, CLOSED, PRE, POST), for exchange-listed assets. */
  marketState: string | null;
  /** ISO-8601 time of the vendor's last update. */
  updatedAt: string | null;
}

export interface ListQuotesParams {
  type: AssetType;
  /** 1-based page of the vendor's ranking by market cap. */
  page: number;
  perPage: number;
  signal?: AbortSignal;
}

/** The vendor's classification of a listed company (Yahoo's taxonomy: "Basic Materials" / "Aluminum"); null where it has none. */
export interface AssetClassification {
  sector: string | null;
  industry: string | null;
}

/**
 * Crypto and cross-asset market data (contract parts 2.3, 4.2, 4.8): quotes, candles, venue tickers, the
 * catalogue that seeds our asset table, and search. Every method returns checked, typed data or throws
 * UpstreamError (ProviderDisabledError when no vendor is configured).
 */
export interface MarketDataProvider {
  readonly name: string;
  /** The asset types this vendor answers; the Markets module asks another slot (or none) for the rest. */
  readonly assetTypes: readonly AssetType[];
  /** Most ids one getQuotes call takes; the caller chunks. */
  readonly maxQuotesPerCall: number;
  getQuotes(params: { sourceIds: readonly string[]; signal?: AbortSignal }): Promise<MarketQuote[]>;
  /** The vendor's ranking by market cap, one page at a time (`/assets`). */
  listQuotes(params: ListQuotesParams): Promise<MarketQuote[]>;
  /** Ascending by openTime, at most `limit` bars ending now. */
  getCandles(params: { sourceId: string; interval: CandleInterval; limit: number; signal?: AbortSignal }): Promise<Candle[]>;
  getTickers(params: { sourceId: string; signal?: AbortSignal }): Promise<VenueTicker[]>;
  getProfile(params: { sourceId: string; signal?: AbortSignal }): Promise<AssetProfile>;
  /** Sector and industry of a stock, for an asset added to the catalogue beyond the seed list. */
  getClassification(params: { sourceId: string; signal?: AbortSignal }): Promise<AssetClassification>;
  getGlobalStats(params: { signal?: AbortSignal }): Promise<GlobalMarketStats>;
  listCatalogue(params: { type: AssetType; signal?: AbortSignal }): Promise<CatalogueEntry[]>;
  search(params: { query: string; type?: AssetType; signal?: AbortSignal }): Promise<CatalogueEntry[]>;
}

const refuse = refuseAs('market data');

/** Answers when no market-data vendor is configured or it is switched off. */
export class DisabledMarketDataProvider implements MarketDataProvider {
  readonly name = 'none';
  readonly assetTypes: readonly AssetType[] = [];
  readonly maxQuotesPerCall = 0;
  getQuotes = refuse;
  listQuotes = refuse;
  getCandles = refuse;
  getTickers = refuse;
  getProfile = refuse;
  getClassification = refuse;
  getGlobalStats = refuse;
  listCatalogue = refuse;
  search = refuse;
}
