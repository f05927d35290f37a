import { DataSource } from 'typeorm';
import { ENTITIES } from '../../src/app-entities';
import { createDataSource } from '../../src/infra/database/data-source';
import { runMigrationsLocked } from '../../src/infra/database/run-migrations';
import { testConfig } from './test-env';

/** A migrated DataSource on the test PostgreSQL, for integration tests that need no HTTP app. */
export async function openTestDb(): Promise<DataSource> {
  const db = await createDataSource(testConfig(), ENTITIES).initialize();
  await runMigrationsLocked(db);
  return db;
}
