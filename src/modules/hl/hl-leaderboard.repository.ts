import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { RankWindow } from '../../common/pagination/rank-pager';
import { LEADERBOARD_RANKS, LeaderboardSort } from './hl-params';

export interface LeaderboardRow {
  address: string;
  account_value: string;
  pnl_day: string;
  roi_day: string;
  vlm_day: string;
  pnl_week: string;
  roi_week: string;
  vlm_week: string;
  pnl_month: string;
  roi_month: string;
  vlm_month: string;
  pnl_all_time: string;
  roi_all_time: string;
  vlm_all_time: string;
}

const VALUE_COLUMNS = ['account_value', ...['day', 'week', 'month', 'all_time'].flatMap((w) => [`pnl_${w}`, `roi_${w}`, `vlm_${w}`])]
  .map((column) => `${column}::text AS ${column}`)
  .join(', ');

/** All SQL over the hl_leaderboard partitions. */
@Injectable()
export class HlLeaderboardRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** One rank range through the partition's index on the sort's rank column; see rankWindow(). */
  page({ snapshotId, sort, window }: { snapshotId: number; sort: LeaderboardSort; window: RankWindow }): Promise<LeaderboardRow[]> {
    const rank = LEADERBOARD_RANKS[sort];
    return this.db.query(
      `SELECT address, ${VALUE_COLUMNS}
         FROM hl_leaderboard
        WHERE snapshot_id = $1 AND ${rank} ${window.op} $2
        ORDER BY ${rank} ${window.direction} LIMIT $3`,
      [snapshotId, window.bound, window.limit],
    );
  }
}
