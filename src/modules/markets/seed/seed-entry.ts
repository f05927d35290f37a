import type { AssetType, StockMarket } from '../asset-types';

/** One asset of the shipped seed universe; Yahoo is the vendor of every seeded class. */
export interface SeedEntry {
  yahooSymbol: string;
  // Any class in the type, so a list loaded at run time is checked the same way; the loader rejects CRYPTO.
  type: AssetType;
  market: StockMarket | null;
  symbol: string;
  name: string;
  sector?: string;
  industry?: string;
  currency: string;
}
