import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

export interface FeeFillRow {
  txHash: string | null;
  volumeUsd: string;
  tier: string;
  fillTime: Date;
}

/** The key holder's fills through the service's builder, with the tier the account had at each. */
@Injectable()
export class FeesRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async fills(args: { accountId: string; wallet: string; builder: string; start: Date; end: Date; offset: number; take: number }): Promise<FeeFillRow[]> {
    return this.db.query(
      `SELECT f.tx_hash AS "txHash", f.volume_usd::text AS "volumeUsd", COALESCE(t.tier, 'free') AS tier, f.fill_time AS "fillTime"
         FROM builder_fills f
         LEFT JOIN LATERAL (
           SELECT c.tier FROM account_tier_changes c WHERE c.account_id = $1 AND c.effective_at <= f.fill_time
            ORDER BY c.effective_at DESC LIMIT 1
         ) t ON true
        WHERE f.user_address = $2 AND f.builder = $3 AND f.fill_time >= $4 AND f.fill_time < $5
        ORDER BY f.fill_time DESC, f.id DESC OFFSET $6 LIMIT $7`,
      [args.accountId, args.wallet, args.builder, args.start, args.end, args.offset, args.take],
    );
  }
}
