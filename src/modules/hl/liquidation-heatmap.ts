import { Decimal } from '../../common/decimal/decimal';
import { LiquidationBinDto } from './dto/liquidation-map.dto';
import { LiquidationBinRow } from './hl-holders.repository';

/** Bins of the heatmap, spanning [LOW × mark, HIGH × mark] with equal widths. */
export const LIQUIDATION_BINS = 40;
const RANGE_LOW = '0.5';
const RANGE_HIGH = '1.5';
/** Position-value thresholds (USD) between size segments 1|2|3|4: < 10k, < 100k, < 1M, ≥ 1M. */
export const LIQUIDATION_SEGMENT_BOUNDS = ['10000', '100000', '1000000'] as const;

/** Closed price range of the heatmap around a mark price, as exact decimal strings for SQL. */
export function liquidationRange(markPx: string): { low: string; high: string } {
  const mark = new Decimal(markPx);
  return { low: mark.times(RANGE_LOW).toFixed(), high: mark.times(RANGE_HIGH).toFixed() };
}

/** All LIQUIDATION_BINS bins in price order, empty ones included (value 0, segment 0). */
export function toHeatmap({ coin, markPx, rows }: { coin: string; markPx: string; rows: LiquidationBinRow[] }): LiquidationBinDto[] {
  const { low, high } = liquidationRange(markPx);
  const width = new Decimal(high).minus(low).div(LIQUIDATION_BINS);
  const byBin = new Map(rows.map((row) => [row.bin, row]));
  return Array.from({ length: LIQUIDATION_BINS }, (_, index) => {
    const row = byBin.get(index);
    const start = width.times(index).plus(low);
    return {
      coin,
      priceBinIndex: index,
      // The contract makes bins JSON numbers; edges and totals are converted only at this last step.
      priceBinStart: start.toNumber(),
      priceBinEnd: start.plus(width).toNumber(),
      liquidationValue: row ? new Decimal(row.liquidation_value).toNumber() : 0,
      positionsCount: row?.positions_count ?? 0,
      mostImpactedSegment: row?.most_impacted_segment ?? 0,
    };
  });
}
