import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { DataSource, DataSourceOptions } from 'typeorm';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { AppConfig } from '../../config/app.config';
import { MIGRATIONS } from './migration-list';
import { pgliteDriverModule } from './pglite-pool';
import { TypeOrmQueryLogger } from './typeorm-query.logger';

export type DatabaseKind = 'postgres' | 'embedded';

/** The entities to map: the areas' list, handed in from outside infra (src/app-entities.ts). */
export type EntityList = NonNullable<DataSourceOptions['entities']>;

export function databaseKind(config: Pick<AppConfig, 'database'>): DatabaseKind {
  return config.database.url ? 'postgres' : 'embedded';
}

/**
 * One set of options for the server, the ops CLI and the TypeORM CLI. Without DATABASE_URL the service runs
 * on embedded PostgreSQL (PGlite) persisted under DATA_DIR, with the very same migrations.
 */
export function buildDataSourceOptions(config: Pick<AppConfig, 'database'>, entities: EntityList): DataSourceOptions {
  const common = {
    type: 'postgres' as const,
    entities,
    migrations: MIGRATIONS,
    migrationsTableName: 'schema_migrations',
    migrationsTransactionMode: 'each' as const,
    synchronize: false,
    // gen_random_uuid() is core PostgreSQL (13+) and PGlite ships no uuid-ossp; nothing to install.
    installExtensions: false,
    // Failed queries only, without their parameters (typeorm-query.logger.ts).
    logging: ['error' as const],
    logger: new TypeOrmQueryLogger(),
  };
  if (config.database.url) {
    return { ...common, url: config.database.url, extra: { max: 20 } };
  }
  const dataDir = join(config.database.dataDir, 'pg');
  mkdirSync(dataDir, { recursive: true });
  // pg_trgm (fuzzy asset search) is part of PGlite but loads only when named here.
  return { ...common, driver: pgliteDriverModule({ dataDir, extensions: { pg_trgm } }) };
}

export function createDataSource(config: Pick<AppConfig, 'database'>, entities: EntityList): DataSource {
  return new DataSource(buildDataSourceOptions(config, entities));
}
