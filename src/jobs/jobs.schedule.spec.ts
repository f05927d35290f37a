import { Logger } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { SchedulerRegistry } from '@nestjs/schedule';
import { AppConfig } from '../config/app.config';
import { MemoryKvStore } from '../infra/kv/memory-kv.store';
import { JobRegistry } from './job-registry';
import { JobRunner } from './job-runner';
import { JobRunsRepository } from './job-runs.repository';
import { JobsSchedule, OVERRUN_NOTE_INTERVAL_MS } from './jobs.schedule';

const INTERVAL_MS = 10_000;
/** How far apart the two replicas' timers tick: each run ends long before the other replica's tick. */
const PHASE_MS = 3_000;

/** Run records are not what is under test here. */
const runs = {
  closeAbandoned: async () => undefined,
  start: async () => 1,
  finish: async () => undefined,
} as unknown as JobRunsRepository;

/** The schedule's own settings: JOBS_ENABLED and the database (embedded or not); each job carries its switch. */
function scheduleConfig({ jobsEnabled = true } = {}) {
  const settings: Record<string, unknown> = { 'jobs.enabled': jobsEnabled, 'database.url': 'postgres://db/test' };
  return { get: (key: string) => settings[key] } as unknown as ConfigService<AppConfig, true>;
}
const config = scheduleConfig();

/** One replica: its own registry, runner and timers, sharing the KV store (the job lock and the tick claims). */
function startReplica(kv: MemoryKvStore, name: string, starts: string[]) {
  const registry = new JobRegistry();
  registry.register({ name: 'hl.snapshot', enabled: true, intervalMs: INTERVAL_MS, leaseMs: 60_000, run: async () => (starts.push(name), { rows: 0 }) });
  const runner = new JobRunner(kv, runs);
  const scheduler = new SchedulerRegistry();
  const sut = new JobsSchedule(registry, runner, scheduler, config, kv);
  sut.onApplicationBootstrap();
  return { runner, registry, stop: () => scheduler.getIntervals().forEach((n) => scheduler.deleteInterval(n)) };
}

describe(JobsSchedule.name, () => {
  beforeEach(() => {
    jest.useFakeTimers({ now: Date.UTC(2027, 0, 15) });
    jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
  });
  afterEach(() => {
    jest.useRealTimers();
    jest.restoreAllMocks();
  });

  it('starts a job once per interval across replicas, not once per replica', async () => {
    const kv = new MemoryKvStore();
    const starts: string[] = [];
    const a = startReplica(kv, 'a', starts);
    await jest.advanceTimersByTimeAsync(PHASE_MS);
    const b = startReplica(kv, 'b', starts);

    await jest.advanceTimersByTimeAsync(5 * INTERVAL_MS);
    a.stop();
    b.stop();

    // Ticks at 0, 10, 20, 30, 40 and 50 s on replica a; replica b's ticks 3 s later find the interval claimed.
    expect(starts).toEqual(['a', 'a', 'a', 'a', 'a', 'a']);
  });

  it('lets another replica take over once the one that ran it stops ticking', async () => {
    const kv = new MemoryKvStore();
    const starts: string[] = [];
    const a = startReplica(kv, 'a', starts);
    await jest.advanceTimersByTimeAsync(PHASE_MS);
    const b = startReplica(kv, 'b', starts);
    await jest.advanceTimersByTimeAsync(INTERVAL_MS - PHASE_MS);
    a.stop();

    await jest.advanceTimersByTimeAsync(3 * INTERVAL_MS);
    b.stop();

    // a ran at 0 and 10 s; b's tick at 13 s still finds a's claim, its ticks at 23 and 33 s run the job.
    expect(starts).toEqual(['a', 'a', 'b', 'b']);
  });

  it('says when a run overruns its cadence, with how long it has run and what it is doing, at most once per few minutes', async () => {
    const warnings: string[] = [];
    jest.spyOn(Logger.prototype, 'warn').mockImplementation((message: unknown) => void warnings.push(String(message)));
    const kv = new MemoryKvStore();
    const registry = new JobRegistry();
    let finish: () => void = () => undefined;
    registry.register({
      name: 'hl.positions',
      enabled: true,
      intervalMs: INTERVAL_MS,
      leaseMs: 60_000,
      run: async (_signal, progress) => {
        progress.report('reading addresses: 30/200');
        await new Promise<void>((resolve) => (finish = resolve));
        return { rows: 0 };
      },
      describeLoad: () => '12 upstream read(s) waiting for request weight',
    });
    const scheduler = new SchedulerRegistry();
    const sut = new JobsSchedule(registry, new JobRunner(kv, runs), scheduler, config, kv);
    sut.onApplicationBootstrap();

    await jest.advanceTimersByTimeAsync(3 * INTERVAL_MS);
    expect(warnings).toEqual([
      'hl.positions overran its 10 s cadence: its run has been going for 10 s (reading addresses: 30/200); 12 upstream read(s) waiting for request weight; 1 tick skipped since the last note',
    ]);

    await jest.advanceTimersByTimeAsync(OVERRUN_NOTE_INTERVAL_MS);
    finish();
    sut.onModuleDestroy();
    await sut.beforeApplicationShutdown();

    // Ticks at 20 and 30 s went unsaid; the next note, five minutes on, counts them with the ticks since.
    expect(warnings).toHaveLength(2);
    expect(warnings[1]).toMatch(
      /^hl\.positions overran its 10 s cadence: its run has been going for 3\d\d s \(reading addresses: 30\/200\); .*; 30 ticks skipped/,
    );
  });

  it('stops the runs in flight at shutdown and records them as stopped, with one line for all of them', async () => {
    const logs: string[] = [];
    jest.spyOn(Logger.prototype, 'log').mockImplementation((message: unknown) => void logs.push(String(message)));
    const errors = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    const warnings = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const finished: string[] = [];
    const recorded = { ...runs, finish: async (_id: number, status: string) => void finished.push(status) } as unknown as JobRunsRepository;
    const kv = new MemoryKvStore();
    const registry = new JobRegistry();
    registry.register({
      name: 'hl.positions',
      enabled: true,
      intervalMs: INTERVAL_MS,
      leaseMs: 60_000,
      run: (signal) => new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason))),
    });
    const runner = new JobRunner(kv, recorded);
    const sut = new JobsSchedule(registry, runner, new SchedulerRegistry(), config, kv);
    sut.onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(1);
    logs.length = 0;

    runner.onModuleDestroy();
    sut.onModuleDestroy();
    await sut.beforeApplicationShutdown();

    expect(finished).toEqual(['stopped']);
    expect(logs).toEqual(['stopped the job runs in flight: hl.positions']);
    expect(errors).not.toHaveBeenCalled();
    expect(warnings).not.toHaveBeenCalled();
  });

  it("still runs an operator's job:run at once, right after a scheduled run", async () => {
    const kv = new MemoryKvStore();
    const starts: string[] = [];
    const a = startReplica(kv, 'a', starts);
    await jest.advanceTimersByTimeAsync(1);
    a.stop();

    const result = await a.runner.run(a.registry.get('hl.snapshot')!);

    expect(result.status).toBe('ok');
    expect(starts).toEqual(['a', 'a']);
  });

  describe('switches', () => {
    /** Three jobs of two families, each run recorded by name; `enabled` as configuration would set it. */
    function scheduleThree(switches: Record<string, boolean>, settings = config) {
      const kv = new MemoryKvStore();
      const registry = new JobRegistry();
      const started: string[] = [];
      for (const name of ['hl.mids', 'hl.snapshot', 'housekeeping.job-runs']) {
        registry.register({
          name,
          enabled: switches[name] ?? true,
          intervalMs: INTERVAL_MS,
          leaseMs: 60_000,
          run: async () => (started.push(name), { rows: 0 }),
        });
      }
      const scheduler = new SchedulerRegistry();
      const runner = new JobRunner(kv, runs);
      const sut = new JobsSchedule(registry, runner, scheduler, settings, kv);
      sut.onApplicationBootstrap();
      return { sut, runner, registry, scheduler, started };
    }

    it('leaves a switched-off job unscheduled while the others run on their cadence', async () => {
      const { sut, scheduler, started } = scheduleThree({ 'hl.mids': false, 'hl.snapshot': false });

      expect(scheduler.getIntervals()).toEqual(['housekeeping.job-runs']);
      await jest.advanceTimersByTimeAsync(2 * INTERVAL_MS);
      sut.onModuleDestroy();

      // Ticks at 0, 10 and 20 s.
      expect(started).toEqual(['housekeeping.job-runs', 'housekeeping.job-runs', 'housekeeping.job-runs']);
    });

    it('schedules nothing when the replica schedule is off, yet job:run still runs a job', async () => {
      const { sut, runner, registry, scheduler, started } = scheduleThree({}, scheduleConfig({ jobsEnabled: false }));

      await jest.advanceTimersByTimeAsync(2 * INTERVAL_MS);
      expect(scheduler.getIntervals()).toEqual([]);
      expect(started).toEqual([]);

      expect((await runner.run(registry.get('hl.mids')!)).status).toBe('ok');
      sut.onModuleDestroy();
      expect(started).toEqual(['hl.mids']);
    });
  });
});
