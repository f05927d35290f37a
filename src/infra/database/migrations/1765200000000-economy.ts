import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The account programmes (contract 2.7, 4.6): builder-attributed fills as the source of truth, the tier
 * history fees and points are priced at, points, referral codes and bindings, Merkle claim rounds and OPCs.
 * Money is numeric throughout; amounts in a round's leaves are the reward token's base units.
 */
export class Economy1765200000000 implements MigrationInterface {
  name = 'Economy1765200000000';

  async up(q: QueryRunner): Promise<void> {
    // Tier changes with the time they took effect: a fill is priced at the tier its account had when it traded.
    await q.query(`
      CREATE TABLE account_tier_changes (
        account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        effective_at timestamptz NOT NULL,
        tier varchar(8) NOT NULL,
        PRIMARY KEY (account_id, effective_at)
      )`);
    await q.query(`INSERT INTO account_tier_changes (account_id, effective_at, tier) SELECT id, created_at, tier FROM accounts`);

    // The service draws each new account's code (referral-code.ts); the default gives existing rows, and rows
    // written by hand, a 12-hex-digit one.
    await q.query(
      `ALTER TABLE accounts ADD COLUMN referral_code varchar(16) NOT NULL DEFAULT upper(substr(md5(random()::text || clock_timestamp()::text), 1, 12))`,
    );
    await q.query(`CREATE UNIQUE INDEX accounts_referral_code_idx ON accounts (referral_code)`);
    await q.query(`
      CREATE TABLE referral_bindings (
        referee_account_id uuid PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
        referrer_account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        bound_at timestamptz NOT NULL DEFAULT now(),
        CHECK (referee_account_id <> referrer_account_id)
      )`);
    await q.query(`CREATE INDEX referral_bindings_referrer_idx ON referral_bindings (referrer_account_id, bound_at, referee_account_id)`);

    // One row per fill attributed to a builder we track. fill_key is the identity both sources share.
    await q.query(`
      CREATE TABLE builder_fills (
        id bigserial PRIMARY KEY,
        fill_key text NOT NULL UNIQUE,
        builder varchar(42) NOT NULL,
        user_address varchar(42) NOT NULL,
        coin varchar(64) NOT NULL,
        market varchar(8) NOT NULL,
        side char(1) NOT NULL,
        px numeric NOT NULL,
        sz numeric NOT NULL,
        volume_usd numeric NOT NULL,
        builder_fee numeric NOT NULL,
        crossed boolean NOT NULL,
        self_matched boolean NOT NULL DEFAULT false,
        tx_hash varchar(66) NULL,
        fill_time timestamptz NOT NULL,
        source varchar(16) NOT NULL,
        ingested_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX builder_fills_user_time_idx ON builder_fills (user_address, fill_time DESC, id DESC)`);
    await q.query(`CREATE INDEX builder_fills_builder_time_idx ON builder_fills (builder, fill_time)`);
    // Which daily files were read: a day is fetched until it has been published once, never after.
    await q.query(`
      CREATE TABLE builder_fill_days (
        builder varchar(42) NOT NULL,
        day date NOT NULL,
        fills integer NOT NULL,
        ingested_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (builder, day)
      )`);

    await q.query(`
      CREATE TABLE points_transactions (
        id bigserial PRIMARY KEY,
        account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        fill_id bigint NOT NULL UNIQUE REFERENCES builder_fills(id) ON DELETE CASCADE,
        volume_bucket varchar(8) NOT NULL,
        role varchar(8) NOT NULL,
        volume_usd numeric NOT NULL,
        vip_tier_snap varchar(8) NOT NULL,
        vip_multiplier_snap numeric NOT NULL,
        raw_points bigint NOT NULL,
        points numeric NOT NULL,
        balance_after numeric NOT NULL,
        event_at timestamptz NOT NULL,
        trade_tx_hash varchar(66) NULL
      )`);
    await q.query(`CREATE INDEX points_transactions_account_idx ON points_transactions (account_id, id DESC)`);
    await q.query(`CREATE INDEX points_transactions_bucket_idx ON points_transactions (account_id, volume_bucket, id DESC)`);
    await q.query(`
      CREATE TABLE points_balances (
        account_id uuid PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
        balance numeric NOT NULL DEFAULT 0,
        raw_balance bigint NOT NULL DEFAULT 0,
        total_earned numeric NOT NULL DEFAULT 0,
        rank integer NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);

    await q.query(`
      CREATE TABLE opc_configs (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        account_id uuid NOT NULL UNIQUE REFERENCES accounts(id) ON DELETE CASCADE,
        name varchar(64) NOT NULL,
        subdomain varchar(63) NOT NULL,
        logo_url varchar(2048) NOT NULL DEFAULT '',
        style_config jsonb NOT NULL DEFAULT '{}',
        frontend_fee_tenths_bps integer NOT NULL,
        builder_address varchar(42) NOT NULL,
        is_active boolean NOT NULL DEFAULT false,
        activated boolean NOT NULL DEFAULT false,
        billing_anchor_at timestamptz NOT NULL DEFAULT now(),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX opc_configs_subdomain_idx ON opc_configs (lower(subdomain))`);
    await q.query(`CREATE UNIQUE INDEX opc_configs_builder_idx ON opc_configs (builder_address)`);
    await q.query(`
      CREATE TABLE opc_revenue_entries (
        id bigserial PRIMARY KEY,
        opc_id uuid NOT NULL REFERENCES opc_configs(id) ON DELETE CASCADE,
        period_start timestamptz NOT NULL,
        period_end timestamptz NOT NULL,
        amount numeric NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (opc_id, period_start)
      )`);

    // Claim rounds of both programmes, numbered in one sequence: one distributor contract pays them all, and a
    // round id names one tree there.
    await q.query(`
      CREATE TABLE reward_rounds (
        round_id integer PRIMARY KEY,
        program varchar(16) NOT NULL,
        merkle_root varchar(66) NOT NULL,
        dump jsonb NOT NULL,
        total_base numeric NOT NULL,
        leaf_count integer NOT NULL,
        distributor varchar(42) NOT NULL,
        published_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE reward_leaves (
        round_id integer NOT NULL REFERENCES reward_rounds(round_id) ON DELETE CASCADE,
        program varchar(16) NOT NULL,
        account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        address varchar(42) NOT NULL,
        amount_base numeric NOT NULL CHECK (amount_base > 0),
        proof jsonb NOT NULL,
        claimed_at timestamptz NULL,
        PRIMARY KEY (round_id, account_id)
      )`);
    await q.query(`CREATE INDEX reward_leaves_account_idx ON reward_leaves (account_id, program, round_id)`);
    // The Claimed-event scan marks leaves by (round, address).
    await q.query(`CREATE INDEX reward_leaves_address_idx ON reward_leaves (round_id, address)`);
    // Where the Claimed-event scan got to, per distributor.
    await q.query(`
      CREATE TABLE reward_claim_scans (
        distributor varchar(42) PRIMARY KEY,
        last_block bigint NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of [
      'reward_claim_scans',
      'reward_leaves',
      'reward_rounds',
      'opc_revenue_entries',
      'opc_configs',
      'points_balances',
      'points_transactions',
      'builder_fill_days',
      'builder_fills',
      'referral_bindings',
      'account_tier_changes',
    ]) {
      await q.query(`DROP TABLE ${table}`);
    }
    await q.query(`ALTER TABLE accounts DROP COLUMN referral_code`);
  }
}
