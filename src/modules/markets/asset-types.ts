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
