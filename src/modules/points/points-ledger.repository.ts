import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { TIER_NAMES, TIERS } from '../billing/billing.public';
import { POINTS_PER_USD } from './points-rules';

/** The rate table and tier multipliers as the accrual SQL reads them (one place: points-rules.ts, tiers.ts). */
const RATES = JSON.stringify(
  Object.entries(POINTS_PER_USD).flatMap(([bucket, roles]) => Object.entries(roles).map(([role, rate]) => ({ bucket, role, rate }))),
);
const MULTIPLIERS = JSON.stringify(TIER_NAMES.map((tier) => ({ tier, multiplier: TIERS[tier].pointsMultiplier })));

/**
 * Writes points: one transaction row per builder fill of an account's wallet, with the running balance, in
 * the same transaction as the balance it moves. Only the builder-fills job writes, under its lease.
 */
@Injectable()
export class PointsLedgerRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * Points for every fill of an account's wallet that has none yet, through the tracked builders: volume
   * bucket by market, taker or maker by `crossed`, the tier the account had at the fill (Free before it
   * existed), rawPoints floored. Self-matched fills and fills under the minimum notional earn nothing and get
   * no row. Rows are written in fill order per account, each with the balance after it. Answers the rows written.
   */
  async accrue(minNotionalUsd: number): Promise<number> {
    return this.db.transaction(async (tx) => {
      // Every account this run credits has a balance row for the running sums to start from.
      await tx.query(
        `INSERT INTO points_balances (account_id)
         SELECT DISTINCT a.id FROM builder_fills f JOIN accounts a ON a.wallet_address = f.user_address
          WHERE NOT EXISTS (SELECT 1 FROM points_transactions p WHERE p.fill_id = f.id)
         ON CONFLICT (account_id) DO NOTHING`,
      );
      const [{ count }]: Array<{ count: number }> = await tx.query(
        `WITH pending AS (
           SELECT f.id AS fill_id, a.id AS account_id, f.market AS bucket, CASE WHEN f.crossed THEN 'taker' ELSE 'maker' END AS role,
                  f.volume_usd, f.fill_time, f.tx_hash, COALESCE(t.tier, 'free') AS tier
             FROM builder_fills f
             JOIN accounts a ON a.wallet_address = f.user_address
             LEFT JOIN LATERAL (
               SELECT c.tier FROM account_tier_changes c WHERE c.account_id = a.id AND c.effective_at <= f.fill_time
                ORDER BY c.effective_at DESC LIMIT 1
             ) t ON true
            WHERE NOT f.self_matched AND f.volume_usd >= $1::numeric
              AND NOT EXISTS (SELECT 1 FROM points_transactions p WHERE p.fill_id = f.id)
         ), priced AS (
           SELECT p.*, m.multiplier, floor(p.volume_usd * r.rate) AS raw_points
             FROM pending p
             JOIN jsonb_to_recordset($2::jsonb) AS r(bucket text, role text, rate numeric) ON r.bucket = p.bucket AND r.role = p.role
             JOIN jsonb_to_recordset($3::jsonb) AS m(tier text, multiplier numeric) ON m.tier = p.tier
         ), running AS (
           SELECT pr.*, pr.raw_points * pr.multiplier AS points,
                  b.balance + sum(pr.raw_points * pr.multiplier) OVER (PARTITION BY pr.account_id ORDER BY pr.fill_time, pr.fill_id) AS balance_after
             FROM priced pr JOIN points_balances b ON b.account_id = pr.account_id
         ), written AS (
           INSERT INTO points_transactions (account_id, fill_id, volume_bucket, role, volume_usd, vip_tier_snap, vip_multiplier_snap,
                                            raw_points, points, balance_after, event_at, trade_tx_hash)
           SELECT account_id, fill_id, bucket, role, volume_usd, tier, multiplier, raw_points, points, balance_after, fill_time, tx_hash
             FROM running ORDER BY account_id, fill_time, fill_id
           RETURNING account_id, raw_points, points
         ), moved AS (
           UPDATE points_balances b SET balance = b.balance + w.points, raw_balance = b.raw_balance + w.raw_points,
                  total_earned = b.total_earned + w.points, updated_at = now()
             FROM (SELECT account_id, sum(points) AS points, sum(raw_points) AS raw_points FROM written GROUP BY account_id) w
            WHERE b.account_id = w.account_id
           RETURNING 1
         )
         SELECT (SELECT count(*) FROM written)::int AS count`,
        [String(minNotionalUsd), RATES, MULTIPLIERS],
      );
      // A fill credited before its hash was known (read from a daily file first) shows it once builder_fills has it.
      await tx.query(
        `UPDATE points_transactions p SET trade_tx_hash = f.tx_hash
           FROM builder_fills f
          WHERE p.trade_tx_hash IS NULL AND f.id = p.fill_id AND f.tx_hash IS NOT NULL`,
      );
      return count;
    });
  }

  /** Dense rank of every account by balance, highest first: the periodic snapshot /account/points shows. */
  async refreshRanks(): Promise<void> {
    await this.db.query(
      `UPDATE points_balances b SET rank = r.rank
         FROM (SELECT account_id, dense_rank() OVER (ORDER BY balance DESC)::int AS rank FROM points_balances) r
        WHERE b.account_id = r.account_id AND b.rank IS DISTINCT FROM r.rank`,
    );
  }
}
