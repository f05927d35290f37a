import { refuseAs } from './kit/provider-disabled.error';

export const RWA_PROVIDER = Symbol('RWA_PROVIDER');

/** The class of a real-world asset's underlying (contract `/rwa`). */
export type RwaAssetType = 'stock' | 'etf' | 'commodity';

/** One on-chain token tracking an underlying, by the vendor's coin id (our crypto catalogue's key). */
export interface RwaToken {
  /** The vendor's coin id ('apple-xstock'). */
  coinId: string;
  name: string;
  symbol: string;
}

/**
 * A tokenized real-world asset as the vendor lists it: the underlying, and the tokens' figures together.
 * Figures are USD decimal strings; null when the vendor has none.
 */
export interface RwaMarket {
  /** The vendor's id of the RWA ('apple'). */
  id: string;
  name: string;
  /** The underlying's ticker as the vendor gives it ('AAPL', 'XAU'). */
  symbol: string;
  slug: string;
  assetType: RwaAssetType;
  /** Volume-weighted average price of the tokens. */
  tokenPrice: string | null;
  tokenMarketCap: string | null;
  tokenVolume24h: string | null;
  /** Percent change of the token price over 24 h. */
  tokenChange24h: string | null;
  tokens: RwaToken[];
  /** ISO-8601. */
  updatedAt: string | null;
}

/** Tokenized real-world assets (contract `/rwa`): every one the vendor lists, largest token market cap first. */
export interface RwaProvider {
  readonly name: string;
  listRwaMarkets(params: { signal?: AbortSignal }): Promise<RwaMarket[]>;
}

/** Answers when no RWA vendor is configured or it is switched off. */
export class DisabledRwaProvider implements RwaProvider {
  readonly name = 'none';
  listRwaMarkets = refuseAs('rwa data');
}
