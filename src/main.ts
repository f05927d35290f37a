import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { createApp } from './app.factory';
import { loadAppConfig, loadDotEnv } from './config/app.config';

async function bootstrap() {
  loadDotEnv();
  const config = loadAppConfig();
  const app = await createApp(config);
  await app.listen(config.http.port, '0.0.0.0');
  new Logger('Bootstrap').log(`listening on :${config.http.port} (${config.http.adapter}); docs at /docs`);
}

void bootstrap();
