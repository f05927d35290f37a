import { DataSource } from 'typeorm';

// Any constant works; it only has to be the same on every replica.
const MIGRATION_LOCK_KEY = 727_001;

/**
 * Applies pending migrations under a PostgreSQL advisory lock, so replicas starting together take turns:
 * the first applies them, the others then find nothing pending.
 */
export async function runMigrationsLocked(dataSource: DataSource): Promise<void> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    await dataSource.runMigrations({ transaction: 'each' });
  } finally {
    await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
    await runner.release();
  }
}
