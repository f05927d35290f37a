import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Cohorts: named sets of addresses a wallet tracks, with private tags per member. Names are unique per
 * account ignoring case; members are stored lower-case, so the primary key dedupes them.
 */
export class Cohorts1765100000002 implements MigrationInterface {
  name = 'Cohorts1765100000002';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE cohorts (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        name varchar(64) NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX cohorts_account_name_idx ON cohorts (account_id, lower(name))`);
    await q.query(`
      CREATE TABLE cohort_addresses (
        cohort_id uuid NOT NULL REFERENCES cohorts(id) ON DELETE CASCADE,
        address varchar(42) NOT NULL CHECK (address = lower(address)),
        tags text[] NOT NULL DEFAULT '{}',
        added_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (cohort_id, address)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE cohort_addresses`);
    await q.query(`DROP TABLE cohorts`);
  }
}
