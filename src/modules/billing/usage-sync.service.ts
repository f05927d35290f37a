import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { randomUUID } from 'node:crypto';
import { AppConfig } from '../../config/app.config';
import { KV_STORE, KvStore } from '../../infra/kv/kv-store';
import { markUsageSynced, usageSyncFailures } from '../../infra/metrics/metrics';
import { ThrottledErrorLog } from './throttled-error-log';
import { CLAIM_BATCH, CLAIM_PREV, decodeUsageHash, hashOfReply, meterOfMember, USAGE_KEY_TTL_MS, UsageMeterId, UsageMeterKeys } from './usage-meter.format';
import { UsageMeterService } from './usage-meter.service';
import { CLAIM_SCRIPT, FINALIZE_SCRIPT, REROOT_SCRIPT, TAKE_DIRTY_SCRIPT } from './usage-meter.scripts';
import { UsageClaim, UsageRepository } from './usage.repository';

// Meters moved per round of a run; a run takes rounds until no meter is left dirty.
const MEMBERS_PER_ROUND = 500;
// A store that stays down fails every run: one log line per minute says so.
const FAILURE_LOG_INTERVAL_MS = 60_000;

/**
 * Moves the usage counted in the KV store since the last run into usage_counters, adding it there. The KV
 * store holds only deltas, so a store that starts empty (the in-process one after a restart, Redis after
 * losing its data) adds to the history instead of replacing it. Each delta moves in three steps that a
 * crash may interrupt anywhere: claim it (out of the live hash, under a new batch id naming the previous
 * one, atomically), add it in PostgreSQL where the meter's last batch is that previous one (see
 * UsageRepository.add), then mark the claim synced. A retry repeats only what did not finish, any replica
 * may finish another's claim, and a delta is neither lost nor added twice.
 */
@Injectable()
export class UsageSyncService implements OnModuleInit, BeforeApplicationShutdown, OnApplicationShutdown {
  private readonly logger = new Logger(UsageSyncService.name);
  private readonly failures = new ThrottledErrorLog(this.logger, 'usage sync', FAILURE_LOG_INTERVAL_MS);
  private timer?: NodeJS.Timeout;
  private running: Promise<void> = Promise.resolve();

  constructor(
    @Inject(KV_STORE) private readonly kv: KvStore,
    private readonly usage: UsageRepository,
    private readonly meter: UsageMeterService,
    private readonly config: ConfigService<AppConfig, true>,
  ) {
    // usage_sync_lag_seconds counts from this replica's start until its first completed run.
    markUsageSynced();
  }

  onModuleInit() {
    // Not a registry job: it must run on every replica whatever HL_JOBS_ENABLED says (on the in-process store
    // each replica's meters are its own), every few seconds, with no job_runs row per run.
    // The in-process store loses what it holds when the process is killed: there it is moved as often as
    // it is flushed (cheap, in one process), so a kill loses at most two intervals of free calls' counts.
    const every = this.config.get('usage.syncIntervalMs', { infer: true });
    this.timer = setInterval(
      () => void this.sync(),
      this.kv.kind === 'memory' ? Math.min(every, this.config.get('usage.flushIntervalMs', { infer: true })) : every,
    );
    this.timer.unref();
  }

  beforeApplicationShutdown() {
    clearInterval(this.timer);
  }

  /**
   * After the HTTP server closed (so no call is counted any more) and before the KV store and the
   * database close (see BillingSyncModule):
   * this replica's last counts, then the move.
   * On the in-process store this is what carries the usage over a restart.
   */
  async onApplicationShutdown() {
    await this.meter.flush();
    await this.sync();
  }

  /**
   * One run at a time per replica (the timer's and an explicit one); never rejects: a failure is counted
   * (usage_sync_failures_total) and logged at most once per FAILURE_LOG_INTERVAL_MS.
   */
  sync(): Promise<void> {
    this.running = this.running.then(() => this.run());
    return this.running;
  }

  /**
   * Moves every dirty meter, however many accounts were called since the last run, and any meter a
   * crashed run (of any replica) left half-moved.
   */
  private async run(): Promise<void> {
    try {
      for (;;) {
        const taken = await this.kv.run(TAKE_DIRTY_SCRIPT, [UsageMeterKeys.dirty, UsageMeterKeys.syncing], [MEMBERS_PER_ROUND]);
        const syncing = Object.keys(await this.kv.hgetall(UsageMeterKeys.syncing));
        for (let i = 0; i < syncing.length; i += MEMBERS_PER_ROUND) await this.move(syncing.slice(i, i + MEMBERS_PER_ROUND));
        if (taken.length < MEMBERS_PER_ROUND) break;
      }
      markUsageSynced();
      this.failures.succeeded();
    } catch (error) {
      // The members stay in the syncing hash (and any claim in the KV store) for the next run.
      usageSyncFailures.inc();
      this.failures.failed(error);
    }
  }

  /**
   * One round: claim the meters' deltas (one script), add them (one statement), mark them synced (one
   * script). A meter that had a claim in flight gets that one finished first, then a second pass moves its
   * live delta too.
   */
  private async move(members: string[], pass = 1): Promise<void> {
    // Each meter once: named twice, the claim script would hand its one claim back twice.
    const meters = [...new Set(members)].map(meterOfMember).filter((m): m is UsageMeterId => m !== undefined);
    if (meters.length === 0) return;
    const batchIds = meters.map(() => randomUUID());
    const replies = await this.kv.run(CLAIM_SCRIPT, meterKeys(meters), [...meters.flatMap((m, i) => [m.member, batchIds[i]]), USAGE_KEY_TTL_MS]);

    const claims: Array<UsageClaim & { meter: UsageMeterId }> = [];
    // A set: a claim handed back (another run's) may also turn out stranded, and is still one meter to move again.
    const again = new Set<string>();
    meters.forEach((meter, i) => {
      if (replies[i].length === 0) return;
      const hash = hashOfReply(replies[i]);
      const { accountId, period } = meter;
      const counts = decodeUsageHash(accountId, period, hash);
      claims.push({ meter, accountId, period, batchId: hash[CLAIM_BATCH], prevBatchId: hash[CLAIM_PREV] || null, counts });
      if (hash[CLAIM_BATCH] !== batchIds[i]) again.add(meter.member);
    });
    if (claims.length === 0) return;
    const orphans = new Set(await this.usage.add(claims));
    const added = claims.filter((c) => !orphans.has(c.batchId));
    const stranded = claims.filter((c) => orphans.has(c.batchId));
    if (stranded.length > 0) {
      const rerooted = await this.kv.run(
        REROOT_SCRIPT,
        stranded.map((c) => UsageMeterKeys.claim(c.accountId, c.period)),
        stranded.map((c) => c.batchId),
      );
      if (rerooted > 0) this.logger.warn(`${rerooted} usage deltas did not follow the last batch PostgreSQL added; adding them by their own id`);
      for (const c of stranded) again.add(c.meter.member);
    }
    if (added.length > 0) {
      await this.kv.run(FINALIZE_SCRIPT, meterKeys(added.map((c) => c.meter)), [...added.flatMap((c) => [c.meter.member, c.batchId]), USAGE_KEY_TTL_MS]);
    }
    if (again.size > 0 && pass === 1) await this.move([...again], 2);
  }
}

/** The syncing hash, then the live delta and the claim of each meter, as the scripts take them. */
function meterKeys(meters: UsageMeterId[]): string[] {
  return [UsageMeterKeys.syncing, ...meters.flatMap((m) => [UsageMeterKeys.live(m.accountId, m.period), UsageMeterKeys.claim(m.accountId, m.period)])];
}
