import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { RankWindow } from '../../common/pagination/rank-pager';
import { PERP_HOLDER_RANKS } from './hl-params';
import { partitionName } from './snapshot/snapshot-tables';

export interface PerpHolderRow {
  address: string;
  side: string;
  coin: string;
  size: string;
  value: string;
  entry_price: string;
  leverage: string;
  upnl: string;
  roe: string;
  margin_used: string;
  liquidation_price: string | null;
  mark_price: string;
  cum_funding: string | null;
  supply_pct: string;
  tags: string[];
}

export interface SpotHolderRow {
  address: string;
  coin: string;
  balance: string;
  value: string;
  entry_price: string | null;
  entry_ntl: string | null;
  upnl: string | null;
  roe: string | null;
  supply_pct: string;
  tags: string[];
}

export interface LiquidationBinRow {
  bin: number;
  liquidation_value: string;
  positions_count: number;
  most_impacted_segment: number;
}

const PERP_COLUMNS = `h.address, h.side, h.coin, h.size::text AS size, h.value::text AS value, h.entry_price::text AS entry_price,
  h.leverage::text AS leverage, h.upnl::text AS upnl, h.roe::text AS roe, h.margin_used::text AS margin_used,
  h.liquidation_price::text AS liquidation_price, h.mark_price::text AS mark_price, h.cum_funding::text AS cum_funding,
  h.supply_pct::text AS supply_pct, h.tags`;

const SPOT_COLUMNS = `h.address, h.coin, h.balance::text AS balance, h.value::text AS value, h.entry_price::text AS entry_price,
  h.entry_ntl::text AS entry_ntl, h.upnl::text AS upnl, h.roe::text AS roe, h.supply_pct::text AS supply_pct, h.tags`;

/** All SQL over the holders partitions (hl_perp_holders, hl_spot_holders; address tags are copied in at build time). */
@Injectable()
export class HlHoldersRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * One rank range through the (coin, rank_x) index; see rankWindow(). Pages read the snapshot's own
   * partition: planning against the partitioned parent was most of a page's database time, and the
   * snapshot retention (at least 2) keeps a partition alive for readers that just looked its id up.
   */
  perpHolders({
    snapshotId,
    coin,
    rankColumn,
    window,
  }: {
    snapshotId: number;
    coin: string;
    rankColumn: (typeof PERP_HOLDER_RANKS)[keyof typeof PERP_HOLDER_RANKS];
    window: RankWindow;
  }): Promise<PerpHolderRow[]> {
    return this.db.query(
      `SELECT ${PERP_COLUMNS}
         FROM ${partitionName('hl_perp_holders', snapshotId)} h
        WHERE h.coin = $1 AND h.${rankColumn} ${window.op} $2
        ORDER BY h.${rankColumn} ${window.direction} LIMIT $3`,
      [coin, window.bound, window.limit],
    );
  }

  perpHoldersOf({ snapshotId, coin, address }: { snapshotId: number; coin: string; address: string }): Promise<PerpHolderRow[]> {
    return this.db.query(
      `SELECT ${PERP_COLUMNS}
         FROM hl_perp_holders h
        WHERE h.snapshot_id = $1 AND h.coin = $2 AND h.address = $3
        ORDER BY h.rank_value`,
      [snapshotId, coin, address],
    );
  }

  spotHolders({ snapshotId, coin, window }: { snapshotId: number; coin: string; window: RankWindow }): Promise<SpotHolderRow[]> {
    return this.db.query(
      `SELECT ${SPOT_COLUMNS}
         FROM ${partitionName('hl_spot_holders', snapshotId)} h
        WHERE h.coin = $1 AND h.rank_value ${window.op} $2
        ORDER BY h.rank_value ${window.direction} LIMIT $3`,
      [coin, window.bound, window.limit],
    );
  }

  spotHoldersOf({ snapshotId, coin, address }: { snapshotId: number; coin: string; address: string }): Promise<SpotHolderRow[]> {
    return this.db.query(
      `SELECT ${SPOT_COLUMNS}
         FROM hl_spot_holders h
        WHERE h.snapshot_id = $1 AND h.coin = $2 AND h.address = $3
        ORDER BY h.rank_value`,
      [snapshotId, coin, address],
    );
  }

  /**
   * Liquidation value per price bin in one pass over the coin's positions: width_bucket over the closed
   * range [low, high] (a price equal to `high` joins the last bin), then per bin the total absolute
   * position value, the count, and the size segment contributing most value (ties: the larger segment).
   * Segments: 1 + the number of `segmentBounds` the position value reaches.
   */
  async liquidationBins({
    snapshotId,
    coin,
    low,
    high,
    bins,
    segmentBounds,
  }: {
    snapshotId: number;
    coin: string;
    low: string;
    high: string;
    bins: number;
    segmentBounds: readonly [string, string, string];
  }): Promise<LiquidationBinRow[]> {
    const rows: Array<Record<string, unknown>> = await this.db.query(
      `WITH p AS (
         SELECT LEAST(width_bucket(liquidation_price, $3::numeric, $4::numeric, $5::int), $5::int) - 1 AS bin, abs(value) AS value
           FROM hl_perp_holders
          WHERE snapshot_id = $1 AND coin = $2 AND liquidation_price BETWEEN $3::numeric AND $4::numeric
       ), s AS (
         SELECT bin, 1 + (value >= $6::numeric)::int + (value >= $7::numeric)::int + (value >= $8::numeric)::int AS segment,
                sum(value) AS segment_value, count(*) AS n
           FROM p GROUP BY 1, 2
       )
       SELECT bin, sum(segment_value)::text AS liquidation_value, sum(n)::int AS positions_count,
              (array_agg(segment ORDER BY segment_value DESC, segment DESC))[1] AS most_impacted_segment
         FROM s GROUP BY bin ORDER BY bin`,
      [snapshotId, coin, low, high, bins, ...segmentBounds],
    );
    return rows.map((r) => ({
      bin: Number(r.bin),
      liquidation_value: String(r.liquidation_value),
      positions_count: Number(r.positions_count),
      most_impacted_segment: Number(r.most_impacted_segment),
    }));
  }
}
