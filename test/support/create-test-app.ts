import { INestApplication } from '@nestjs/common';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DataSource } from 'typeorm';
import { createApp } from '../../src/app.factory';
import { ModuleImport } from '../../src/app.module';
import { AppConfig } from '../../src/config/app.config';
import { KV_STORE, KvStore } from '../../src/infra/kv/kv-store';
import { watchResponses } from './openapi-response-hook';
import { testConfig } from './test-env';

export interface TestApp {
  app: INestApplication;
  config: AppConfig;
  kv: KvStore;
  db: DataSource;
  /** The node server to hand to supertest. */
  server: unknown;
  close(): Promise<void>;
}

/** The real application (configureApp included) on the configured adapter, real PostgreSQL and Redis. */
export async function createTestApp(config: AppConfig = testConfig(), imports: ModuleImport[] = []): Promise<TestApp> {
  const app = await createApp(config, { logger: false, imports });
  await app.init();
  if (config.http.adapter === 'fastify') await (app as NestFastifyApplication).getHttpAdapter().getInstance().ready();
  watchResponses(app);
  return {
    app,
    config,
    kv: app.get<KvStore>(KV_STORE),
    db: app.get(DataSource),
    server: app.getHttpServer(),
    close: () => app.close(),
  };
}
