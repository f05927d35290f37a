import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { AppConfig } from '../../config/app.config';
import { KV_STORE, KvStore } from '../../infra/kv/kv-store';
import { tryAcquireLock } from '../../infra/locks/kv-lock';
import { RELEASE_ORPHAN_HOLDS_SCRIPT, TRIM_OUTBOX_HEAD_SCRIPT } from './admission.scripts';
import { AdmissionService } from './admission.service';
import { BillingKeys } from './billing-keys';
import { LedgerEntry, parseLedgerEntry } from './ledger-entry';
import { LedgerRepository } from './ledger.repository';

const BATCH = 500;
const LEASE_MS = 30_000;

/**
 * Drains the KV ledger outbox into PostgreSQL. Any replica may do it; a lease keeps it to one at a time,
 * and entries leave the outbox only after PostgreSQL has them, so a crash replays rather than loses.
 */
@Injectable()
export class LedgerFlusherService implements OnModuleInit, BeforeApplicationShutdown {
  private readonly logger = new Logger(LedgerFlusherService.name);
  private timer?: NodeJS.Timeout;
  private running: Promise<number> = Promise.resolve(0);

  constructor(
    @Inject(KV_STORE) private readonly kv: KvStore,
    private readonly ledger: LedgerRepository,
    private readonly admissions: AdmissionService,
    private readonly config: ConfigService<AppConfig, true>,
  ) {}

  onModuleInit() {
    this.timer = setInterval(() => void this.flush().catch(() => undefined), this.config.get('ledger.flushIntervalMs', { infer: true }));
    this.timer.unref();
  }

  /** Before the database and the KV store close: this replica's queued holds, then one last drain. */
  async beforeApplicationShutdown() {
    clearInterval(this.timer);
    await this.admissions.commitPending();
    await this.flush().catch((error) => this.logger.error(`final ledger flush failed: ${(error as Error).message}`));
  }

  /** One drain of the outbox (after charging orphaned holds); returns how many rows were new. */
  flush(): Promise<number> {
    this.running = this.running.catch(() => 0).then(() => this.drainOnce());
    return this.running;
  }

  private async drainOnce(): Promise<number> {
    const lock = await tryAcquireLock(this.kv, 'ledger-flush', LEASE_MS);
    if (!lock) return 0;
    try {
      const cutoff = Date.now() - this.config.get('ledger.orphanHoldMs', { infer: true });
      await this.kv.run(RELEASE_ORPHAN_HOLDS_SCRIPT, [BillingKeys.holds, BillingKeys.outbox], [cutoff]);
      let total = 0;
      for (;;) {
        const lines = await this.kv.lrange(BillingKeys.outbox, 0, BATCH - 1);
        if (lines.length === 0) break;
        const entries = lines.map(parseLedgerEntry).filter((e): e is LedgerEntry => e !== null);
        if (entries.length < lines.length) this.logger.error(`dropping ${lines.length - entries.length} malformed outbox lines`);
        total += await this.ledger.write(entries);
        // Producers only append; the trim checks the head is still what was read and written (a replay
        // after a lost lease is harmless, the rows are idempotent).
        const trimmed = await this.kv.run(TRIM_OUTBOX_HEAD_SCRIPT, [BillingKeys.outbox], [lines.length, lines[0], lines[lines.length - 1]]);
        if (trimmed !== 1 || lines.length < BATCH || !(await lock.extend(LEASE_MS))) break;
      }
      return total;
    } finally {
      await lock.release();
    }
  }
}
