import { Decimal, toDecimalString } from '../../../common/decimal/decimal';
import type { MarketQuote } from '../../../providers/market-data-provider';
import type { AssetQuoteInput } from '../asset-row';
import type { RefreshTarget } from '../assets.repository';
import { toUsd } from '../usd-rates';

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

/**
 * Market cap and the 24 h traded value in USD: volume (shares or contracts) times price, converted at the
 * currency's rate. Null without any rate, and for FX pairs (no volume is reported for them).
 */
export function usdFigures(
  quote: MarketQuote,
  target: Pick<RefreshTarget, 'type' | 'currency'>,
  rates: ReadonlyMap<string, string>,
): { marketCapUsd: string | null; volume24hUsd: string | null } {
  const traded = quote.volume24h !== null && quote.price !== null ? toDecimalString(new Decimal(quote.volume24h).times(quote.price)) : null;
  return {
    marketCapUsd: toUsd(quote.marketCap, target.currency, rates),
    volume24hUsd: target.type === 'FOREX' ? null : toUsd(traded, target.currency, rates),
  };
}
