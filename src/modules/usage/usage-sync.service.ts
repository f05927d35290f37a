import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { BillingKeys } from '../../common/billing/billing-keys';
import { AppConfig } from '../../config/app.config';
import { KV_STORE, KvStore } from '../../infra/kv/kv-store';
import { parseUsageHash } from './usage-meter';
import { UsageRepository } from './usage.repository';

const MEMBERS_PER_RUN = 500;

/** Copies the usage meters touched since the last run from the KV store into usage_counters. */
@Injectable()
export class UsageSyncService implements OnModuleInit, BeforeApplicationShutdown {
  private readonly logger = new Logger(UsageSyncService.name);
  private timer?: NodeJS.Timeout;

  constructor(
    @Inject(KV_STORE) private readonly kv: KvStore,
    private readonly usage: UsageRepository,
    private readonly config: ConfigService<AppConfig, true>,
  ) {}

  onModuleInit() {
    this.timer = setInterval(() => void this.sync(), this.config.get('usage.syncIntervalMs', { infer: true }));
    this.timer.unref();
  }

  async beforeApplicationShutdown() {
    clearInterval(this.timer);
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

