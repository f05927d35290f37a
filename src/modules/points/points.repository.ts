import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { PointsBucket } from './points-rules';

export interface PointsBalanceRow {
  balance: string;
  rawBalance: string;
  totalEarned: string;
  rank: number;
}

export interface PointsBucketRow {
  bucket: PointsBucket;
  rawPoints: string;
  points: string;
  volumeUsd: string;
}

export interface PointsTransactionRow {
  id: string;
  volumeBucket: PointsBucket;
  role: string;
  volumeUsd: string;
  vipTierSnap: string;
  vipMultiplierSnap: string;
  rawPoints: string;
  points: string;
  balanceAfter: string;
  eventAt: Date;
  tradeTxHash: string | null;
}

/** Reads of an account's points (the builder-fills job writes them through PointsLedgerRepository). */
@Injectable()
export class PointsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** The balance row, or zeros ranked below every account with points when the account has earned none. */
  async balance(accountId: string): Promise<PointsBalanceRow> {
    const [row]: PointsBalanceRow[] = await this.db.query(
      `SELECT COALESCE(b.balance, 0)::text AS balance, COALESCE(b.raw_balance, 0)::text AS "rawBalance",
              COALESCE(b.total_earned, 0)::text AS "totalEarned",
              COALESCE(b.rank, (SELECT count(DISTINCT balance) FROM points_balances WHERE balance > 0) + 1)::int AS rank
         FROM (SELECT 1) one LEFT JOIN points_balances b ON b.account_id = $1`,
      [accountId],
    );
    return row;
  }

  async buckets(accountId: string): Promise<PointsBucketRow[]> {
    return this.db.query(
      `SELECT volume_bucket AS bucket, sum(raw_points)::text AS "rawPoints", sum(points)::text AS points, sum(volume_usd)::text AS "volumeUsd"
         FROM points_transactions WHERE account_id = $1 GROUP BY volume_bucket`,
      [accountId],
    );
  }

  /** Newest first; `take` rows from `offset` (the caller asks one more than a page to learn whether another follows). */
  async transactions({
    accountId,
    bucket,
    offset,
    take,
  }: {
    accountId: string;
    bucket?: PointsBucket;
    offset: number;
    take: number;
  }): Promise<PointsTransactionRow[]> {
    const params: unknown[] = [accountId, offset, take];
    const byBucket = bucket === undefined ? '' : `AND volume_bucket = $${params.push(bucket)}`;
    // ORDER BY names the table's id: a bare `id` is the text output column, which sorts 999 above 1000 and no index serves.
    return this.db.query(
      `SELECT id::text, volume_bucket AS "volumeBucket", role, volume_usd::text AS "volumeUsd", vip_tier_snap AS "vipTierSnap",
              vip_multiplier_snap::text AS "vipMultiplierSnap", raw_points::text AS "rawPoints", points::text AS points,
              balance_after::text AS "balanceAfter", event_at AS "eventAt", trade_tx_hash AS "tradeTxHash"
         FROM points_transactions WHERE account_id = $1 ${byBucket}
        ORDER BY points_transactions.id DESC OFFSET $2 LIMIT $3`,
      params,
    );
  }
}
