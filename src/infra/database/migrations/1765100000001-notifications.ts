import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Notifications of an account, its alert thresholds and the alert conditions that hold. The list index serves the public read (one account,
 * newest or oldest first); the partial index keeps the unread count cheap however many read rows remain.
 */
export class Notifications1765100000001 implements MigrationInterface {
  name = 'Notifications1765100000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE notifications (
        id bigserial PRIMARY KEY,
        account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        type varchar(32) NOT NULL,
        coin varchar(64) NOT NULL,
        message text NOT NULL,
        is_read boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL DEFAULT now(),
        read_at timestamptz NULL
      )`);
    await q.query(`CREATE INDEX notifications_account_created_idx ON notifications (account_id, created_at DESC, id DESC)`);
    await q.query(`CREATE INDEX notifications_unread_idx ON notifications (account_id) WHERE NOT is_read`);
    // The retention prune's: read rows by the time they were read.
    await q.query(`CREATE INDEX notifications_read_at_idx ON notifications (read_at) WHERE is_read`);
    await q.query(`
      CREATE TABLE notification_settings (
        account_id uuid PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
        settings jsonb NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    // A row per alert condition that holds (one notification was sent when it began); it goes when the
    // condition clears, so the next time it holds alerts once again.
    await q.query(`
      CREATE TABLE notification_conditions (
        account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        type varchar(32) NOT NULL,
        coin varchar(64) NOT NULL,
        since timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (account_id, type, coin)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE notification_conditions`);
    await q.query(`DROP TABLE notification_settings`);
    await q.query(`DROP TABLE notifications`);
  }
}
