import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Watchlists: named groups of coins a wallet's account owns, written through the backend API and read
 * through the account's keys. Names are unique per account ignoring case; the entry key is the canonical
 * coin, so adding a coin twice is one row. The notifications job reads these tables by SQL.
 */
export class Watchlists1765100000000 implements MigrationInterface {
  name = 'Watchlists1765100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE watchlist_groups (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        name varchar(64) NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX watchlist_groups_account_name_uq ON watchlist_groups (account_id, lower(name))`);
    await q.query(`CREATE INDEX watchlist_groups_account_idx ON watchlist_groups (account_id)`);
    await q.query(`
      CREATE TABLE watchlist_entries (
        group_id uuid NOT NULL REFERENCES watchlist_groups(id) ON DELETE CASCADE,
        coin varchar(64) NOT NULL,
        added_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (group_id, coin)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE watchlist_entries`);
    await q.query(`DROP TABLE watchlist_groups`);
  }
}
