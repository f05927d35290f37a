import { MigrationInterface, QueryRunner } from 'typeorm';

export class PlatformSpine1763700000000 implements MigrationInterface {
  name = 'PlatformSpine1763700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE accounts (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        wallet_address varchar(42) NOT NULL UNIQUE,
        tier varchar(8) NOT NULL CHECK (tier IN ('free', 'pro', 'max')),
        credit_balance numeric(24, 6) NOT NULL DEFAULT 0 CHECK (credit_balance >= 0),
        credit_epoch integer NOT NULL DEFAULT 0,
        credit_period integer NOT NULL DEFAULT 0,
        credit_seq bigint NOT NULL DEFAULT 0,
        reset_anchor_at timestamptz NOT NULL DEFAULT now(),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`
      CREATE TABLE api_keys (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        prefix varchar(32) NOT NULL UNIQUE,
        key_hash char(64) NOT NULL UNIQUE,
        created_at timestamptz NOT NULL DEFAULT now(),
        last_used_at timestamptz,
        revoked_at timestamptz
      )`);
    await queryRunner.query(`CREATE INDEX api_keys_account_active_idx ON api_keys (account_id) WHERE revoked_at IS NULL`);
    await queryRunner.query(`
      CREATE TABLE credit_transactions (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        type varchar(16) NOT NULL,
        amount numeric(24, 6) NOT NULL,
        balance_after numeric(24, 6) NOT NULL,
        reference_type varchar(16) NOT NULL,
        reference_id varchar(64) NOT NULL,
        endpoint varchar(64),
        notes text,
        seq bigint,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`CREATE INDEX credit_transactions_account_created_idx ON credit_transactions (account_id, id)`);
    await queryRunner.query(`CREATE UNIQUE INDEX credit_transactions_reference_uq ON credit_transactions (type, reference_type, reference_id)`);
    await queryRunner.query(`
      CREATE TABLE usage_counters (
        account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        period integer NOT NULL,
        endpoint varchar(64) NOT NULL,
        calls bigint NOT NULL,
        credits numeric(24, 6) NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (account_id, period, endpoint)
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE usage_counters`);
    await queryRunner.query(`DROP TABLE credit_transactions`);
    await queryRunner.query(`DROP TABLE api_keys`);
    await queryRunner.query(`DROP TABLE accounts`);
  }
}
