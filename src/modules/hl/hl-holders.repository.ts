import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { PerpHolderDto, SpotHolderDto } from './dto/holders.dto';
import { PERP_HOLDER_RANKS } from './hl-params';
import { partitionName } from './snapshot/snapshot-tables';
import { RankWindow } from './rank-pager';

export interface LiquidationBinRow {
  bin: number;
  liquidation_value: string;
  positions_count: number;
  most_impacted_segment: number;
}

/** A numeric column as the contract's canonical decimal string: no exponent, no trailing zeros. */
const dec = (column: string) => `trim_scale(${column})::text`;

/**
 * Each holder as the contract's JSON object (PerpHolderDto, SpotHolderDto), built by PostgreSQL: a page
 * then crosses the wire as one JSON text that node parses natively, instead of ~1,600 fields each sliced
 * out of the row protocol and canonicalised in JavaScript (that was most of a page's server time).
 */
const PERP_HOLDER_JSON = `json_build_object(
  'address', h.address, 'side', h.side, 'coin', h.coin, 'size', ${dec('h.size')}, 'value', ${dec('h.value')},
  'entryPrice', ${dec('h.entry_price')}, 'leverage', ${dec('h.leverage')}, 'uPnl', ${dec('h.upnl')}, 'roe', ${dec('h.roe')},
  'marginUsed', ${dec('h.margin_used')}, 'liquidationPrice', ${dec('h.liquidation_price')}, 'markPrice', ${dec('h.mark_price')},
  'cumFunding', ${dec('h.cum_funding')}, 'supplyPercentage', ${dec('h.supply_pct')}, 'addressTags', h.tags)`;

// Without an entry notional there is no cost basis: no entry price, PnL or ROE either.
const costBasis = (column: string) => `CASE WHEN h.entry_ntl IS NULL THEN NULL ELSE ${dec(column)} END`;
const SPOT_HOLDER_JSON = `json_build_object(
  'address', h.address, 'coin', h.coin, 'balance', ${dec('h.balance')}, 'value', ${dec('h.value')},
  'entryPrice', ${costBasis('h.entry_price')}, 'entryNtl', ${dec('h.entry_ntl')}, 'uPnl', ${costBasis('h.upnl')},
  'roe', ${costBasis('h.roe')}, 'supplyPercentage', ${dec('h.supply_pct')}, 'addressTags', h.tags)`;

/** Rows already ordered by `ord` (and limited) in `source`, as one JSON array text. */
function jsonPage(source: string, direction: 'ASC' | 'DESC'): string {
  return `SELECT coalesce(json_agg(p.j ORDER BY p.ord ${direction}), '[]')::text AS items FROM (${source}) p`;
}

function parsePage<T>(rows: Array<{ items: string }>): T[] {
  return JSON.parse(rows[0]?.items ?? '[]') as T[];
}

/** All SQL over the holders partitions (hl_perp_holders, hl_spot_holders; address tags are copied in at build time). */
@Injectable()
export class HlHoldersRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * One rank range through the (coin, rank_x) index; see rankWindow(). Pages read the snapshot's own
   * partition: planning against the partitioned parent was most of a page's database time, and the
   * snapshot retention (at least 2) keeps a partition alive for readers that just looked its id up.
   */
  async perpHolders({ snapshotId, coin, rankColumn, window }: { snapshotId: number; coin: string; rankColumn: (typeof PERP_HOLDER_RANKS)[keyof typeof PERP_HOLDER_RANKS]; window: RankWindow }): Promise<PerpHolderDto[]> {
    const source = `SELECT ${PERP_HOLDER_JSON} AS j, h.${rankColumn} AS ord
         FROM ${partitionName('hl_perp_holders', snapshotId)} h
        WHERE h.coin = $1 AND h.${rankColumn} ${window.op} $2
        ORDER BY h.${rankColumn} ${window.direction} LIMIT $3`;
    return parsePage(await this.db.query(jsonPage(source, window.direction), [coin, window.bound, window.limit]));
  }

  async perpHoldersOf({ snapshotId, coin, address }: { snapshotId: number; coin: string; address: string }): Promise<PerpHolderDto[]> {
    const source = `SELECT ${PERP_HOLDER_JSON} AS j, h.rank_value AS ord
         FROM hl_perp_holders h
        WHERE h.snapshot_id = $1 AND h.coin = $2 AND h.address = $3`;
    return parsePage(await this.db.query(jsonPage(source, 'ASC'), [snapshotId, coin, address]));
  }

  async spotHolders({ snapshotId, coin, window }: { snapshotId: number; coin: string; window: RankWindow }): Promise<SpotHolderDto[]> {
    const source = `SELECT ${SPOT_HOLDER_JSON} AS j, h.rank_value AS ord
         FROM ${partitionName('hl_spot_holders', snapshotId)} h
        WHERE h.coin = $1 AND h.rank_value ${window.op} $2
        ORDER BY h.rank_value ${window.direction} LIMIT $3`;
    return parsePage(await this.db.query(jsonPage(source, window.direction), [coin, window.bound, window.limit]));
  }

  async spotHoldersOf({ snapshotId, coin, address }: { snapshotId: number; coin: string; address: string }): Promise<SpotHolderDto[]> {
    const source = `SELECT ${SPOT_HOLDER_JSON} AS j, h.rank_value AS ord
         FROM hl_spot_holders h
        WHERE h.snapshot_id = $1 AND h.coin = $2 AND h.address = $3`;
    return parsePage(await this.db.query(jsonPage(source, 'ASC'), [snapshotId, coin, address]));
  }

  /**
   * Liquidation value per price bin in one pass over the coin's positions: width_bucket over the closed
   * range [low, high] (a price equal to `high` joins the last bin), then per bin the total absolute
   * position value, the count, and the size segment contributing most value (ties: the larger segment).
   * Segments: 1 + the number of `segmentBounds` the position value reaches.
   */
  async liquidationBins({ snapshotId, coin, low, high, bins, segmentBounds }: {
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
