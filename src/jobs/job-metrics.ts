import { jobLastRunDuration, jobLastRunRows, jobLastRunSuccess, jobLastRunTimestamp, jobRuns } from '../infra/metrics/metrics';
import { JobRunResult } from './job.types';

/**
 * One run's mark on /metrics: counted by outcome; a run that happened here (anything but a skip, which
 * another replica or the shutdown caused) also becomes this job's last run.
 */
export function recordJobRun(result: JobRunResult): void {
  jobRuns.inc({ job: result.name, status: result.status });
  if (result.status === 'skipped') return;
  const labels = { job: result.name };
  jobLastRunTimestamp.set(labels, result.finishedAt.getTime() / 1000);
  jobLastRunDuration.set(labels, (result.finishedAt.getTime() - result.startedAt.getTime()) / 1000);
  jobLastRunSuccess.set(labels, result.status === 'ok' ? 1 : 0);
  // A failed run wrote nothing it kept: its rows are 0, not the previous run's figure.
  jobLastRunRows.set(labels, result.outcome?.rows ?? 0);
}
