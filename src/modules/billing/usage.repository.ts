import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { UsageCount } from './usage-meter.format';

/** One meter's delta taken from the KV store, under the batch id that makes adding it idempotent. */
export interface UsageClaim {
  accountId: string;
  period: number;
  batchId: string;
  /** The meter's batch before this one; null when the KV store had no record of one. */
  prevBatchId: string | null;
  counts: UsageCount[];
}

/** A meter's durable totals and the batch id of the last delta they include. */
export interface DurableUsage {
  counts: UsageCount[];
  lastBatchId: string | null;
}

/** The durable usage totals: every synced delta added once. */
@Injectable()
export class UsageRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * Adds each claim's counts once, in one statement (so the batch bookkeeping and the counts commit
   * together). A claim with a predecessor is added only if the meter's last batch is that predecessor
   * (then its own id becomes the last): a retry finds its own id there instead, and a stale retry finds a
   * later one, so neither adds again; a concurrent retry waits on the meter's row and then sees the new
   * id. A claim without a predecessor is added if its id is new to usage_sync_roots. A claim listed twice
   * is added once. A claim for an account that no longer exists is dropped. Rows go in key order so two
   * replicas adding overlapping claims lock rows in the same order.
   *
   * Returns the batch ids of claims that were not added although the meter's last batch (as the statement
   * found it) is neither their predecessor nor themselves: claims that nothing will ever add, unless sent
   * again without a predecessor (see REROOT_SCRIPT), or stale retries, which the KV store tells apart.
   */
  async add(listed: UsageClaim[]): Promise<string[]> {
    if (listed.length === 0) return [];
    // The statement sums the counts of every listing of a batch it adds, so each batch goes in once.
    const claims = [...new Map(listed.map((c) => [c.batchId, c])).values()];
    const meters = JSON.stringify(claims.map((c) => ({ account_id: c.accountId, period: c.period, batch_id: c.batchId, prev_batch_id: c.prevBatchId })));
    const counts = JSON.stringify(
      claims.flatMap((c) =>
        c.counts.map((u) => ({
          account_id: c.accountId,
          period: c.period,
          batch_id: c.batchId,
          endpoint: u.endpoint,
          calls: u.calls,
          credits: u.creditsMicro,
        })),
      ),
    );
    const orphans: Array<{ batch_id: string }> = await this.db.query(
      `WITH claims AS (
         SELECT c.* FROM jsonb_to_recordset($1::jsonb) AS c(account_id uuid, period int, batch_id uuid, prev_batch_id uuid)
           JOIN accounts a ON a.id = c.account_id
       ), roots AS (
         INSERT INTO usage_sync_roots (batch_id, account_id, period)
         SELECT batch_id, account_id, period FROM claims WHERE prev_batch_id IS NULL ORDER BY batch_id
         ON CONFLICT (batch_id) DO NOTHING
         RETURNING account_id, period, batch_id
       ), rooted AS (
         INSERT INTO usage_meter_syncs AS s (account_id, period, batch_id)
         SELECT account_id, period, batch_id FROM roots ORDER BY account_id, period
         ON CONFLICT (account_id, period) DO UPDATE SET batch_id = EXCLUDED.batch_id, synced_at = now()
         RETURNING account_id, period, batch_id
       ), chained AS (
         UPDATE usage_meter_syncs s SET batch_id = c.batch_id, synced_at = now()
           FROM claims c
          WHERE c.prev_batch_id IS NOT NULL AND s.account_id = c.account_id AND s.period = c.period AND s.batch_id = c.prev_batch_id
         RETURNING s.account_id, s.period, s.batch_id
       ), fresh AS (
         SELECT * FROM rooted UNION ALL SELECT * FROM chained
       ), added AS (
         INSERT INTO usage_counters AS u (account_id, period, endpoint, calls, credits, updated_at)
         SELECT d.account_id, d.period, d.endpoint, sum(d.calls), sum(d.credits) / 1000000, now()
           FROM jsonb_to_recordset($2::jsonb) AS d(account_id uuid, period int, batch_id uuid, endpoint text, calls bigint, credits numeric)
           JOIN fresh USING (account_id, period, batch_id)
          GROUP BY d.account_id, d.period, d.endpoint
          ORDER BY d.account_id, d.period, d.endpoint
         ON CONFLICT (account_id, period, endpoint)
         DO UPDATE SET calls = u.calls + EXCLUDED.calls, credits = u.credits + EXCLUDED.credits, updated_at = now()
         RETURNING 1
       )
       SELECT c.batch_id::text AS batch_id
         FROM claims c LEFT JOIN usage_meter_syncs s USING (account_id, period)
        WHERE c.prev_batch_id IS NOT NULL
          AND s.batch_id IS DISTINCT FROM c.prev_batch_id AND s.batch_id IS DISTINCT FROM c.batch_id`,
      [meters, counts],
    );
    return orphans.map((o) => o.batch_id);
  }

  /** One statement, so the totals and the last batch id come from the same snapshot. */
  async find(accountId: string, period: number): Promise<DurableUsage> {
    const [row]: Array<{ last_batch_id: string | null; counts: unknown }> = await this.db.query(
      `SELECT (SELECT batch_id::text FROM usage_meter_syncs WHERE account_id = $1 AND period = $2) AS last_batch_id,
              COALESCE((SELECT json_agg(json_build_object('endpoint', endpoint, 'calls', calls::text,
                                                          'creditsMicro', (credits * 1000000)::bigint::text))
                          FROM usage_counters WHERE account_id = $1 AND period = $2), '[]'::json) AS counts`,
      [accountId, period],
    );
    const counts = (typeof row.counts === 'string' ? JSON.parse(row.counts) : row.counts) as Array<{ endpoint: string; calls: string; creditsMicro: string }>;
    return {
      lastBatchId: row.last_batch_id,
      counts: counts.map((c) => ({ accountId, period, endpoint: c.endpoint, calls: Number(c.calls), creditsMicro: c.creditsMicro })),
    };
  }
}
