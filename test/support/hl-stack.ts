import { JobRegistry } from '../../src/jobs/job-registry';
import { JobRunner } from '../../src/jobs/job-runner';
import { JobRunResult } from '../../src/jobs/job.types';
import { startSimulator } from '../../src/simulator/simulator.server';
import { createTestApp, TestApp } from './create-test-app';
import { testConfig } from './test-env';

export type Simulator = Awaited<ReturnType<typeof startSimulator>>;

/** The order a fresh deployment converges in: catalogue, prices, leaderboard, discovery, polling, publication. */
export const JOB_ORDER = ['hl.markets', 'hl.mids', 'hl.leaderboard', 'hl.trades', 'hl.positions', 'hl.fills', 'hl.snapshot'];

/**
 * The real app pointed at the simulator by its own settings (`sim.env`, what `--print-env` prints: URLs and its
 * weight limit as the budget), through the real client; schedule off: tests run jobs explicitly.
 */
export async function createHlApp(sim: Simulator, overrides: Record<string, string> = {}): Promise<TestApp> {
  return createTestApp(
    testConfig({
      ...sim.env,
      HL_POLL_BATCH: '100000',
      HL_POLL_CONCURRENCY: '16',
      ...overrides,
    }),
  );
}

export async function runJob(t: TestApp, name: string): Promise<JobRunResult> {
  const job = t.app.get(JobRegistry).get(name);
  if (!job) throw new Error(`no job ${name}`);
  return t.app.get(JobRunner).run(job, { waitMs: 30_000 });
}

export async function runAllJobs(t: TestApp): Promise<JobRunResult[]> {
  const results: JobRunResult[] = [];
  for (const name of JOB_ORDER) results.push(await runJob(t, name));
  return results;
}
