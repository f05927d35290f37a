import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Address tags are copied into each holders snapshot when it is built, so a holders page is one index
 * range read with no per-row join to hl_addresses (that join was most of a page's database time).
 */
export class HolderTags1763900000000 implements MigrationInterface {
  name = 'HolderTags1763900000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE hl_perp_holders ADD COLUMN tags text[] NOT NULL DEFAULT '{}'`);
    await q.query(`ALTER TABLE hl_spot_holders ADD COLUMN tags text[] NOT NULL DEFAULT '{}'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE hl_spot_holders DROP COLUMN tags`);
    await q.query(`ALTER TABLE hl_perp_holders DROP COLUMN tags`);
  }
}
