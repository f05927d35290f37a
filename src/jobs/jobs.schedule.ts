import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { SchedulerRegistry } from '@nestjs/schedule';
import { AppConfig } from '../config/app.config';
import { JobRegistry } from './job-registry';
import { JobRunner } from './job-runner';

const SHUTDOWN_GRACE_MS = 10_000;

/**
 * Every cadence in one place: each registered job runs on its interval (from configuration) when
 * HL_JOBS_ENABLED. A tick is skipped while this process still runs the previous one; the job lock
 * keeps other replicas out.
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
  ) {}

  onApplicationBootstrap() {
    if (!this.config.get('hlJobs.enabled', { infer: true })) return;
    const embedded = !this.config.get('database.url', { infer: true });
    for (const job of this.registry.list()) {
      if (job.intervalMs <= 0) continue;
      const tick = () => {
        if (this.running.has(job.name)) return;
        const start = () => this.runner.run(job);
        const run = (embedded ? (this.turn = this.turn.then(start, start)) : start()).finally(() => this.running.delete(job.name));
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
}
