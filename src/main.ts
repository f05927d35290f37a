import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { createApp } from './app.factory';
import { handleProcessSignals } from './app.setup';
import { loadAppConfigOrExit, loadDotEnv } from './config/app.config';
import { acquireEmbeddedLock } from './infra/database/embedded-lock';

async function bootstrap() {
  loadDotEnv();
  const config = loadAppConfigOrExit();
  // PGlite is single-process: refuse to start while the ops CLI (or another server) has the data folder open.
  if (!config.database.url) acquireEmbeddedLock(config.database.dataDir, 'server');
  const app = await createApp(config);
  handleProcessSignals();
  await app.listen(config.http.port, config.http.host);
  new Logger('Bootstrap').log(`listening on ${config.http.host}:${config.http.port} (${config.http.adapter}); docs at /docs`);
}

void bootstrap();
