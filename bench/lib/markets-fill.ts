import 'reflect-metadata';
import { createApp } from '../../src/app.factory';
import { loadAppConfig } from '../../src/config/app.config';
import { JobRegistry } from '../../src/jobs/job-registry';
import { JobRunner } from '../../src/jobs/job-runner';
import { StockProfilesService } from '../../src/modules/stocks/stock-profiles.service';

/**
 * The data half of `npm run bench:markets`, run in a child process of its own: the Markets catalogue filled
 * once, through the real clients and jobs, from the simulator the environment points at (its settings come
 * from the bench): Hyperliquid's venue rows, then the crypto universe, then the seeded stocks, ETFs, FX and
 * futures. Then BENCH_MARKETS_STOCK's fundamentals are read once through the service, which loads them from
 * the simulator's Yahoo (quote, quoteSummary, time series) into the run's shared cache in Redis, where the
 * measured server finds them. Prints one `BENCH_READY {json}` line (FillReport), and exits.
 */
const JOBS = ['hl.markets', 'markets.crypto', 'markets.tradfi'];
// A scheduled run of an earlier bench holding the lock would end within seconds; wait rather than skip.
const LOCK_WAIT_MS = 60_000;

export interface FillReport {
  jobs: Record<string, { rows: number; failures: number; ms: number }>;
  /** The stock's fundamentals answer as loaded: its size, and the time of the three vendor calls with the mapping. */
  fundamentals: { bytes: number; ms: number };
}

export async function fillCatalogue(): Promise<void> {
  const stock = process.env.BENCH_MARKETS_STOCK;
  if (!stock) throw new Error('BENCH_MARKETS_STOCK is not set');
  const config = loadAppConfig({ ...process.env, LOG_LEVEL: 'warn', MIGRATIONS_RUN: 'true', JOBS_ENABLED: 'false' });
  const app = await createApp(config, { logger: false });
  await app.init();
  const report: FillReport = { jobs: {}, fundamentals: { bytes: 0, ms: 0 } };
  try {
    for (const name of JOBS) {
      const job = app.get(JobRegistry).get(name);
      if (!job) throw new Error(`no job ${name} in this app`);
      const started = Date.now();
      const result = await app.get(JobRunner).run(job, { waitMs: LOCK_WAIT_MS });
      if (result.status !== 'ok') throw new Error(`${name} ${result.status}: ${result.error}`);
      report.jobs[name] = { rows: result.outcome?.rows ?? 0, failures: result.outcome?.failures ?? 0, ms: Date.now() - started };
    }
    const started = Date.now();
    const { json } = (await app.get(StockProfilesService).fundamentals(stock)).data;
    // A section the simulator did not give would be cached for a minute as a smaller answer: refuse it here.
    const { errors } = JSON.parse(json) as { errors: Array<{ section: string; endpoint: string; message: string }> };
    if (errors.length > 0) throw new Error(`${stock} fundamentals: ${errors.map((e) => `${e.section} (${e.endpoint}: ${e.message})`).join('; ')}`);
    report.fundamentals = { bytes: Buffer.byteLength(json), ms: Date.now() - started };
  } finally {
    await app.close();
  }
  process.stdout.write(`BENCH_READY ${JSON.stringify({ port: 0, ...report })}\n`);
}
