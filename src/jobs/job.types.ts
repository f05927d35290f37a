/** What a job body reports; the runner adds timing, the lock and the run record. */
export interface JobOutcome {
  rows: number;
  /** Per-coin share of open interest / supply seen, for snapshot jobs. */
  coverage?: Record<string, number>;
  /** Failures inside a fan-out that did not stop the run. */
  failures?: number;
  /** What failed, a few words each, the first MAX_NAMED_FAILURES of them (JobFailures); `failures` counts all. */
  failed?: string[];
  details?: Record<string, unknown>;
}

export interface JobDefinition {
  /** Dotted name, also the lock and the `job:run` argument: `hl.positions`. */
  name: string;
  /** Whether the schedule runs it (configuration: its own switch and its family's); off, only `job:run` does. */
  enabled: boolean;
  /** Cadence when scheduled; 0 = only on demand. */
  intervalMs: number;
  /** How long one run may hold the lock before another replica may take over (renewed while running). */
  leaseMs: number;
  /**
   * `signal` aborts at shutdown or when the lease is lost: stop, and publish nothing half-done. `progress`
   * takes a short note of what the run is doing, shown when a run overruns its cadence.
   */
  run(signal: AbortSignal, progress: JobProgress): Promise<JobOutcome>;
  /** A shared limit slowing the job down right now (`12 upstream reads waiting for request weight`), if any. */
  describeLoad?(): string | undefined;
}

export interface JobProgress {
  /** What the run is doing now, in a few words: `reading 120/200 addresses`. */
  report(activity: string): void;
}

/** `stopped`: cut short by shutdown or a lost lease, not a failure of the job. */
export type JobStatus = 'ok' | 'error' | 'skipped' | 'stopped';

export interface JobRunResult {
  name: string;
  status: JobStatus;
  startedAt: Date;
  finishedAt: Date;
  outcome?: JobOutcome;
  error?: string;
}
