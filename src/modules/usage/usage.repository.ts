import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

export interface UsageCount {
  accountId: string;
  period: number;
  endpoint: string;
  calls: number;
  creditsMicro: string;
}

/** The durable copy of the live usage meters. */
@Injectable()
export class UsageRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Absolute values, so re-syncing the same meter twice changes nothing. */
  async upsert(counts: UsageCount[]): Promise<void> {
    if (counts.length === 0) return;
    const payload = JSON.stringify(
      counts.map((c) => ({ account_id: c.accountId, period: c.period, endpoint: c.endpoint, calls: c.calls, credits: c.creditsMicro })),
    );
    await this.db.query(
      `INSERT INTO usage_counters (account_id, period, endpoint, calls, credits, updated_at)
       SELECT account_id, period, endpoint, calls, credits / 1000000, now()
         FROM jsonb_to_recordset($1::jsonb) AS u(account_id uuid, period int, endpoint text, calls bigint, credits numeric)
       ON CONFLICT (account_id, period, endpoint)
       DO UPDATE SET calls = EXCLUDED.calls, credits = EXCLUDED.credits, updated_at = now()`,
      [payload],
    );
  }

  async find(accountId: string, period: number): Promise<UsageCount[]> {
    const rows: Array<{ endpoint: string; calls: string; credits_micro: string }> = await this.db.query(
      `SELECT endpoint, calls, (credits * 1000000)::bigint::text AS credits_micro
         FROM usage_counters WHERE account_id = $1 AND period = $2`,
      [accountId, period],
    );
    return rows.map((r) => ({ accountId, period, endpoint: r.endpoint, calls: Number(r.calls), creditsMicro: r.credits_micro }));
  }
}
