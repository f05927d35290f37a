import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { LeaderboardRow } from '../../../providers/hyperliquid/hyperliquid.types';
import { partitionName } from './snapshot-tables';

const CHUNK = 5000;

/** rank column -> the value it ranks, descending, ties broken by address descending. */
const RANKS: Array<[string, string]> = [
  ['rank_pnl_day', 'pnl_day'],
  ['rank_pnl_week', 'pnl_week'],
  ['rank_pnl_month', 'pnl_month'],
  ['rank_pnl_all_time', 'pnl_all_time'],
  ['rank_roi_day', 'roi_day'],
  ['rank_roi_week', 'roi_week'],
  ['rank_roi_month', 'roi_month'],
  ['rank_roi_all_time', 'roi_all_time'],
  ['rank_vlm_day', 'vlm_day'],
  ['rank_vlm_week', 'vlm_week'],
  ['rank_vlm_month', 'vlm_month'],
  ['rank_vlm_all_time', 'vlm_all_time'],
  ['rank_account_value', 'account_value'],
];

/** Loads the leaderboard document into a snapshot partition, ranked once by every sort value. */
@Injectable()
export class LeaderboardSnapshotBuilder {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async build(snapshotId: number, rows: LeaderboardRow[]): Promise<number> {
    const partition = partitionName('hl_leaderboard', snapshotId);
    // One connection (a transaction) so the staging table is visible to the ranking insert.
    await this.db.transaction(async (tx) => {
      await tx.query(`CREATE TEMP TABLE lb_stage (LIKE hl_leaderboard) ON COMMIT DROP`);
      for (let i = 0; i < rows.length; i += CHUNK) {
        await tx.query(
          `INSERT INTO lb_stage (snapshot_id, address, account_value, pnl_day, roi_day, vlm_day, pnl_week, roi_week, vlm_week,
                                 pnl_month, roi_month, vlm_month, pnl_all_time, roi_all_time, vlm_all_time, ${RANKS.map(([r]) => r).join(', ')})
           SELECT $2, address, account_value, pnl_day, roi_day, vlm_day, pnl_week, roi_week, vlm_week, pnl_month, roi_month, vlm_month,
                  pnl_all_time, roi_all_time, vlm_all_time, ${RANKS.map(() => '0').join(', ')}
             FROM jsonb_to_recordset($1::jsonb) AS r(address text, account_value numeric, pnl_day numeric, roi_day numeric, vlm_day numeric,
                  pnl_week numeric, roi_week numeric, vlm_week numeric, pnl_month numeric, roi_month numeric, vlm_month numeric,
                  pnl_all_time numeric, roi_all_time numeric, vlm_all_time numeric)`,
          [JSON.stringify(rows.slice(i, i + CHUNK).map(flatten)), snapshotId],
        );
      }
      await tx.query(
        `INSERT INTO ${partition}
         SELECT snapshot_id, address, account_value, pnl_day, roi_day, vlm_day, pnl_week, roi_week, vlm_week, pnl_month, roi_month, vlm_month,
                pnl_all_time, roi_all_time, vlm_all_time,
                ${RANKS.map(([, value]) => `row_number() OVER (ORDER BY ${value} DESC, address DESC)`).join(',\n                ')}
           FROM lb_stage`,
      );
    });
    return rows.length;
  }
}

function flatten(row: LeaderboardRow) {
  const w = row.windowPerformances;
  return {
    address: row.ethAddress,
    account_value: row.accountValue,
    pnl_day: w.day.pnl,
    roi_day: w.day.roi,
    vlm_day: w.day.vlm,
    pnl_week: w.week.pnl,
    roi_week: w.week.roi,
    vlm_week: w.week.vlm,
    pnl_month: w.month.pnl,
    roi_month: w.month.roi,
    vlm_month: w.month.vlm,
    pnl_all_time: w.allTime.pnl,
    roi_all_time: w.allTime.roi,
    vlm_all_time: w.allTime.vlm,
  };
}
