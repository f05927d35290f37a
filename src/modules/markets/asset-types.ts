/** The contract's asset classes (part 2.3). */
export const ASSET_TYPES = ['CRYPTO', 'STOCK', 'ETF', 'FOREX', 'COMMODITY'] as const;
export type AssetType = (typeof ASSET_TYPES)[number];

/** Stock markets (part 4.3), in the order a bare ticker listed on several of them resolves: US first. */
export const STOCK_MARKETS = ['US', 'HK', 'JP', 'KR'] as const;
export type StockMarket = (typeof STOCK_MARKETS)[number];

/** `<TICKER>-<MARKET>`, the contract's stockCode. */
export function toStockCode(ticker: string, market: StockMarket): string {
  return `${ticker}-${market}`;
}

/** The country of each stock market, for the detail and stock asset blocks. */
export const COUNTRY_OF_MARKET: Readonly<Record<StockMarket, string>> = { US: 'United States', HK: 'Hong Kong', JP: 'Japan', KR: 'South Korea' };

/** A sector or tag slug, the `category` filter: lowercase words joined by hyphens. */
export const CATEGORY_SLUG = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/** A decimal string as the JSON number some contract tables ask for (null stays null). */
export function numberOrNull(value: string | null): number | null {
  return value === null ? null : Number(value);
}
