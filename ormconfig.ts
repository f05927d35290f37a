// TypeORM CLI entry (npm run typeorm -- migration:run | migration:revert | migration:show).
// Migrations are written by hand under src/infra/database/migrations and listed in migration-list.ts: the
// entities do not declare every check, default and foreign key the migrations create, so
// `migration:generate` would propose dropping them.
import 'reflect-metadata';
import { loadAppConfig, loadDotEnv } from './src/config/app.config';
import { acquireEmbeddedLock } from './src/infra/database/embedded-lock';
import { ENTITIES } from './src/app-entities';
import { createDataSource } from './src/infra/database/data-source';

loadDotEnv();
const config = loadAppConfig();
// PGlite is single-process: like the ops CLI, refuse while the server (or another command) has the folder open.
if (!config.database.url) acquireEmbeddedLock(config.database.dataDir, 'cli');
export default createDataSource(config, ENTITIES);
