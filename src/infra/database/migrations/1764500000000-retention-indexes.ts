import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Retention prunes hl_fills and job_runs by age in small batches on every snapshot run: each batch finds
 * the oldest rows through these indexes instead of scanning the table (and finds nothing, cheaply, when
 * nothing is due).
 */
export class RetentionIndexes1764500000000 implements MigrationInterface {
  name = 'RetentionIndexes1764500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX hl_fills_time_idx ON hl_fills (time)`);
    await q.query(`CREATE INDEX job_runs_started_at_idx ON job_runs (started_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX job_runs_started_at_idx`);
    await q.query(`DROP INDEX hl_fills_time_idx`);
  }
}
