import { ConfigService } from '@nestjs/config';
import { DataSource } from 'typeorm';
import { AppConfig, loadAppConfig } from '../../src/config/app.config';
import { MemoryKvStore } from '../../src/infra/kv/memory-kv.store';
import { JobRunsPruneJob } from '../../src/jobs/housekeeping/job-runs-prune.job';
import { JobRegistry } from '../../src/jobs/job-registry';
import { JobRunner } from '../../src/jobs/job-runner';
import { JobRunsRepository } from '../../src/jobs/job-runs.repository';
import { JobsModule } from '../../src/jobs/jobs.module';
import { openTestDbInOwnSchema } from '../support/test-db';

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;

/**
 * housekeeping.job-runs as the jobs module registers it, run by the runner on real PostgreSQL, in a schema
 * of its own (the job deletes rows: other suites' run records stay out of its reach).
 */
describe('housekeeping.job-runs', () => {
  let drop: () => Promise<void>;
  let db: DataSource;

  beforeAll(async () => {
    ({ db, drop } = await openTestDbInOwnSchema('job_runs_prune', 2));
  });

  afterAll(() => drop());

  async function insertRun(name: string, ageMs: number): Promise<void> {
    await db.query(
      `INSERT INTO job_runs (name, holder, status, started_at, finished_at)
       VALUES ($1, 'test', 'ok', now() - $2 * interval '1 millisecond', now() - $2 * interval '1 millisecond')`,
      [name, ageMs],
    );
  }

  /** The job under its ops name, registered from the configuration `env` makes. */
  function registeredJob(env: Record<string, string>) {
    const config = loadAppConfig(env);
    const settings = new ConfigService<AppConfig, true>(config);
    const runs = new JobRunsRepository(db);
    const registry = new JobRegistry();
    new JobsModule(registry, settings, new JobRunsPruneJob(runs, settings)).onModuleInit();
    return { job: registry.get('housekeeping.job-runs')!, runner: new JobRunner(new MemoryKvStore(), runs) };
  }

  it("deletes run records past JOB_RUNS_RETENTION_DAYS, keeps each job's newest, and records its own run", async () => {
    await insertRun('hl.mids', 10 * DAY_MS);
    await insertRun('hl.mids', 4 * DAY_MS);
    await insertRun('hl.mids', MINUTE_MS);
    await insertRun('hl.leaderboard', 30 * DAY_MS);
    const { job, runner } = registeredJob({ JOB_RUNS_RETENTION_DAYS: '3' });

    const result = await runner.run(job);

    expect(result).toMatchObject({ status: 'ok', outcome: { rows: 2 } });
    const left = await db.query(
      `SELECT name, round(extract(epoch FROM now() - started_at) / 86400)::int AS days, rows FROM job_runs ORDER BY name, started_at`,
    );
    expect(left).toEqual([
      { name: 'hl.leaderboard', days: 30, rows: null },
      { name: 'hl.mids', days: 0, rows: null },
      { name: 'housekeeping.job-runs', days: 0, rows: 2 },
    ]);
  });

  it('takes its switch and cadence from HOUSEKEEPING_JOB_RUNS_ENABLED and HOUSEKEEPING_JOB_RUNS_INTERVAL_MS', () => {
    expect(registeredJob({}).job).toMatchObject({ enabled: true, intervalMs: 600_000 });
    expect(registeredJob({ HOUSEKEEPING_JOB_RUNS_ENABLED: 'false', HOUSEKEEPING_JOB_RUNS_INTERVAL_MS: '3600000' }).job).toMatchObject({
      enabled: false,
      intervalMs: 3_600_000,
    });
  });
});
