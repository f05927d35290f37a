import { Inject, Injectable, Logger } from '@nestjs/common';
import { hostname } from 'node:os';
import { KV_STORE, KvStore } from '../infra/kv/kv-store';
import { tryAcquireLock } from '../infra/locks/kv-lock';
import { JobRunsRepository } from './job-runs.repository';
import { JobDefinition, JobRunResult } from './job.types';

const HOLDER = `${hostname()}:${process.pid}`;

/**
 * Runs a job under its lock (one replica at a time; the lease is renewed while the run lasts and expires
 * if the holder dies), times it, records it in job_runs and turns any throw into an outcome.
 */
@Injectable()
export class JobRunner {
  private readonly logger = new Logger(JobRunner.name);

  constructor(
    @Inject(KV_STORE) private readonly kv: KvStore,
    private readonly runs: JobRunsRepository,
  ) {}

  async run(job: JobDefinition, { waitMs = 0 }: { waitMs?: number } = {}): Promise<JobRunResult> {
    const startedAt = new Date();
    const lock = await this.acquire(job, waitMs);
    if (!lock) return { name: job.name, status: 'skipped', startedAt, finishedAt: new Date(), error: 'held by another replica' };
    const controller = new AbortController();
    const renew = setInterval(() => {
      lock.extend(job.leaseMs).then(
        (held) => {
          // Another replica took over (we stalled past the lease): stop rather than publish twice.
          if (!held) controller.abort(new Error('lock lease lost'));
        },
        (error: Error) => controller.abort(new Error(`lock lease could not be renewed: ${error.message}`)),
      );
    }, Math.max(250, Math.floor(job.leaseMs / 3)));
    let runId: number | undefined;
    try {
      await this.runs.closeAbandoned(job.name, job.leaseMs);
      runId = await this.runs.start(job.name, HOLDER, startedAt);
      const outcome = await job.run(controller.signal);
      await this.runs.finish(runId, 'ok', outcome, undefined);
      return { name: job.name, status: 'ok', startedAt, finishedAt: new Date(), outcome };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.logger.error(`${job.name} failed: ${message}`);
      if (runId !== undefined) await this.runs.finish(runId, 'error', undefined, message).catch(() => undefined);
      return { name: job.name, status: 'error', startedAt, finishedAt: new Date(), error: message };
    } finally {
      clearInterval(renew);
      await lock.release().catch(() => undefined);
    }
  }

  private async acquire(job: JobDefinition, waitMs: number) {
    const deadline = Date.now() + waitMs;
    for (;;) {
      const lock = await tryAcquireLock(this.kv, `job:${job.name}`, job.leaseMs);
      if (lock || Date.now() >= deadline) return lock;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}
