import { INestApplicationContext } from '@nestjs/common';
import { AppError } from '../common/errors/app-error';
import { ErrorCode } from '../common/errors/error-code';
import { JobRegistry } from '../jobs/job-registry';
import { JobRunner } from '../jobs/job-runner';
import { JobRunsRepository } from '../jobs/job-runs.repository';
import { HlAddressesRepository } from '../modules/hl/jobs/hl-addresses.repository';
import { JobStatusView, readJobStatus } from '../modules/ops/job-status';
import { normalizeAddressOption } from './address-option';
import type { CliCommand, CommandOutput } from './commands';
import { fetchServerJobStatus } from './server-client';
import { formatTable } from './cli-views';

// A scheduled run holding the lock usually ends within a few seconds; wait for it rather than fail.
const WAIT_FOR_LOCK_MS = 120_000;

/** Ops commands of the snapshot jobs and the address universe. */
export const HL_COMMANDS: Record<string, CliCommand> = {
  'job:run': {
    summary: 'Run a job now (waiting for a replica that holds it) and print its outcome',
    options: [],
    positional: 'name',
    async run(app: INestApplicationContext, { positional }) {
      const registry = app.get(JobRegistry);
      const job = registry.get(positional!);
      if (!job) {
        throw AppError.validation(
          'name',
          `unknown job "${positional}"; jobs: ${registry
            .list()
            .map((j) => j.name)
            .join(', ')}`,
        );
      }
      const result = await app.get(JobRunner).run(job, { waitMs: WAIT_FOR_LOCK_MS });
      const view = {
        name: result.name,
        status: result.status,
        startedAt: result.startedAt.toISOString(),
        finishedAt: result.finishedAt.toISOString(),
        durationMs: result.finishedAt.getTime() - result.startedAt.getTime(),
        rows: result.outcome?.rows ?? null,
        failures: result.outcome?.failures ?? 0,
        failed: result.outcome?.failed ?? [],
        coverage: result.outcome?.coverage ?? null,
        details: result.outcome?.details ?? null,
        error: result.error ?? null,
      };
      if (result.status !== 'ok') throw new AppError(ErrorCode.SERVICE_UNAVAILABLE, `${result.name} ${result.status}: ${result.error}`);
      if (view.failures === 0) return { json: { job: view }, text: [`${view.name} ok in ${view.durationMs} ms: ${view.rows} rows`] };
      // A run that went on past failures is not a success to a script: it exits 1, naming what failed.
      const unnamed = view.failures - view.failed.length;
      return {
        json: { job: view },
        text: [
          `${view.name} finished with ${view.failures} failures in ${view.durationMs} ms: ${view.rows} rows`,
          ...view.failed.map((failure) => `  failed: ${failure}`),
          ...(unnamed > 0 ? [`  and ${unnamed} more (each is a warning in the log)`] : []),
        ],
        failed: true,
      };
    },
  },
  'job:status': {
    summary: "Each job's last run: start, end, rows, coverage, errors (asks the server when it holds the embedded database)",
    options: [],
    async run(app) {
      return jobStatusOutput(await readJobStatus(app.get(JobRegistry), app.get(JobRunsRepository)));
    },
    async runOnServer(server) {
      return jobStatusOutput(await fetchServerJobStatus(server));
    },
  },
  'address:add': {
    summary: 'Add an address to the polled universe, or tag one (the addressTags of holders)',
    options: ['address'],
    optional: ['tags'],
    async run(app, { address, tags }) {
      const normalized = normalizeAddressOption(address);
      const tagList = (tags ?? '')
        .split(',')
        .map((t) => t.trim())
        .filter(Boolean);
      if (tagList.some((t) => !/^[A-Za-z0-9_.-]{1,32}$/.test(t))) {
        throw AppError.validation('tags', 'comma-separated tags of 1-32 letters, digits, _ . -');
      }
      await app.get(HlAddressesRepository).upsertAddresses({ addresses: [normalized], source: 'operator', tags: tagList });
      return { json: { address: normalized, tags: tagList }, text: [`${normalized} added${tagList.length ? ` with tags ${tagList.join(', ')}` : ''}`] };
    },
  },
};

function jobStatusOutput(jobs: JobStatusView[]): CommandOutput {
  const rows = jobs.map((j) => [j.name, j.status, j.startedAt ?? '-', j.finishedAt ?? '-', String(j.rows ?? '-'), coverageSummary(j.coverage), j.error ?? '']);
  return { json: { jobs }, text: formatTable(['JOB', 'STATUS', 'STARTED', 'FINISHED', 'ROWS', 'COVERAGE', 'ERROR'], rows) };
}

/** Mean coverage across coins, for the one-line table. */
function coverageSummary(coverage: Record<string, number> | null): string {
  const values = Object.values(coverage ?? {});
  if (values.length === 0) return '-';
  return `${((values.reduce((a, b) => a + b, 0) / values.length) * 100).toFixed(1)}% avg of ${values.length}`;
}
