import type { MarketQuote } from '../../../providers/market-data-provider';
import type { AssetQuoteInput } from '../asset-row';

/** A vendor's quote as the stored latest quote of asset `assetId`, with its market cap and volume in USD. */
export function toQuoteInput(assetId: number, quote: MarketQuote, usd: { marketCapUsd: string | null; volume24hUsd: string | null }): AssetQuoteInput {
  return {
    assetId,
    price: quote.price,
    change1h: quote.change1h,
    change24h: quote.change24h,
    change7d: quote.change7d,
    volume24h: quote.volume24h,
    marketCap: quote.marketCap,
    high24h: quote.high24h,
    low24h: quote.low24h,
    sparkline7d: quote.sparkline7d,
    ...usd,
    sourceUpdatedAt: quote.updatedAt === null ? null : new Date(quote.updatedAt),
  };
}
