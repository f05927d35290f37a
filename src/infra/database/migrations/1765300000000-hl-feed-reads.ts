import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * When each upstream feed of the exchange-chain snapshots was last read with a fresh answer (hl_feed_reads,
 * stamped by the jobs), and the stamps each snapshot was built from (hl_snapshots.feeds_read_at), so an
 * answer's updatedAt is the age of its data rather than the time it was republished. The stamps start from
 * what the stored data already shows, so the first snapshot after an upgrade does not restart the clock:
 * the last successful poll, the last catalogue or mids refresh, the newest trade, the furthest fills read.
 */
export class HlFeedReads1765300000000 implements MigrationInterface {
  name = 'HlFeedReads1765300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE hl_feed_reads (feed varchar(16) PRIMARY KEY, read_at timestamptz NOT NULL)`);
    await q.query(`ALTER TABLE hl_snapshots ADD COLUMN feeds_read_at jsonb NOT NULL DEFAULT '{}'`);
    await q.query(
      `INSERT INTO hl_feed_reads (feed, read_at)
       SELECT feed, read_at FROM (
         SELECT 'positions' AS feed, max(polled_at) AS read_at FROM hl_addresses WHERE poll_error IS NULL
         UNION ALL SELECT 'marks', max(updated_at) FROM hl_markets
         UNION ALL SELECT 'trades', max(time) FROM hl_trades
         UNION ALL SELECT 'fills', to_timestamp(max(fills_polled_until) / 1000.0) FROM hl_addresses
       ) seen
       WHERE read_at IS NOT NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE hl_snapshots DROP COLUMN feeds_read_at`);
    await q.query(`DROP TABLE hl_feed_reads`);
  }
}
