import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { hostname } from 'node:os';
import { abortError, isAbortError } from '../common/async/abort';
import { KV_STORE, KvStore } from '../infra/kv/kv-store';
import { tryAcquireLock } from '../infra/locks/kv-lock';
import { recordJobRun } from './job-metrics';
import { JobRunsRepository } from './job-runs.repository';
import { JobDefinition, JobRunResult } from './job.types';

const HOLDER = `${hostname()}:${process.pid}`;

/** A run in progress in this process, as the schedule's overrun note describes it. */
export interface ActiveRun {
  startedAt: Date;
  /** The job's last progress note, if it gives any. */
  activity?: string;
}

/**
 * Runs a job under its lock (one replica at a time; the lease is renewed while the run lasts and expires
 * if the holder dies), times it, records it in job_runs and on /metrics, and turns any throw into an
 * outcome. At shutdown every run is aborted; a run that stops that way is recorded as `stopped`, not as a
 * failure.
 */
@Injectable()
export class JobRunner implements OnModuleDestroy {
  private readonly logger = new Logger(JobRunner.name);
  private readonly stopping = new AbortController();
  private readonly active = new Map<string, ActiveRun & { controller: AbortController }>();

  constructor(
    @Inject(KV_STORE) private readonly kv: KvStore,
    private readonly runs: JobRunsRepository,
  ) {}

  /** First shutdown phase: every run stops at its next step, before anything waits for them or closes the pool. */
  onModuleDestroy(): void {
    this.stopping.abort(abortError('shutting down'));
    for (const run of this.active.values()) run.controller.abort(this.stopping.signal.reason);
  }

  /** The run of `name` in progress in this process, if any. */
  activeRun(name: string): ActiveRun | undefined {
    const run = this.active.get(name);
    return run && { startedAt: run.startedAt, activity: run.activity };
  }

  async run(job: JobDefinition, options: { waitMs?: number } = {}): Promise<JobRunResult> {
    const result = await this.runUnderLock(job, options);
    recordJobRun(result);
    return result;
  }

  private async runUnderLock(job: JobDefinition, { waitMs = 0 }: { waitMs?: number }): Promise<JobRunResult> {
    const startedAt = new Date();
    const skipped = (error: string): JobRunResult => ({ name: job.name, status: 'skipped', startedAt, finishedAt: new Date(), error });
    if (this.stopping.signal.aborted) return skipped('shutting down');
    const lock = await this.acquire(job, waitMs);
    if (!lock) return skipped(this.stopping.signal.aborted ? 'shutting down' : 'held by another replica');
    if (this.stopping.signal.aborted) {
      await lock.release().catch(() => undefined);
      return skipped('shutting down');
    }
    const controller = new AbortController();
    const active = { startedAt, controller, activity: undefined as string | undefined };
    this.active.set(job.name, active);
    // A timer of this run's own, not a registry job: it lives only as long as the run and renews its lock.
    const renew = setInterval(
      () => {
        lock.extend(job.leaseMs).then(
          (held) => {
            // Another replica took over (we stalled past the lease): stop rather than publish twice.
            if (!held) controller.abort(abortError('lock lease lost'));
          },
          (error: Error) => controller.abort(abortError(`lock lease could not be renewed: ${error.message}`)),
        );
      },
      Math.max(250, Math.floor(job.leaseMs / 3)),
    );
    let runId: number | undefined;
    try {
      await this.runs.closeAbandoned(job.name, job.leaseMs);
      runId = await this.runs.start(job.name, HOLDER, startedAt);
      const outcome = await job.run(controller.signal, { report: (activity) => (active.activity = activity) });
      await this.runs.finish(runId, 'ok', outcome, undefined);
      return { name: job.name, status: 'ok', startedAt, finishedAt: new Date(), outcome };
    } catch (error) {
      const stopped = controller.signal.aborted || isAbortError(error);
      const message = messageOf(controller.signal.aborted ? controller.signal.reason : error);
      // A stop at shutdown (ours, or the upstream client's a moment earlier) is said once for every job by
      // the schedule; a lost lease is this run's own and deserves its line.
      if (!stopped) this.logger.error(`${job.name} failed: ${message}`);
      else if (controller.signal.aborted && !this.stopping.signal.aborted) this.logger.warn(`${job.name} stopped: ${message}`);
      const status = stopped ? 'stopped' : 'error';
      if (runId !== undefined) await this.runs.finish(runId, status, undefined, message).catch(() => undefined);
      return { name: job.name, status, startedAt, finishedAt: new Date(), error: message };
    } finally {
      this.active.delete(job.name);
      clearInterval(renew);
      await lock.release().catch(() => undefined);
    }
  }

  private async acquire(job: JobDefinition, waitMs: number) {
    const deadline = Date.now() + waitMs;
    for (;;) {
      const lock = await tryAcquireLock(this.kv, `job:${job.name}`, job.leaseMs);
      if (lock || Date.now() >= deadline || this.stopping.signal.aborted) return lock;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
