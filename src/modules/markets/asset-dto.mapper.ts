import type { AssetRow } from './asset-row';
import type { AssetDto } from './dto/asset.dto';

/** The contract's Asset (plus market, stockCode, currency, updatedAt) from a catalogue row. */
export function toAssetDto(row: AssetRow): AssetDto {
  return {
    id: row.id,
    symbol: row.symbol,
    name: row.name,
    type: row.type,
    price: row.price,
    change1h: row.change1h,
    change24h: row.change24h,
    change7d: row.change7d,
    volume24h: row.volume24h,
    marketCap: row.marketCap,
    high24h: row.high24h,
    low24h: row.low24h,
    sparkline7d: row.sparkline7d,
    market: row.market,
    stockCode: row.stockCode,
    currency: row.currency ?? 'USD',
    updatedAt: isoOrNull(row.sourceUpdatedAt ?? row.refreshedAt),
  };
}

/** When the row's quote left the upstream (epoch ms), for the Age header; null before the first refresh. */
export function quoteTimeOf(row: AssetRow): number | null {
  return row.refreshedAt === null ? null : new Date(row.refreshedAt).getTime();
}

function isoOrNull(value: Date | string | null): string | null {
  return value === null ? null : new Date(value).toISOString();
}
