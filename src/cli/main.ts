import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { AppConfig, cliDebugEnabled, loadAppConfigOrExit, loadDotEnv } from '../config/app.config';
import { acquireEmbeddedLock } from '../infra/database/embedded-lock';
import { INestApplicationContext } from '@nestjs/common';
import { CliModule } from './cli.module';
import { CliIo, runCli } from './cli-runner';

// Everything is closed before the exit code is set; this only guards against a handle nobody owns.
const FORCE_EXIT_AFTER_MS = 5_000;

const processIo: CliIo = {
  stdout: (text) => process.stdout.write(`${text}\n`),
  stderr: (text) => process.stderr.write(`${text}\n`),
};

/** Boots just the modules the commands need; stdout stays reserved for the result. */
async function withApp<T>(config: AppConfig, debug: boolean, work: (app: INestApplicationContext) => Promise<T>): Promise<T> {
  // PGlite is single-process: never open the data folder a running server holds.
  const lock = config.database.url ? undefined : acquireEmbeddedLock(config.database.dataDir, 'cli');
  try {
    const context = await NestFactory.createApplicationContext(CliModule.register(config), {
      logger: debug ? ['error', 'warn'] : false,
      abortOnError: false,
    });
    try {
      return await work(context);
    } finally {
      await context.close();
    }
  } finally {
    lock?.release();
  }
}

async function main(): Promise<number> {
  const debug = cliDebugEnabled();
  return runCli(process.argv.slice(2), {
    io: processIo,
    debug,
    withApp: (work) => {
      loadDotEnv();
      const config = loadAppConfigOrExit();
      // The CLI runs one job on demand (job:run); it never starts the schedule.
      return withApp({ ...config, jobs: { ...config.jobs, enabled: false } }, debug, work);
    },
  });
}

void main().then((code) => {
  process.exitCode = code;
  setTimeout(() => process.exit(code), FORCE_EXIT_AFTER_MS).unref();
});
