import 'reflect-metadata';
import { createApp } from '../../src/app.factory';
import { loadAppConfig } from '../../src/config/app.config';
import { JobRegistry } from '../../src/jobs/job-registry';
import { JobRunner } from '../../src/jobs/job-runner';

/**
 * The data half of `npm run bench:markets`, run in a child process of its own: the Markets catalogue filled
 * once, through the real clients and jobs, from the simulator the environment points at (its settings come
 * from the bench): Hyperliquid's venue rows, then the crypto universe, then the seeded stocks, ETFs, FX and
 * futures. Prints one `BENCH_READY {json}` line with each job's rows and time, and exits.
 */
const JOBS = ['hl.markets', 'markets.crypto', 'markets.tradfi'];
// A scheduled run of an earlier bench holding the lock would end within seconds; wait rather than skip.
const LOCK_WAIT_MS = 60_000;

export async function fillCatalogue(): Promise<void> {
  const config = loadAppConfig({ ...process.env, LOG_LEVEL: 'warn', MIGRATIONS_RUN: 'true', JOBS_ENABLED: 'false' });
  const app = await createApp(config, { logger: false });
  await app.init();
  const jobs: Record<string, { rows: number; failures: number; ms: number }> = {};
  try {
    for (const name of JOBS) {
      const job = app.get(JobRegistry).get(name);
      if (!job) throw new Error(`no job ${name} in this app`);
      const started = Date.now();
      const result = await app.get(JobRunner).run(job, { waitMs: LOCK_WAIT_MS });
      if (result.status !== 'ok') throw new Error(`${name} ${result.status}: ${result.error}`);
      jobs[name] = { rows: result.outcome?.rows ?? 0, failures: result.outcome?.failures ?? 0, ms: Date.now() - started };
    }
  } finally {
    await app.close();
  }
  process.stdout.write(`BENCH_READY ${JSON.stringify({ port: 0, jobs })}\n`);
}
