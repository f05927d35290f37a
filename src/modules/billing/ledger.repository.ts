import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { PoolClient } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { DataSource } from 'typeorm';
import { foldBalancesSql } from './account-credits.repository';
import { LEDGER_COPY_COLUMNS, LedgerCopyRows, ledgerCopyRows } from './ledger-copy';
import { LEDGER_FIELD_COUNT, OutboxBatch, parseLedgerEntry } from './ledger-entry';
import { usageFromLedgerSql } from './usage.repository';

export interface LedgerWriteResult {
  inserted: number;
  malformed: number;
  /** False when another drainer has claimed the ledger since this one did: nothing was written. */
  fenced: boolean;
}

// Each line is split once (MATERIALIZED: an inlined CTE would split it again for every field). Amounts
// travel as integer micro-credits and become credits by their text ('<micro>e-6'), which PostgreSQL
// parses at once, cheaper than a numeric multiplication; the timestamp divides as float8, ~4 times cheaper
// than numeric division (and exact to the microsecond for epoch milliseconds).
const ENTRIES = `
  fence AS MATERIALIZED (
    SELECT 1 FROM ledger_drain WHERE outbox = $3 AND token = $2 FOR SHARE
  ), lines AS MATERIALIZED (
    SELECT string_to_array(line, '|') AS f FROM unnest(string_to_array($1::text, E'\\n')) AS line
  ), entries AS MATERIALIZED (
    SELECT f[1] AS type, f[2]::uuid AS account_id,
           CASE f[1] WHEN 'period_reset' THEN ledger_reference_uuid(f[3]) ELSE f[3]::uuid END AS reference_id,
           CASE f[1] WHEN 'period_reset' THEN 'credit period reset ' || f[3] END AS notes, nullif(f[4], '') AS endpoint,
           (f[5] || 'e-6')::numeric AS amount, (f[6] || 'e-6')::numeric AS balance_after, f[7]::int AS epoch, f[8]::int AS period,
           f[9]::bigint AS seq, f[10]::bigint AS at_ms
      FROM lines
     WHERE cardinality(f) = ${LEDGER_FIELD_COUNT} AND f[1] IN ('charge', 'period_reset', 'void')
  )`;

// Rows go in by account: the inserts into the (account_id, id) index then follow each other on the same
// leaf pages (~0.6 µs less per row); an account's rows keep their order (by seq), which is all the
// account's history reads by id rely on.
const insertRows = (skipVoided: string, onConflict: string) => `
  inserted AS (
    INSERT INTO credit_transactions
      (account_id, type, amount, balance_after, reference_type, reference_id, notes, endpoint, seq, created_at)
    SELECT e.account_id, e.type, e.amount, e.balance_after,
           CASE e.type WHEN 'charge' THEN 'api_call' ELSE 'credit_period' END, e.reference_id, e.notes, e.endpoint, e.seq,
           to_timestamp(e.at_ms / 1000.0::float8)
      FROM entries e
     WHERE EXISTS (SELECT 1 FROM fence) AND e.type <> 'void' ${skipVoided}
     ORDER BY e.account_id, e.seq
    ${onConflict}
    RETURNING 1
  )`;

const UTC_DAY_OF_ENTRY = `(to_timestamp(e.at_ms / 1000.0::float8) AT TIME ZONE 'UTC')::date`;
const VOIDED_HERE = 'EXISTS (SELECT 1 FROM voids v WHERE v.reference_id = e.reference_id)';
/**
 * Usage of the charge rows the statement writes: its charges whose reference the ledger did not hold when
 * the statement began (what ON CONFLICT DO NOTHING skips), one index probe each. Not a join of the INSERT's
 * RETURNING with the entries: PostgreSQL cannot estimate either side and planned it as a nested loop,
 * 300 µs per row for a batch of 5,000.
 */
const chargesWritten = (skipVoided: string, skipWritten = 'AND NOT EXISTS (SELECT 1 FROM credit_transactions t WHERE t.reference_id = e.reference_id)') => `(
    SELECT e.account_id, e.period, ${UTC_DAY_OF_ENTRY} AS day, e.endpoint, 1 AS calls, -e.amount AS credits
      FROM entries e
     WHERE EXISTS (SELECT 1 FROM fence) AND e.type = 'charge' ${skipVoided} ${skipWritten}`;
const CHARGES_WRITTEN = `${chargesWritten('')}
  ) s`;
/** WRITE_NEW writes every line or fails on a reference written before: no probe to make. */
const CHARGES_ALL_WRITTEN = `${chargesWritten('', '')}
  ) s`;
/** ... and of the charge rows its voids deleted (a handful), in the period the void names (the charge's). */
const CHARGES_WRITTEN_OR_DELETED = `${chargesWritten(`AND NOT ${VOIDED_HERE}`)}
    UNION ALL
    SELECT d.account_id, v.period, (d.created_at AT TIME ZONE 'UTC')::date, d.endpoint, -1, d.amount
      FROM deleted d JOIN voids v ON v.reference_id = d.reference_id
  ) s`;

const FOLD_AND_COUNT = `
  newest AS (
    SELECT DISTINCT ON (account_id) account_id, balance_after, epoch, period, seq
      FROM entries WHERE balance_after >= 0 ORDER BY account_id, seq DESC
  ), folded AS (${foldBalancesSql('newest n', 'EXISTS (SELECT 1 FROM fence)')}
  )
  SELECT (SELECT count(*) FROM inserted)::int AS inserted, (SELECT count(*) FROM entries)::int AS valid,
         EXISTS (SELECT 1 FROM fence) AS fenced`;

const SKIP_WRITTEN = 'ON CONFLICT (reference_id) DO NOTHING';

// A batch is normally new to the ledger: its statement skips the conflict arbiter (speculative insertion
// costs ~3 µs per row). A batch written before but not trimmed (a drainer stopped in between) then fails
// on the unique reference, changing nothing, and is written again with WRITE.
const WRITE_NEW = `WITH ${ENTRIES}, ${insertRows('', '')}, ${usageFromLedgerSql(CHARGES_ALL_WRITTEN)}, ${FOLD_AND_COUNT}`;
const WRITE = `WITH ${ENTRIES}, ${insertRows('', SKIP_WRITTEN)}, ${usageFromLedgerSql(CHARGES_WRITTEN)}, ${FOLD_AND_COUNT}`;

// The INSERT skips every voided charge, and the DELETE removes every voided charge already written (by an
// earlier batch, or by an earlier write of this very batch that was not trimmed); both run on the snapshot
// the statement started with, so the DELETE never sees the INSERT's rows.
const WRITE_WITH_VOIDS = `WITH ${ENTRIES},
  voids AS MATERIALIZED (
    SELECT reference_id, period FROM entries WHERE type = 'void'
  ), ${insertRows(`AND NOT ${VOIDED_HERE}`, SKIP_WRITTEN)},
  deleted AS (
    DELETE FROM credit_transactions t
     WHERE EXISTS (SELECT 1 FROM fence)
       AND t.reference_id IN (SELECT reference_id FROM voids) AND t.type = 'charge' AND t.reference_type = 'api_call'
    RETURNING t.account_id, t.reference_id, t.endpoint, t.amount, t.created_at
  ), ${usageFromLedgerSql(CHARGES_WRITTEN_OR_DELETED)}, ${FOLD_AND_COUNT}`;

const FENCE = `SELECT 1 FROM ledger_drain WHERE outbox = $1 AND token = $2 FOR SHARE`;
const FOLD = foldBalancesSql('unnest($1::uuid[], $2::numeric[], $3::int[], $4::int[], $5::bigint[]) AS n(account_id, balance_after, epoch, period, seq)');
const COPY_USAGE = `WITH ${usageFromLedgerSql(
  'unnest($1::uuid[], $2::int[], $3::date[], $4::text[], $5::bigint[], $6::numeric[]) AS s(account_id, period, day, endpoint, calls, credits)',
)} SELECT 1`;

/**
 * Writes outbox lines (ledger-entry.ts) into credit_transactions and folds the newest balance into
 * accounts (foldBalancesSql). Two ways, with the same rows and balances:
 *
 * - a batch of charges only (almost every batch) goes by COPY, in one transaction with the fence and
 *   the fold (ledgerCopyRows): ~6.5 µs of PostgreSQL CPU per row against ~9.2 for the statement below
 *   (`npm run bench:ledger`), for ~1 µs of node per line to make the COPY rows.
 * - any other batch, a replayed one, one COPY refuses, and every batch on embedded PGlite: one
 *   statement (no explicit transaction, so it is atomic on PGlite too), to which the lines go as one
 *   text that PostgreSQL splits.
 *
 * - charge and period_reset lines become rows; a replay is harmless (a reference already written is
 *   skipped, and an older seq never moves the balance).
 * - a void line cancels the charge of a call that failed: a charge voided in the same batch is never
 *   written, and a charge row already written is deleted.
 * - the drainer's fencing token must still be the one claimed for its outbox, checked under a row lock:
 *   once another drainer has claimed it, a late write of an older batch (which could bring back a deleted
 *   charge) changes nothing. Outboxes are told apart by their KV key, so deployments (or test runs) with
 *   their own Redis prefix on one database do not fence each other off.
 * - lines without the ledger shape are counted and skipped (none are expected: only the admission
 *   scripts write them). PostgreSQL checks only the field count and type; a field it cannot cast fails
 *   the statement, and the batch is then filtered line by line in node and written again.
 */
@Injectable()
export class LedgerRepository {
  /** COPY batches of charges: on PostgreSQL, not on embedded PGlite, which has no COPY FROM STDIN here. */
  private readonly bulkCopy: boolean;

  constructor(@InjectDataSource() private readonly db: DataSource) {
    // typeorm-pglite plugs PGlite in as the `driver` module of TypeORM's postgres driver.
    this.bulkCopy = !(db.options as { driver?: unknown }).driver;
  }

  /**
   * Makes `token` the only one whose writes from `outbox` go through (it waits for a write in flight under
   * an older token).
   */
  async claim(outbox: string, token: string): Promise<void> {
    await this.db.query(
      `INSERT INTO ledger_drain (outbox, token) VALUES ($1, $2)
       ON CONFLICT (outbox) DO UPDATE SET token = EXCLUDED.token, claimed_at = now()`,
      [outbox, token],
    );
  }

  /** The newest ledger sequence folded into any account (as text: a bigint): where the KV sequence must resume. */
  async highestFoldedSeq(): Promise<string> {
    const [{ seq }] = await this.db.query(`SELECT COALESCE(max(credit_seq), 0)::text AS seq FROM accounts`);
    return seq;
  }

  /** The charges of `batch` the ledger does not hold: how many, and their credits (decimal text). */
  async missingCharges(batch: OutboxBatch): Promise<{ count: number; credits: string }> {
    const charges = batch
      .lines()
      .map(parseLedgerEntry)
      .filter((e) => e?.type === 'charge');
    if (charges.length === 0) return { count: 0, credits: '0' };
    const [row]: Array<{ count: number; credits: string }> = await this.db.query(
      `SELECT count(*)::int AS count, COALESCE(sum(c.cost), 0)::text AS credits
         FROM unnest($1::uuid[], $2::numeric[]) AS c(reference_id, cost)
        WHERE NOT EXISTS (SELECT 1 FROM credit_transactions t WHERE t.reference_id = c.reference_id)`,
      [charges.map((e) => e!.referenceId), charges.map((e) => `${-Number(e!.amountMicro)}e-6`)],
    );
    return { count: Number(row.count), credits: row.credits };
  }

  async write(batch: OutboxBatch, { outbox, token }: { outbox: string; token: string }): Promise<LedgerWriteResult> {
    try {
      return await this.writeBatch(batch, outbox, token);
    } catch (error) {
      // Class 22 is "data exception" (a field that does not cast); anything else is a real failure.
      if ((error as { code?: string }).code?.startsWith('22') !== true) throw error;
      const wellFormed = batch.lines().filter((line) => parseLedgerEntry(line) !== null);
      const result = await this.writeBatch(OutboxBatch.of(wellFormed), outbox, token);
      return { ...result, malformed: batch.count - wellFormed.length + result.malformed };
    }
  }

  private async writeBatch(batch: OutboxBatch, outbox: string, token: string): Promise<LedgerWriteResult> {
    if (batch.count === 0) return { inserted: 0, malformed: 0, fenced: true };
    const copy = this.bulkCopy ? ledgerCopyRows(batch) : null;
    const copied = copy ? await this.copyCharges(copy, outbox, token) : 'refused';
    if (typeof copied === 'object') return { inserted: copied.inserted, malformed: 0, fenced: copied.fenced };
    const params = [batch.text, token, outbox];
    let rows: Array<{ inserted: number; valid: number; fenced: boolean }>;
    // Most batches hold no void; their statement leaves the void steps out (planned for a handful of
    // voids, a DELETE joined to an empty set can still walk the whole reference index).
    if (batch.hasVoid) rows = await this.db.query(WRITE_WITH_VOIDS, params);
    // A replay that COPY met would fail the conflict-free statement the same way: skip straight past it.
    else if (copied === 'replayed') rows = await this.db.query(WRITE, params);
    else {
      try {
        rows = await this.db.query(WRITE_NEW, params);
      } catch (error) {
        // 23505: a reference already in the ledger, i.e. a batch (or part of one) written before.
        if ((error as { code?: string }).code !== '23505') throw error;
        rows = await this.db.query(WRITE, params);
      }
    }
    const { inserted = 0, valid = 0, fenced = false } = rows[0] ?? {};
    return { inserted: Number(inserted), malformed: batch.count - Number(valid), fenced: fenced === true };
  }

  /**
   * A batch of charges by COPY, in one transaction with the fence and the fold. When PostgreSQL refuses
   * it, the statement path takes the batch: 'replayed' for a reference already written (it skips what
   * exists), 'refused' for a field that does not cast (it filters the bad lines).
   */
  private async copyCharges(copy: LedgerCopyRows, outbox: string, token: string): Promise<{ inserted: number; fenced: boolean } | 'replayed' | 'refused'> {
    const runner = this.db.createQueryRunner();
    try {
      const client = (await runner.connect()) as PoolClient;
      await runner.startTransaction();
      try {
        if ((await client.query(FENCE, [outbox, token])).rowCount === 0) {
          await runner.rollbackTransaction();
          return { inserted: 0, fenced: false };
        }
        const stream = client.query(copyFrom(`COPY credit_transactions (${LEDGER_COPY_COLUMNS}) FROM STDIN`));
        await pipeline(Readable.from([copy.text]), stream);
        const { accountIds, balances, epochs, periods, seqs } = copy.fold;
        await client.query(FOLD, [accountIds, balances, epochs, periods, seqs]);
        const u = copy.usage;
        await client.query(COPY_USAGE, [u.accountIds, u.periods, u.days, u.endpoints, u.calls, u.credits]);
        await runner.commitTransaction();
        return { inserted: stream.rowCount, fenced: true };
      } catch (error) {
        await runner.rollbackTransaction();
        const code = (error as { code?: string }).code ?? '';
        // 23505: a reference already in the ledger; class 22: a field that does not cast.
        if (code === '23505') return 'replayed';
        if (code.startsWith('22')) return 'refused';
        throw error;
      }
    } finally {
      await runner.release();
    }
  }
}
