import { JobRegistry } from '../../jobs/job-registry';
import { JobRunsRepository } from '../../jobs/job-runs.repository';

/** One job's line of `job:status`: its last run (or `never`), the same in the CLI and on GET /ops/jobs. */
export interface JobStatusView {
  name: string;
  status: string;
  startedAt: string | null;
  finishedAt: string | null;
  rows: number | null;
  coverage: Record<string, number> | null;
  error: string | null;
  lastOkAt: string | null;
  holder: string | null;
}

/** Every registered job with its latest run record. */
export async function readJobStatus(registry: JobRegistry, runs: JobRunsRepository): Promise<JobStatusView[]> {
  const latest = new Map((await runs.latest()).map((r) => [r.name, r]));
  return registry.list().map(({ name }) => {
    const run = latest.get(name);
    return {
      name,
      status: run?.status ?? 'never',
      startedAt: run?.startedAt.toISOString() ?? null,
      finishedAt: run?.finishedAt?.toISOString() ?? null,
      rows: run?.rows ?? null,
      coverage: run?.coverage ?? null,
      error: run?.error ?? null,
      lastOkAt: run?.lastOkAt?.toISOString() ?? null,
      holder: run?.holder ?? null,
    };
  });
}
