// `npm run lint:openapi`: lints the OpenAPI document the app serves at /docs-json with Redocly's
// recommended-strict rules (redocly.yaml). The app is built in Nest's preview mode: the module graph and its
// Swagger metadata without instantiating providers, so no database, no KV store and no listening socket.
import 'reflect-metadata';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { NestFactory } from '@nestjs/core';
import { AppModule } from '../src/app.module';
import { createOpenApiDocument } from '../src/app.setup';
import { loadAppConfig } from '../src/config/app.config';

const ROOT = resolve(__dirname, '..');

async function main(): Promise<number> {
  const app = await NestFactory.create(AppModule.register(loadAppConfig({ NODE_ENV: 'development' })), { preview: true, logger: ['error'] });
  const document = createOpenApiDocument(app);
  await app.close();

  const dir = mkdtempSync(join(tmpdir(), 'openapi-lint-'));
  try {
    const file = join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(document, null, 2));
    const result = spawnSync(join(ROOT, 'node_modules/.bin/redocly'), ['lint', file, '--config', join(ROOT, 'redocly.yaml')], {
      stdio: 'inherit',
      // CI has no internet: no telemetry, no update check.
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    });
    if (result.error) throw result.error;
    return result.status ?? 1;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  },
);
