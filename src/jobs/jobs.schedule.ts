import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
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
/** A job overrunning its cadence says so at most this often, with the number of ticks skipped meanwhile. */
export const OVERRUN_NOTE_INTERVAL_MS = 5 * 60_000;

/**
 * Runs each registered job that its configuration switches on (jobs.schedules: `<JOB>_ENABLED`, and
 * JOBS_ENABLED for the replica as a whole) on its configured interval. Every replica ticks, but a tick first claims the job's interval in the KV store, so
 * the job starts once per interval across all replicas (the job lock alone only keeps runs from
 * overlapping: the next replica to tick would run it again as soon as a run ends). A tick is also skipped
 * while this process still runs the previous one, and the log says why. `job:run` goes to the runner
 * directly and runs at once.
 */
@Injectable()
export class JobsSchedule implements OnApplicationBootstrap, OnModuleDestroy, BeforeApplicationShutdown {
  private readonly logger = new Logger(JobsSchedule.name);
  /** The tick in progress per job, and when it began (claim, turn and run included). */
  private readonly running = new Map<string, { since: number; done: Promise<unknown> }>();
  private readonly overruns = new Map<string, { notedAt: number; skipped: number }>();
  /** Embedded PGlite has one connection: jobs there take turns so their transactions never interleave. */
  private turn: Promise<unknown> = Promise.resolve();
  private embedded = false;
  private stopping = false;

  constructor(
    private readonly registry: JobRegistry,
    private readonly runner: JobRunner,
    private readonly scheduler: SchedulerRegistry,
    private readonly config: ConfigService<AppConfig, true>,
    @Inject(KV_STORE) private readonly kv: KvStore,
  ) {}

  onApplicationBootstrap() {
    if (!this.config.get('jobs.enabled', { infer: true })) {
      this.logger.log('no job scheduled on this replica (JOBS_ENABLED=false); job:run still runs any');
      return;
    }
    this.embedded = !this.config.get('database.url', { infer: true });
    const off = this.registry.list().filter((job) => !job.enabled || job.intervalMs <= 0);
    if (off.length > 0) this.logger.log(`not scheduled (switched off, or on demand only): ${off.map((job) => job.name).join(', ')}`);
    for (const job of this.registry.list()) {
      if (!job.enabled || job.intervalMs <= 0) continue;
      const tick = () => {
        if (this.stopping) return;
        const current = this.running.get(job.name);
        if (current) return this.noteOverrun(job, current.since);
        const start = () => this.runner.run(job);
        const done = this.claimInterval(job)
          .then((claimed) => {
            if (!claimed) return undefined;
            return this.embedded ? (this.turn = this.turn.then(start, start)) : start();
          })
          // The runner reports a job's own failure as an outcome; only a lock store that is down ends up here.
          .catch((error: Error) => this.logger.error(`${job.name} could not start: ${error.message}`))
          .finally(() => this.running.delete(job.name));
        this.running.set(job.name, { since: Date.now(), done });
      };
      this.scheduler.addInterval(job.name, setInterval(tick, job.intervalMs));
      setTimeout(tick, 0).unref();
      this.logger.log(`${job.name} every ${job.intervalMs} ms`);
    }
  }

  /** First shutdown phase: no tick starts from here on (the runner aborts the runs in flight in the same phase). */
  onModuleDestroy() {
    this.stopping = true;
    for (const job of this.registry.list()) {
      if (this.scheduler.doesExist('interval', job.name)) this.scheduler.deleteInterval(job.name);
    }
  }

  /**
   * Runs in flight get a moment to stop (aborted, their upstream calls end at once) before the database
   * pool closes, which happens after this phase: a run never meets a closing pool. One line says what stopped.
   */
  async beforeApplicationShutdown() {
    const names = [...this.running.keys()];
    if (names.length === 0) return;
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), SHUTDOWN_GRACE_MS).unref()));
    const allDone = Promise.allSettled([...this.running.values()].map((r) => r.done)).then(() => true as const);
    const stopped = await Promise.race([allDone, grace]);
    clearTimeout(timer);
    if (stopped) this.logger.log(`stopped the job runs in flight: ${names.join(', ')}`);
    else this.logger.warn(`jobs still running after ${SHUTDOWN_GRACE_MS / 1000} s, stopping without them: ${[...this.running.keys()].join(', ')}`);
  }

  /**
   * A tick that finds the previous run still going is skipped. Says so, at most once per job per
   * OVERRUN_NOTE_INTERVAL_MS: how long the run has been going and what it is doing, or, on the embedded
   * database, which job it is waiting behind.
   */
  private noteOverrun(job: JobDefinition, tickSince: number): void {
    const overrun = this.overruns.get(job.name) ?? { notedAt: Number.NEGATIVE_INFINITY, skipped: 0 };
    overrun.skipped += 1;
    this.overruns.set(job.name, overrun);
    const now = Date.now();
    if (now - overrun.notedAt < OVERRUN_NOTE_INTERVAL_MS) return;
    const run = this.runner.activeRun(job.name);
    const state = run
      ? `its run has been going for ${seconds(now - run.startedAt.getTime())}${run.activity ? ` (${run.activity})` : ''}`
      : `its run has waited ${seconds(now - tickSince)} to start${this.blockingJob(job.name)}`;
    const skipped = overrun.skipped === 1 ? '1 tick' : `${overrun.skipped} ticks`;
    const load = job.describeLoad?.();
    this.logger.warn(`${job.name} overran its ${seconds(job.intervalMs)} cadence: ${state}${load ? `; ${load}` : ''}; ${skipped} skipped since the last note`);
    overrun.notedAt = now;
    overrun.skipped = 0;
  }

  /** On the embedded database, the job whose turn it is: what a waiting run waits behind. */
  private blockingJob(waiting: string): string {
    if (!this.embedded) return '';
    for (const other of this.registry.list()) {
      const run = other.name === waiting ? undefined : this.runner.activeRun(other.name);
      if (run) {
        const activity = run.activity ? `, ${run.activity}` : '';
        return ` behind ${other.name} (jobs take turns on the embedded database; it has run ${seconds(Date.now() - run.startedAt.getTime())}${activity})`;
      }
    }
    return ' (jobs take turns on the embedded database)';
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

function seconds(ms: number): string {
  return ms < 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 1000)} s`;
}
