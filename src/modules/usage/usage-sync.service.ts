import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { BillingKeys } from '../../common/billing/billing-keys';
import { UsageMeterService } from '../../common/billing/usage-meter.service';
import { AppConfig } from '../../config/app.config';
import { KV_STORE, KvStore } from '../../infra/kv/kv-store';
import { parseUsageHash } from './usage-meter';
import { UsageRepository } from './usage.repository';

const MEMBERS_PER_RUN = 500;

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

  async sync(): Promise<void> {
    const members = await this.kv.spop(BillingKeys.usageDirty, MEMBERS_PER_RUN).catch(() => []);
    if (members.length === 0) return;
    try {
      const counts = [];
      for (const member of members) {
        const [accountId, period] = member.split(':');
        const hash = await this.kv.hgetall(BillingKeys.usage(accountId, Number(period)));
        counts.push(...parseUsageHash(accountId, Number(period), hash));
      }
      await this.usage.upsert(counts);
    } catch (error) {
      this.logger.error(`usage sync failed: ${(error as Error).message}`);
      // Put the members back so the next run retries them.
      await this.kv.sadd(BillingKeys.usageDirty, ...members).catch(() => undefined);
    }
  }
}

