import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { AppConfig } from '../../config/app.config';
import { KV_STORE, KvStore } from '../../infra/kv/kv-store';
import { tryAcquireLock } from '../../infra/locks/kv-lock';
import { ledgerDrainFailures, ledgerOutboxLength } from '../../infra/metrics/metrics';
import { RAISE_SEQ_FLOOR_SCRIPT, TRIM_OUTBOX_HEAD_SCRIPT } from './admission.scripts';
import { BillingKeys } from './billing-keys';
import { OutboxBatch } from './ledger-entry';
import { LedgerRepository } from './ledger.repository';
import { ThrottledErrorLog } from './throttled-error-log';

// Lines per PostgreSQL statement. Each batch folds the balance of every account it touches, so bigger
// batches fold less per row: 5,000 lines cost PostgreSQL 9.0–9.7 µs of CPU per row, against 12.8 µs for
// 2,000 (docs/benchmarks.md). LRANGE of 5,000 lines keeps Redis busy for about a quarter of a millisecond.
const BATCH = 5_000;
const LEASE_MS = 30_000;
// A database that stays down fails every drain (one a second): one log line per minute says so.
const FAILURE_LOG_INTERVAL_MS = 60_000;

/**
 * Drains the KV ledger outbox into PostgreSQL. Any replica may do it; a lease keeps it to one at a time,
 * and entries leave the outbox only after PostgreSQL has them, so a crash replays rather than loses.
 */
@Injectable()
export class LedgerFlusherService implements OnModuleInit, BeforeApplicationShutdown, OnApplicationShutdown {
  private readonly logger = new Logger(LedgerFlusherService.name);
  private readonly failures = new ThrottledErrorLog(this.logger, 'ledger drain', FAILURE_LOG_INTERVAL_MS);
  private timer?: NodeJS.Timeout;
  private running: Promise<number> = Promise.resolve(0);
  /** Names this outbox in the drain fence: the KV key with its prefix, unique per deployment. */
  private readonly outboxId: string;

  constructor(
    @Inject(KV_STORE) private readonly kv: KvStore,
    private readonly ledger: LedgerRepository,
    private readonly config: ConfigService<AppConfig, true>,
  ) {
    this.outboxId = `${config.get('redis.keyPrefix', { infer: true })}${BillingKeys.outbox}`;
  }

  /** Before the server listens (so before any admission): the ledger sequence resumes above what PostgreSQL holds. */
  async onModuleInit() {
    await this.kv.run(RAISE_SEQ_FLOOR_SCRIPT, [BillingKeys.seq], [await this.ledger.highestFoldedSeq()]);
    // Not a registry job: it must run whatever HL_JOBS_ENABLED says, every second or so, on every replica
    // (the lease keeps it to one at a time; the in-process store's outbox is its own process's), with no
    // job_runs row per drain.
    this.timer = setInterval(() => void this.drainInBackground(), this.config.get('ledger.flushIntervalMs', { infer: true }));
    this.timer.unref();
  }

  /** The HTTP server has drained by now (HttpShutdownService runs first): one drain with every answered call. */
  async beforeApplicationShutdown() {
    clearInterval(this.timer);
    await this.flush().catch((error) => this.logger.error(`ledger flush at shutdown failed: ${(error as Error).message}`));
  }

  /**
   * Last, before the KV store and the database close (see BillingSyncModule): what settled after the first
   * drain, such as the refund of a call whose connection the shutdown grace period cut (it fails once the
   * upstream clients abort their calls). With Redis it would wait for the next replica anyway; on the
   * embedded in-process store this is its last chance.
   */
  async onApplicationShutdown() {
    await this.flush().catch((error) => this.logger.error(`final ledger flush failed: ${(error as Error).message}`));
  }

  /**
   * One drain of the outbox; returns how many rows were new. A failure is counted
   * (ledger_drain_failures_total), logged at most once per FAILURE_LOG_INTERVAL_MS, and passed on.
   */
  flush(): Promise<number> {
    const drain = this.running.catch(() => 0).then(() => this.drainOnce());
    this.running = drain;
    return drain.then(
      (inserted) => {
        this.failures.succeeded();
        return inserted;
      },
      (error: unknown) => {
        ledgerDrainFailures.inc();
        this.failures.failed(error);
        throw error;
      },
    );
  }

  /** The timer's drain: flush() has counted and logged a failure, and the lines wait in the outbox for the next one. */
  private async drainInBackground(): Promise<void> {
    try {
      await this.flush();
    } catch {
      return;
    }
  }

  private async drainOnce(): Promise<number> {
    const lock = await tryAcquireLock(this.kv, 'ledger-flush', LEASE_MS);
    if (!lock) return 0;
    try {
      let total = 0;
      for (let claimed = false; ; claimed = true) {
        const batch = OutboxBatch.of(await this.kv.lrange(BillingKeys.outbox, 0, BATCH - 1));
        if (batch.count === 0) break;
        if (!claimed) await this.ledger.claim(this.outboxId, lock.token);
        const { inserted, malformed, fenced } = await this.ledger.write(batch, { outbox: this.outboxId, token: lock.token });
        // Another drainer claimed this outbox: this one's lease is gone, and the lines are the other's to write.
        if (!fenced) break;
        if (malformed > 0) this.logger.error(`dropped ${malformed} malformed outbox lines`);
        total += inserted;
        // Producers only append; the trim checks the head is still what was read and written (lines read
        // twice are harmless: their rows exist already, and a void's delete finds nothing the second time).
        const trimmed = await this.kv.run(TRIM_OUTBOX_HEAD_SCRIPT, [BillingKeys.outbox], [batch.count, batch.first, batch.last]);
        if (trimmed !== 1 || batch.count < BATCH || !(await lock.extend(LEASE_MS))) break;
      }
      ledgerOutboxLength.set(await this.kv.llen(BillingKeys.outbox));
      return total;
    } finally {
      await lock.release();
    }
  }
}
