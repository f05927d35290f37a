import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { createApp } from './app.factory';
import { loadAppConfig, loadDotEnv } from './config/app.config';
import { acquireEmbeddedLock } from './infra/database/embedded-lock';

async function bootstrap() {
  loadDotEnv();
  const config = loadAppConfig();
  // PGlite is single-process: refuse to start while the ops CLI (or another server) has the data folder open.
  if (!config.database.url) acquireEmbeddedLock(config.database.dataDir, 'server');
  const app = await createApp(config);
  await app.listen(config.http.port, '0.0.0.0');
  new Logger('Bootstrap').log(`listening on :${config.http.port} (${config.http.adapter}); docs at /docs`);
}

void bootstrap();
