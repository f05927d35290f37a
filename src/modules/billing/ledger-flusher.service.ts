import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import { AppConfig } from '../../config/app.config';
import { KV_STORE, KvStore } from '../../infra/kv/kv-store';
import { tryAcquireLock } from '../../infra/locks/kv-lock';
import { ledgerDrainFailures, ledgerLinesLost, ledgerOutboxLength } from '../../infra/metrics/metrics';
import { BillingKeys } from './billing-keys';
import { outboxIdOf } from './credit-seeds';
import { OutboxBatch } from './ledger-entry';
import { LedgerRepository } from './ledger.repository';
import { MARK_DRAINED_SCRIPT, RAISE_SEQ_FLOOR_SCRIPT, TRIM_OUTBOX_HEAD_SCRIPT } from './outbox.scripts';
import { ThrottledErrorLog } from './throttled-error-log';

// Lines per PostgreSQL statement. Each batch folds the balance of every account it touches, so bigger
// batches fold less per row: 5,000 lines cost PostgreSQL 9.0–9.7 µs of CPU per row, against 12.8 µs for
// 2,000 (docs/benchmarks.md). LRANGE of 5,000 lines keeps Redis busy for about a quarter of a millisecond.
const BATCH = 5_000;
// Renewed after every batch, so a drain of any length keeps it; a holder that dies stalls the drain this long.
const LEASE_MS = 5_000;
// How often a caller waiting for the drain (drainedThrough) looks again while another replica drains.
const WAIT_POLL_MS = 20;
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
  private waitedFlush?: Promise<number>;
  /** Names this outbox in the drain fence: the KV key with its prefix, unique per deployment. */
  private readonly outboxId: string;
  /** The lease's owner: the same for every drain of this process, so a lease taken without hearing of it comes back. */
  private readonly lockOwner = `ledger-flusher:${randomUUID()}`;

  constructor(
    @Inject(KV_STORE) private readonly kv: KvStore,
    private readonly ledger: LedgerRepository,
    private readonly config: ConfigService<AppConfig, true>,
  ) {
    this.outboxId = outboxIdOf(config);
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

  /**
   * Waits until every outbox line up to `seq` is in PostgreSQL (read-your-writes for /usage): drains
   * itself when it can take the lease, or waits for the replica that holds it, for at most `timeoutMs`.
   * Resolves false when that passed first.
   */
  async drainedThrough(seq: number, timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (Number(await this.kv.run(MARK_DRAINED_SCRIPT, [BillingKeys.outbox, BillingKeys.seq, BillingKeys.drained], [])) >= seq) return true;
      if (Date.now() >= deadline) return false;
      if ((await this.sharedFlush()) === 0) await delay(WAIT_POLL_MS);
    }
  }

  /** One drain for every caller waiting at once (many /usage calls), not one queued per caller. */
  private sharedFlush(): Promise<number> {
    this.waitedFlush ??= this.flush()
      .catch(() => 0)
      .finally(() => (this.waitedFlush = undefined));
    return this.waitedFlush;
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
    const lock = await tryAcquireLock(this.kv, 'ledger-flush', LEASE_MS, this.lockOwner);
    if (!lock) return 0;
    try {
      let total = 0;
      for (let claimed = false; ; claimed = true) {
        const batch = OutboxBatch.of(await this.kv.lrange(BillingKeys.outbox, 0, BATCH - 1));
        if (batch.count === 0) {
          await this.kv.run(MARK_DRAINED_SCRIPT, [BillingKeys.outbox, BillingKeys.seq, BillingKeys.drained], []);
          break;
        }
        if (!claimed) await this.ledger.claim(this.outboxId, lock.token);
        const { inserted, malformed, fenced } = await this.ledger.write(batch, { outbox: this.outboxId, token: lock.token });
        // Another drainer claimed this outbox: this one's lease is gone, and the lines are the other's to write.
        if (!fenced) {
          await this.countLostLines(batch);
          break;
        }
        if (malformed > 0) this.logger.error(`dropped ${malformed} malformed outbox lines`);
        total += inserted;
        // Producers only append; the trim checks the head is still what was read and written (lines read
        // twice are harmless: their rows exist already, and a void's delete finds nothing the second time).
        const trimmed = await this.kv.run(
          TRIM_OUTBOX_HEAD_SCRIPT,
          [BillingKeys.outbox, BillingKeys.drained],
          [batch.count, batch.first, batch.last, batch.last.split('|')[8] ?? '0'],
        );
        if (trimmed !== 1 || batch.count < BATCH || !(await lock.extend(LEASE_MS))) break;
      }
      ledgerOutboxLength.set(await this.kv.llen(BillingKeys.outbox));
      return total;
    } finally {
      await lock.release();
    }
  }

  /**
   * A batch this drain read and could not write, because another claimed the outbox: the other drainer
   * writes those lines, unless the KV store lost them meanwhile (a seed after a data loss claims the fence,
   * CreditSeeds). Then the charges among them are never billed: counted and logged, as the only trace.
   */
  private async countLostLines(batch: OutboxBatch): Promise<void> {
    if ((await this.kv.lrange(BillingKeys.outbox, 0, 0))[0] === batch.first) return;
    const missing = await this.ledger.missingCharges(batch);
    if (missing.count === 0) return;
    ledgerLinesLost.inc(missing.count);
    this.logger.error(`the KV store lost its data while ${missing.count} charges (${missing.credits} credits) were on their way to PostgreSQL: never billed`);
  }
}
