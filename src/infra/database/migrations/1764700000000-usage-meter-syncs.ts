import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * usage_counters become totals that syncs add deltas to (they were overwritten with the KV store's totals).
 * Each delta moves under a batch id and names the batch before it on its meter (account and period):
 * usage_meter_syncs holds each meter's last batch added, and a delta is added only if its predecessor is
 * that one, so a retried or stale delta is never added twice. A delta with no predecessor (the first of a
 * meter, or the first after the KV store lost its data) is added once by its id in usage_sync_roots.
 */
export class UsageMeterSyncs1764700000000 implements MigrationInterface {
  name = 'UsageMeterSyncs1764700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE usage_meter_syncs (
        account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        period integer NOT NULL,
        batch_id uuid NOT NULL,
        synced_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (account_id, period)
      )`);
    await q.query(`
      CREATE TABLE usage_sync_roots (
        batch_id uuid PRIMARY KEY,
        account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        period integer NOT NULL,
        synced_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX usage_sync_roots_account_idx ON usage_sync_roots (account_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE usage_sync_roots`);
    await q.query(`DROP TABLE usage_meter_syncs`);
  }
}
