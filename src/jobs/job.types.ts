/** What a job body reports; the runner adds timing, the lock and the run record. */
export interface JobOutcome {
  rows: number;
  /** Per-coin share of open interest / supply seen, for snapshot jobs. */
  coverage?: Record<string, number>;
  /** Failures inside a fan-out that did not stop the run. */
  failures?: number;
  details?: Record<string, unknown>;
}

export interface JobDefinition {
  /** Dotted name, also the lock and the `job:run` argument: `hl.positions`. */
  name: string;
  /** Cadence when scheduled; 0 = only on demand. */
  intervalMs: number;
  /** How long one run may hold the lock before another replica may take over (renewed while running). */
  leaseMs: number;
  run(signal: AbortSignal): Promise<JobOutcome>;
}

export type JobStatus = 'ok' | 'error' | 'skipped';

export interface JobRunResult {
  name: string;
  status: JobStatus;
  startedAt: Date;
  finishedAt: Date;
  outcome?: JobOutcome;
  error?: string;
}
