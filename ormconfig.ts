// TypeORM CLI entry (npm run typeorm -- migration:run | migration:revert | migration:generate).
import 'reflect-metadata';
import { loadAppConfig, loadDotEnv } from './src/config/app.config';
import { createDataSource } from './src/infra/database/data-source';

loadDotEnv();
export default createDataSource(loadAppConfig());
