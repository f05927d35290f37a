import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The positions poller reads an address's HIP-3 dexes only where it held positions, and every dex now and
 * then: full_read_at is when it last read them all. Every read before this migration was a full one, so a
 * cleanly read address starts from its last read rather than owing a full read at once.
 */
export class AddressFullRead1764600000000 implements MigrationInterface {
  name = 'AddressFullRead1764600000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE hl_addresses ADD COLUMN full_read_at timestamptz`);
    await q.query(`UPDATE hl_addresses SET full_read_at = polled_at WHERE poll_error IS NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE hl_addresses DROP COLUMN full_read_at`);
  }
}
