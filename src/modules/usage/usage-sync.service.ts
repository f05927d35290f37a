import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { BillingKeys } from '../../common/billing/billing-keys';
import { UsageMeterService } from '../../common/billing/usage-meter.service';
import { AppConfig } from '../../config/app.config';
import { KV_STORE, KvStore } from '../../infra/kv/kv-store';
import { parseUsageHash } from './usage-meter';
import { UsageRepository } from './usage.repository';

// Meters copied per round of a run; a run takes rounds until no meter is left dirty.
const MEMBERS_PER_ROUND = 500;

/** Copies the usage meters touched since the last run from the KV store into usage_counters. */
@Injectable()
export class UsageSyncService implements OnModuleInit, BeforeApplicationShutdown, OnApplicationShutdown {
  private readonly logger = new Logger(UsageSyncService.name);
  private timer?: NodeJS.Timeout;

  constructor(
    @Inject(KV_STORE) private readonly kv: KvStore,
    private readonly usage: UsageRepository,
    private readonly meter: UsageMeterService,
    private readonly config: ConfigService<AppConfig, true>,
  ) {}

  onModuleInit() {
    this.timer = setInterval(() => void this.sync(), this.config.get('usage.syncIntervalMs', { infer: true }));
    this.timer.unref();
  }

  beforeApplicationShutdown() {
    clearInterval(this.timer);
  }

  /**
   * After the HTTP server closed (so no call is counted any more) and before the KV store and the
   * database close (global modules shut down after this one): this replica's last counts, then the copy.
   */
  async onApplicationShutdown() {
    await this.meter.flush();
    await this.sync();
  }

  /**
   * Copies every meter marked dirty, however many accounts were called since the last run (one round of
   * MEMBERS_PER_ROUND would leave a growing backlog once more accounts than that are active per interval).
   */
  async sync(): Promise<void> {
    for (;;) {
      const members = await this.kv.spop(BillingKeys.usageDirty, MEMBERS_PER_ROUND).catch(() => []);
      if (members.length === 0 || !(await this.copy(members)) || members.length < MEMBERS_PER_ROUND) return;
    }
  }

  /** One round: the meters' hashes read together (one round trip, not one per meter), then one upsert. */
  private async copy(members: string[]): Promise<boolean> {
    try {
      const meters = members.map((member) => {
        const [accountId, period] = member.split(':');
        return { accountId, period: Number(period) };
      });
      const hashes = await Promise.all(meters.map(({ accountId, period }) => this.kv.hgetall(BillingKeys.usage(accountId, period))));
      await this.usage.upsert(meters.flatMap(({ accountId, period }, i) => parseUsageHash(accountId, period, hashes[i])));
      return true;
    } catch (error) {
      this.logger.error(`usage sync failed: ${(error as Error).message}`);
      // Put the members back so the next run retries them.
      await this.kv.sadd(BillingKeys.usageDirty, ...members).catch(() => undefined);
      return false;
    }
  }
}

