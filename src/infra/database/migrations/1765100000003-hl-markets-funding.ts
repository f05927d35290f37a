import { MigrationInterface, QueryRunner } from 'typeorm';

/** The current hourly funding rate of each perp (metaAndAssetCtxs' `funding`), which the funding-rate alerts read. */
export class HlMarketsFunding1765100000003 implements MigrationInterface {
  name = 'HlMarketsFunding1765100000003';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE hl_markets ADD COLUMN funding numeric NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE hl_markets DROP COLUMN funding`);
  }
}
