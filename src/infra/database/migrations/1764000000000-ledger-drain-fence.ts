import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Charges now reach the ledger outbox at admission, and a call that fails afterwards is cancelled by a
 * later void line, which may delete an already written charge row. A drainer that lost its lease mid-batch
 * must then never write that older batch late (it would bring the charge back): every drain claims its
 * outbox's row with its lease token, and every ledger write goes through only while the token is still its
 * own. One row per outbox (its KV key, prefix included), so deployments sharing a database stay apart.
 */
export class LedgerDrainFence1764000000000 implements MigrationInterface {
  name = 'LedgerDrainFence1764000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE ledger_drain (
        outbox varchar(200) PRIMARY KEY,
        token varchar(64) NOT NULL,
        claimed_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE ledger_drain`);
  }
}
