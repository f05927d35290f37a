import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { DataSource, DataSourceOptions } from 'typeorm';
import { ENTITIES } from '../../src/app-entities';
import { buildDataSourceOptions, createDataSource } from '../../src/infra/database/data-source';
import { runMigrationsLocked } from '../../src/infra/database/run-migrations';
import { TEST_DATABASE_URL, testConfig } from './test-env';

/** A migrated DataSource on the test PostgreSQL, for integration tests that need no HTTP app. */
export async function openTestDb(): Promise<DataSource> {
  const db = await createDataSource(testConfig(), ENTITIES).initialize();
  await runMigrationsLocked(db);
  return db;
}

/**
 * A migrated DataSource in a PostgreSQL schema of its own (named `<prefix>_<random>`), for suites that empty
 * or prune tables: what other suites keep in the shared database stays out of their reach. `drop()` removes
 * the schema and closes the pool.
 */
export async function openTestDbInOwnSchema(prefix: string, poolSize: number): Promise<{ db: DataSource; drop(): Promise<void> }> {
  const schema = `${prefix}_${randomUUID().slice(0, 8)}`;
  const admin = new Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const options = buildDataSourceOptions(testConfig(), ENTITIES);
  const db = await new DataSource({ ...options, extra: { max: poolSize, options: `-c search_path=${schema}` } } as DataSourceOptions).initialize();
  await runMigrationsLocked(db);
  return {
    db,
    async drop() {
      await db.query(`DROP SCHEMA ${schema} CASCADE`);
      await db.destroy();
    },
  };
}
