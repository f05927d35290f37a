import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { SchedulerRegistry } from '@nestjs/schedule';
import { AppConfig } from '../config/app.config';
import { KV_STORE, KvStore } from '../infra/kv/kv-store';
import { JobRegistry } from './job-registry';
import { JobRunner } from './job-runner';
import { JobDefinition } from './job.types';

const SHUTDOWN_GRACE_MS = 10_000;
/**
 * A tick's claim expires a tenth of the interval (at most this) before the interval ends, so the replica
 * that claimed it never finds its own claim still there at its next tick, one interval later.
 */
const CLAIM_SLACK_MAX_MS = 1_000;

/**
 * Every cadence in one place: each registered job runs on its interval (from configuration) when
 * HL_JOBS_ENABLED. Every replica ticks, but a tick first claims the job's interval in the KV store, so
 * the job starts once per interval across all replicas (the job lock alone only keeps runs from
 * overlapping: the next replica to tick would run it again as soon as a run ends). A tick is also skipped
 * while this process still runs the previous one. `job:run` goes to the runner directly and runs at once.
 */
@Injectable()
export class JobsSchedule implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(JobsSchedule.name);
  private readonly running = new Map<string, Promise<unknown>>();
  /** Embedded PGlite has one connection: jobs there take turns so their transactions never interleave. */
  private turn: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly registry: JobRegistry,
    private readonly runner: JobRunner,
    private readonly scheduler: SchedulerRegistry,
    private readonly config: ConfigService<AppConfig, true>,
    @Inject(KV_STORE) private readonly kv: KvStore,
  ) {}

  onApplicationBootstrap() {
    if (!this.config.get('hlJobs.enabled', { infer: true })) return;
    const embedded = !this.config.get('database.url', { infer: true });
    for (const job of this.registry.list()) {
      if (job.intervalMs <= 0) continue;
      const tick = () => {
        if (this.running.has(job.name)) return;
        const start = () => this.runner.run(job);
        const run = this.claimInterval(job)
          .then((claimed) => {
            if (!claimed) return undefined;
            return embedded ? (this.turn = this.turn.then(start, start)) : start();
          })
          // The runner reports a job's own failure as an outcome; only a lock store that is down ends up here.
          .catch((error: Error) => this.logger.error(`${job.name} could not start: ${error.message}`))
          .finally(() => this.running.delete(job.name));
        this.running.set(job.name, run);
      };
      this.scheduler.addInterval(job.name, setInterval(tick, job.intervalMs));
      setTimeout(tick, 0).unref();
      this.logger.log(`${job.name} every ${job.intervalMs} ms`);
    }
  }

  /** Runs in flight get a moment to finish (their upstream calls abort at shutdown); a run cut short never publishes. */
  async beforeApplicationShutdown() {
    for (const name of this.scheduler.getIntervals()) this.scheduler.deleteInterval(name);
    const grace = new Promise((resolve) => setTimeout(resolve, SHUTDOWN_GRACE_MS).unref());
    await Promise.race([Promise.allSettled(this.running.values()), grace]);
  }

  /** SET NX PX: true for the first tick of any replica in this interval. A store that cannot answer skips the tick. */
  private async claimInterval(job: JobDefinition): Promise<boolean> {
    const ttlMs = job.intervalMs - Math.min(Math.floor(job.intervalMs / 10), CLAIM_SLACK_MAX_MS);
    try {
      return await this.kv.setIfAbsent(`job-tick:${job.name}`, String(Date.now()), ttlMs);
    } catch (error) {
      this.logger.warn(`${job.name}: tick skipped, the KV store did not answer (${(error as Error).message})`);
      return false;
    }
  }
}
