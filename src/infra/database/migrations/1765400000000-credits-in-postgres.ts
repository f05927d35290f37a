import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The credits store `postgres` (CREDITS_STORE; docs/decisions.md, "Billing through faults"): where the KV
 * store keeps no data through a crash (the embedded in-process store, a Redis without an append-only
 * file), an admitted call's charge is written in PostgreSQL before it is answered, so nothing a KV store
 * loses moves money. Two functions, one round trip per batch of calls each:
 *
 * - billing_admit locks the accounts it charges (in id order), then decides calls one after the other as
 *   the KV admission script does (a call sees the
 *   balance the calls before it left): a monthly reset when the caller knows the account's epoch and the
 *   stored period is older (a period_reset row, as the ledger drain writes one), then the charge, with
 *   its ledger row and its usage, or INSUFFICIENT_CREDITS; a call that only reads its balance (a HEAD, a
 *   call over its window) writes nothing. A charge already in the ledger (the same request id: a batch
 *   sent again after a lost reply) is answered as it was, not taken again.
 * - billing_void takes a failed call's charge back: its row, its credits (into the balance it was taken
 *   from, unless a monthly reset or an operator change has replaced it since) and its usage. A second run
 *   finds no row and changes nothing. For a batch given up on (answered 503 without a reply), it also
 *   leaves the call's id in credit_abandoned under the account's lock, so a billing_admit of that batch
 *   still on its way charges nothing; billing_admit waits for its locks no longer than the admission's
 *   deadline (lock_timeout).
 *
 * Ledger sequences are the clock in microseconds or one above the account's last, as the KV scripts number
 * them, so a balance folded from an outbox line (another store, before a switch) never overwrites these.
 * billing_state remembers which store the service ran on, so a switch can make the KV store re-seed.
 */
export class CreditsInPostgres1765400000000 implements MigrationInterface {
  name = 'CreditsInPostgres1765400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE billing_state (
        name varchar(64) PRIMARY KEY,
        value text NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    // A batch given up on (answered 503): its calls' ids, so that a billing_admit still on its way (queued
    // behind a lock, or its packets late) charges none of them. Kept a day, pruned by each give-up.
    await q.query(`
      CREATE TABLE credit_abandoned (
        reference_id uuid PRIMARY KEY,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX credit_abandoned_created_at ON credit_abandoned (created_at)`);
    await q.query(`
      CREATE FUNCTION billing_usage_add(p_account uuid, p_period int, p_day date, p_endpoint text, p_calls bigint, p_credits numeric)
      RETURNS void LANGUAGE sql AS $$
        INSERT INTO usage_counters AS u (account_id, period, endpoint, calls, credits, updated_at)
        VALUES (p_account, p_period, p_endpoint, p_calls, p_credits, now())
        ON CONFLICT (account_id, period, endpoint)
        DO UPDATE SET calls = u.calls + EXCLUDED.calls, credits = u.credits + EXCLUDED.credits, updated_at = now();
        INSERT INTO usage_daily AS u (account_id, day, endpoint, calls, credits)
        VALUES (p_account, p_day, p_endpoint, p_calls, p_credits)
        ON CONFLICT (account_id, day, endpoint)
        DO UPDATE SET calls = u.calls + EXCLUDED.calls, credits = u.credits + EXCLUDED.credits;
      $$`);
    await q.query(`
      CREATE FUNCTION billing_admit(
        p_accounts uuid[], p_requests uuid[], p_endpoints text[], p_costs bigint[], p_charges boolean[],
        p_epochs int[], p_periods int[], p_quotas bigint[], p_at_ms bigint, p_lock_timeout_ms int
      ) RETURNS TABLE (status int, balance text, epoch int, period int, seq bigint)
      LANGUAGE plpgsql AS $$
      #variable_conflict use_column
      DECLARE
        a record;
        done record;
        cost numeric;
        quota numeric;
        next_seq bigint;
        reset_name text;
        at timestamptz := to_timestamp(p_at_ms / 1000.0::float8);
        today date := (to_timestamp(p_at_ms / 1000.0::float8) AT TIME ZONE 'UTC')::date;
      BEGIN
        -- Within the admission's own deadline: a batch that cannot have its locks by then gives up here,
        -- rather than charging after its calls were answered 503.
        PERFORM set_config('lock_timeout', p_lock_timeout_ms || 'ms', true);
        -- Every account the batch charges, locked at once in id order: batches in flight together then
        -- wait for each other instead of deadlocking on two accounts taken in opposite orders.
        PERFORM 1 FROM accounts x
          WHERE x.id IN (SELECT a_id FROM unnest(p_accounts, p_charges) AS c(a_id, charged) WHERE c.charged)
          ORDER BY x.id FOR UPDATE;
        FOR i IN 1 .. coalesce(array_length(p_accounts, 1), 0) LOOP
          cost := p_costs[i] / 1000000.0;
          quota := p_quotas[i] / 1000000.0;
          seq := 0;
          IF NOT p_charges[i] THEN
            SELECT x.credit_balance, x.credit_epoch, x.credit_period INTO a FROM accounts x WHERE x.id = p_accounts[i];
            status := 1;
            balance := ((CASE WHEN a.credit_epoch = p_epochs[i] AND a.credit_period < p_periods[i] THEN quota ELSE a.credit_balance END) * 1000000)::bigint::text;
            epoch := a.credit_epoch;
            period := a.credit_period;
            RETURN NEXT;
            CONTINUE;
          END IF;
          SELECT x.credit_balance, x.credit_epoch, x.credit_period, x.credit_seq INTO a FROM accounts x WHERE x.id = p_accounts[i] FOR UPDATE;
          SELECT t.balance_after, t.seq INTO done FROM credit_transactions t WHERE t.reference_id = p_requests[i] AND t.type = 'charge';
          IF FOUND THEN
            status := 1; balance := (done.balance_after * 1000000)::bigint::text; epoch := a.credit_epoch; period := a.credit_period; seq := done.seq;
            RETURN NEXT;
            CONTINUE;
          END IF;
          -- Given up on (its call answered 503) before this run reached the database: nothing is taken.
          IF EXISTS (SELECT 1 FROM credit_abandoned g WHERE g.reference_id = p_requests[i]) THEN
            status := 2; balance := (a.credit_balance * 1000000)::bigint::text; epoch := a.credit_epoch; period := a.credit_period;
            RETURN NEXT;
            CONTINUE;
          END IF;
          IF a.credit_epoch = p_epochs[i] AND a.credit_period < p_periods[i] THEN
            next_seq := greatest(a.credit_seq + 1, (date_part('epoch', clock_timestamp()) * 1000000)::bigint);
            reset_name := p_accounts[i] || ':e' || p_epochs[i] || ':p' || p_periods[i];
            INSERT INTO credit_transactions (account_id, type, amount, balance_after, reference_type, reference_id, notes, endpoint, seq, created_at)
            VALUES (p_accounts[i], 'period_reset', quota - a.credit_balance, quota, 'credit_period', ledger_reference_uuid(reset_name),
                    'credit period reset ' || reset_name, NULL, next_seq, at)
            ON CONFLICT (reference_id) DO NOTHING;
            a.credit_balance := quota;
            a.credit_period := p_periods[i];
            a.credit_seq := next_seq;
            seq := next_seq;
            UPDATE accounts SET credit_balance = a.credit_balance, credit_period = a.credit_period, credit_seq = a.credit_seq, updated_at = now()
             WHERE id = p_accounts[i];
          END IF;
          epoch := a.credit_epoch;
          period := a.credit_period;
          IF a.credit_balance < cost THEN
            status := 2; balance := (a.credit_balance * 1000000)::bigint::text;
            RETURN NEXT;
            CONTINUE;
          END IF;
          next_seq := greatest(a.credit_seq + 1, (date_part('epoch', clock_timestamp()) * 1000000)::bigint);
          INSERT INTO credit_transactions (account_id, type, amount, balance_after, reference_type, reference_id, notes, endpoint, seq, created_at)
          VALUES (p_accounts[i], 'charge', -cost, a.credit_balance - cost, 'api_call', p_requests[i], NULL, p_endpoints[i], next_seq, at);
          UPDATE accounts SET credit_balance = credit_balance - cost, credit_seq = next_seq, updated_at = now() WHERE id = p_accounts[i];
          PERFORM billing_usage_add(p_accounts[i], a.credit_period, today, p_endpoints[i], 1, cost);
          status := 1; balance := ((a.credit_balance - cost) * 1000000)::bigint::text; seq := next_seq;
          RETURN NEXT;
        END LOOP;
      END $$`);
    await q.query(`
      CREATE FUNCTION billing_void(p_account uuid, p_request uuid, p_period int, p_abandon boolean) RETURNS text
      LANGUAGE plpgsql AS $$
      #variable_conflict use_column
      DECLARE
        gone record;
        a record;
        replaced boolean;
      BEGIN
        SELECT x.credit_balance, x.credit_period, x.credit_seq INTO a FROM accounts x WHERE x.id = p_account FOR UPDATE;
        IF p_abandon THEN
          INSERT INTO credit_abandoned (reference_id) VALUES (p_request) ON CONFLICT (reference_id) DO NOTHING;
          DELETE FROM credit_abandoned WHERE created_at < now() - interval '1 day';
        END IF;
        DELETE FROM credit_transactions t WHERE t.reference_id = p_request AND t.type = 'charge' AND t.reference_type = 'api_call'
        RETURNING t.id, t.amount, t.endpoint, t.created_at INTO gone;
        IF NOT FOUND THEN RETURN (a.credit_balance * 1000000)::bigint::text; END IF;
        -- Back into the balance it came from, unless a monthly reset or an operator change replaced that one
        -- since; then the account's period is still the charge's, where its usage was counted.
        replaced := EXISTS (SELECT 1 FROM credit_transactions t WHERE t.account_id = p_account AND t.id > gone.id AND t.type IN ('period_reset', 'adjustment'));
        IF NOT replaced THEN
          a.credit_balance := a.credit_balance - gone.amount;
          UPDATE accounts SET credit_balance = a.credit_balance,
                 credit_seq = greatest(a.credit_seq + 1, (date_part('epoch', clock_timestamp()) * 1000000)::bigint), updated_at = now()
           WHERE id = p_account;
        END IF;
        PERFORM billing_usage_add(p_account, CASE WHEN replaced THEN p_period ELSE a.credit_period END,
                                  (gone.created_at AT TIME ZONE 'UTC')::date, gone.endpoint, -1, gone.amount);
        RETURN (a.credit_balance * 1000000)::bigint::text;
      END $$`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP FUNCTION billing_void(uuid, uuid, int, boolean)`);
    await q.query(`DROP FUNCTION billing_admit(uuid[], uuid[], text[], bigint[], boolean[], int[], int[], bigint[], bigint, int)`);
    await q.query(`DROP FUNCTION billing_usage_add(uuid, int, date, text, bigint, numeric)`);
    await q.query(`DROP TABLE credit_abandoned`);
    await q.query(`DROP TABLE billing_state`);
  }
}
