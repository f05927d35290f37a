import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Usage per UTC day, added by the usage sync in the same statement as usage_counters, so a delta is added
 * to both or to neither. The day is the one each call was admitted on. The key serves the history read
 * (one account, a range of days).
 */
export class UsageDaily1765000000001 implements MigrationInterface {
  name = 'UsageDaily1765000000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE usage_daily (
        account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        day date NOT NULL,
        endpoint varchar(64) NOT NULL,
        calls bigint NOT NULL,
        credits numeric(24, 6) NOT NULL,
        PRIMARY KEY (account_id, day, endpoint)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE usage_daily`);
  }
}
