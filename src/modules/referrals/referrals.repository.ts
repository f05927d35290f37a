import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';

/** Serialises binds: two wallets binding to each other at once must not both pass the cycle check. */
const BIND_LOCK = 7_365_202;

export interface ReferralIdentityRow {
  refCode: string;
  referrerAddress: string | null;
  boundAt: Date | null;
}

export interface RefereeRow {
  accountId: string;
  userAddress: string;
  boundAt: Date;
  volumeUsd: string;
  builderFee: string;
}

export interface ReferrerTotalsRow {
  refereeCount: number;
  volumeUsd: string;
  builderFee: string;
}

export type BindOutcome = 'bound' | 'unknown-code' | 'self' | 'already-bound' | 'cycle';

/**
 * Referral codes and bindings, and the referees' fills through the service's builder since they bound: the
 * figures a referrer's level and rebates follow.
 */
@Injectable()
export class ReferralsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async identity(accountId: string): Promise<ReferralIdentityRow> {
    const [row] = await this.db.query(
      `SELECT a.referral_code AS "refCode", ra.wallet_address AS "referrerAddress", b.bound_at AS "boundAt"
         FROM accounts a
         LEFT JOIN referral_bindings b ON b.referee_account_id = a.id
         LEFT JOIN accounts ra ON ra.id = b.referrer_account_id
        WHERE a.id = $1`,
      [accountId],
    );
    return row;
  }

  /** The account's own volume through the service's builder. */
  async selfVolume(wallet: string, builder: string): Promise<string> {
    const [row] = await this.db.query(`SELECT COALESCE(sum(volume_usd), 0)::text AS volume FROM builder_fills WHERE user_address = $1 AND builder = $2`, [
      wallet,
      builder,
    ]);
    return row.volume;
  }

  /** Sums over every referee of `referrerId`: their volume and builder fees through `builder` since each bound. */
  async referrerTotals(referrerId: string, builder: string): Promise<ReferrerTotalsRow> {
    const [row] = await this.db.query(
      `SELECT count(DISTINCT b.referee_account_id)::int AS "refereeCount", COALESCE(sum(f.volume_usd), 0)::text AS "volumeUsd",
              COALESCE(sum(f.builder_fee), 0)::text AS "builderFee"
         FROM referral_bindings b
         JOIN accounts a ON a.id = b.referee_account_id
         LEFT JOIN builder_fills f ON f.user_address = a.wallet_address AND f.builder = $2 AND f.fill_time >= b.bound_at
        WHERE b.referrer_account_id = $1`,
      [referrerId, builder],
    );
    return row;
  }

  /** One page of the referrer's referees, the first bound first, each with its figures since it bound. */
  async referees(referrerId: string, builder: string, page: { offset: number; take: number }): Promise<RefereeRow[]> {
    return this.db.query(
      `SELECT b.referee_account_id AS "accountId", a.wallet_address AS "userAddress", b.bound_at AS "boundAt",
              COALESCE(x.volume, 0)::text AS "volumeUsd", COALESCE(x.fee, 0)::text AS "builderFee"
         FROM referral_bindings b
         JOIN accounts a ON a.id = b.referee_account_id
         LEFT JOIN LATERAL (
           SELECT sum(f.volume_usd) AS volume, sum(f.builder_fee) AS fee FROM builder_fills f
            WHERE f.user_address = a.wallet_address AND f.builder = $2 AND f.fill_time >= b.bound_at
         ) x ON true
        WHERE b.referrer_account_id = $1
        ORDER BY b.bound_at, b.referee_account_id OFFSET $3 LIMIT $4`,
      [referrerId, builder, page.offset, page.take],
    );
  }

  /** Every referrer with referees' fees since binding: what the referral claim rounds pay from. */
  async allReferrerTotals(builder: string): Promise<Array<ReferrerTotalsRow & { accountId: string; address: string }>> {
    return this.db.query(
      `SELECT b.referrer_account_id AS "accountId", r.wallet_address AS address, count(DISTINCT b.referee_account_id)::int AS "refereeCount",
              COALESCE(sum(f.volume_usd), 0)::text AS "volumeUsd", COALESCE(sum(f.builder_fee), 0)::text AS "builderFee"
         FROM referral_bindings b
         JOIN accounts r ON r.id = b.referrer_account_id
         JOIN accounts a ON a.id = b.referee_account_id
         LEFT JOIN builder_fills f ON f.user_address = a.wallet_address AND f.builder = $1 AND f.fill_time >= b.bound_at
        GROUP BY b.referrer_account_id, r.wallet_address`,
      [builder],
    );
  }

  /**
   * Binds the referee to the owner of `code` once: not to itself, not a second time, and not into a cycle
   * (the referrer, or anyone up its chain, bound to the referee). Checked and written under one lock.
   * `boundAt` is for operators seeding history (the demo); a wallet always binds now.
   */
  async bind(refereeId: string, code: string, boundAt = new Date()): Promise<BindOutcome> {
    return this.db.transaction(async (tx: EntityManager) => {
      await tx.query(`SELECT pg_advisory_xact_lock($1)`, [BIND_LOCK]);
      const [referrer]: Array<{ id: string }> = await tx.query(`SELECT id FROM accounts WHERE referral_code = $1`, [code]);
      if (!referrer) return 'unknown-code';
      if (referrer.id === refereeId) return 'self';
      const [bound] = await tx.query(`SELECT 1 FROM referral_bindings WHERE referee_account_id = $1`, [refereeId]);
      if (bound) return 'already-bound';
      const [cycle] = await tx.query(
        `WITH RECURSIVE chain(id) AS (
           SELECT $1::uuid
           UNION
           SELECT b.referrer_account_id FROM referral_bindings b JOIN chain c ON b.referee_account_id = c.id
         )
         SELECT 1 FROM chain WHERE id = $2::uuid`,
        [referrer.id, refereeId],
      );
      if (cycle) return 'cycle';
      await tx.query(`INSERT INTO referral_bindings (referee_account_id, referrer_account_id, bound_at) VALUES ($1, $2, $3)`, [
        refereeId,
        referrer.id,
        boundAt,
      ]);
      return 'bound';
    });
  }
}
