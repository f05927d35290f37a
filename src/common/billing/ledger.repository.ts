import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { LedgerEntry } from './ledger-entry';

/**
 * Writes ledger entries from the KV outbox into credit_transactions and folds the newest balance into
 * accounts, in one statement (no explicit transaction, so it is atomic on embedded PGlite too).
 * Replays are harmless: a reference already written is skipped, and an older seq never moves the balance.
 */
@Injectable()
export class LedgerRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async write(entries: LedgerEntry[]): Promise<number> {
    if (entries.length === 0) return 0;
    const payload = JSON.stringify(
      entries.map((e) => ({
        type: e.type,
        account_id: e.accountId,
        reference_type: e.type === 'charge' ? 'api_call' : 'credit_period',
        reference_id: e.referenceId,
        endpoint: e.endpoint || null,
        amount: e.amountMicro,
        balance_after: e.balanceAfterMicro,
        epoch: e.epoch,
        period: e.period,
        seq: e.seq,
        at_ms: e.atMs,
      })),
    );
    const rows: Array<{ inserted: number }> = await this.db.query(
      `WITH entries AS (
         SELECT * FROM jsonb_to_recordset($1::jsonb) AS e(
           type text, account_id uuid, reference_type text, reference_id text, endpoint text,
           amount numeric, balance_after numeric, epoch int, period int, seq bigint, at_ms bigint)
       ), inserted AS (
         INSERT INTO credit_transactions
           (account_id, type, amount, balance_after, reference_type, reference_id, endpoint, seq, created_at)
         SELECT account_id, type, amount / 1000000, balance_after / 1000000, reference_type, reference_id, endpoint, seq,
                to_timestamp(at_ms / 1000.0)
           FROM entries
         ON CONFLICT (type, reference_type, reference_id) DO NOTHING
         RETURNING 1
       ), newest AS (
         SELECT DISTINCT ON (account_id) account_id, balance_after, epoch, period, seq
           FROM entries ORDER BY account_id, seq DESC
       ), folded AS (
         UPDATE accounts a
            SET credit_balance = n.balance_after / 1000000, credit_seq = n.seq,
                credit_period = GREATEST(a.credit_period, n.period), updated_at = now()
           FROM newest n
          WHERE a.id = n.account_id AND a.credit_epoch = n.epoch AND a.credit_seq < n.seq
         RETURNING 1
       )
       SELECT (SELECT count(*) FROM inserted)::int AS inserted, (SELECT count(*) FROM folded)::int AS folded`,
      [payload],
    );
    return Number(rows[0]?.inserted ?? 0);
  }
}
