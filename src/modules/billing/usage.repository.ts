import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { DailyUsageCount, UsageCount } from './usage-meter.format';

/** One meter's delta taken from the KV store, under the batch id that makes adding it idempotent. */
export interface UsageClaim {
  accountId: string;
  period: number;
  batchId: string;
  /** The meter's batch before this one; null when the KV store had no record of one. */
  prevBatchId: string | null;
  counts: DailyUsageCount[];
}

/** A meter's durable totals and the batch id of the last delta they include. */
export interface DurableUsage {
  counts: UsageCount[];
  lastBatchId: string | null;
}

/** Durable daily usage of some days and the meters (periods) they may come from, read in one snapshot. */
export interface DurableDailyUsage {
  counts: Array<{ day: string; endpoint: string; calls: number; creditsMicro: string }>;
  /** Period -> the batch id of the last delta its meter added; periods never synced are absent. */
  lastBatchIds: Map<number, string>;
}

/**
 * The ledger's part of /usage (a charged call is counted by its ledger row, not by the meters): CTE bodies
 * that add `source`, rows `s(account_id, period, day, endpoint, calls, credits)` (one per charge row
 * written: 1 call and its cost; one per charge row deleted by a void: -1 and minus its cost), to
 * usage_counters and usage_daily. LedgerRepository puts them in the statement or transaction that writes
 * those rows, so usage and ledger commit together and a batch written twice counts once (only rows
 * actually written or deleted count). Accounts removed since take their usage with them.
 */
export function usageFromLedgerSql(source: string): string {
  return `
  usage_rows AS (
    SELECT s.account_id, s.period, s.day, s.endpoint, s.calls, s.credits FROM ${source} JOIN accounts a ON a.id = s.account_id
  ), usage_per_period AS (
    INSERT INTO usage_counters AS u (account_id, period, endpoint, calls, credits, updated_at)
    SELECT account_id, period, endpoint, sum(calls), sum(credits), now() FROM usage_rows GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (account_id, period, endpoint)
    DO UPDATE SET calls = u.calls + EXCLUDED.calls, credits = u.credits + EXCLUDED.credits, updated_at = now()
    RETURNING 1
  ), usage_per_day AS (
    INSERT INTO usage_daily AS u (account_id, day, endpoint, calls, credits)
    SELECT account_id, day, endpoint, sum(calls), sum(credits) FROM usage_rows GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (account_id, day, endpoint)
    DO UPDATE SET calls = u.calls + EXCLUDED.calls, credits = u.credits + EXCLUDED.credits
    RETURNING 1
  )`;
}

/** The durable usage totals, per period and per UTC day: every synced delta added once to both. */
@Injectable()
export class UsageRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * Adds each claim's counts once, in one statement (so the batch bookkeeping and the counts commit
   * together): to usage_counters per period, and to usage_daily per UTC day the calls were counted on (a
   * count with no day, written by earlier versions, on the UTC day of this statement). A claim with a
   * predecessor is added only if the meter's last batch is that predecessor (then its own id becomes the
   * last): a retry finds its own id there instead, and a stale retry finds a later one, so neither adds
   * again; a concurrent retry waits on the meter's row and then sees the new id. A claim without a
   * predecessor is added if its id is new to usage_sync_roots. A claim listed twice is added once. A claim
   * for an account that no longer exists is dropped. Rows go in key order so two replicas adding
   * overlapping claims lock rows in the same order.
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
          day: u.day,
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
       ), daily AS (
         INSERT INTO usage_daily AS u (account_id, day, endpoint, calls, credits)
         SELECT d.account_id, COALESCE(d.day, (now() AT TIME ZONE 'UTC')::date), d.endpoint, sum(d.calls), sum(d.credits) / 1000000
           FROM jsonb_to_recordset($2::jsonb) AS d(account_id uuid, period int, batch_id uuid, endpoint text, day date, calls bigint, credits numeric)
           JOIN fresh USING (account_id, period, batch_id)
          GROUP BY 1, 2, 3
         HAVING sum(d.calls) <> 0 OR sum(d.credits) <> 0
          ORDER BY 1, 2, 3
         ON CONFLICT (account_id, day, endpoint)
         DO UPDATE SET calls = u.calls + EXCLUDED.calls, credits = u.credits + EXCLUDED.credits
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

  /**
   * usage_daily of an account from `from` to `to` (YYYY-MM-DD, both included) and the last batch id of its
   * meters from `firstPeriod` to `lastPeriod`, in one statement so both come from the same snapshot.
   */
  async findDaily(
    accountId: string,
    { from, to, firstPeriod, lastPeriod }: { from: string; to: string; firstPeriod: number; lastPeriod: number },
  ): Promise<DurableDailyUsage> {
    const [row]: Array<{ last_batches: unknown; counts: unknown }> = await this.db.query(
      `SELECT COALESCE((SELECT json_object_agg(period, batch_id::text) FROM usage_meter_syncs
                         WHERE account_id = $1 AND period BETWEEN $4 AND $5), '{}'::json) AS last_batches,
              COALESCE((SELECT json_agg(json_build_object('day', to_char(day, 'YYYY-MM-DD'), 'endpoint', endpoint, 'calls', calls::text,
                                                          'creditsMicro', (credits * 1000000)::bigint::text))
                          FROM usage_daily WHERE account_id = $1 AND day BETWEEN $2::date AND $3::date), '[]'::json) AS counts`,
      [accountId, from, to, firstPeriod, lastPeriod],
    );
    const lastBatches = parseJson(row.last_batches) as Record<string, string>;
    const counts = parseJson(row.counts) as Array<{ day: string; endpoint: string; calls: string; creditsMicro: string }>;
    return {
      lastBatchIds: new Map(Object.entries(lastBatches).map(([period, batchId]) => [Number(period), batchId])),
      counts: counts.map((c) => ({ day: c.day, endpoint: c.endpoint, calls: Number(c.calls), creditsMicro: c.creditsMicro })),
    };
  }

  /** The instant an account's credit (and usage) periods are counted from; null for an unknown account. */
  async resetAnchorOf(accountId: string): Promise<Date | null> {
    const [row]: Array<{ reset_anchor_at: Date | string }> = await this.db.query(`SELECT reset_anchor_at FROM accounts WHERE id = $1`, [accountId]);
    return row ? new Date(row.reset_anchor_at) : null;
  }
}

/** A json column, parsed by some drivers and left as text by others. */
function parseJson(value: unknown): unknown {
  return typeof value === 'string' ? JSON.parse(value) : value;
}
