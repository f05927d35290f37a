import { Inject, Injectable } from '@nestjs/common';
import { BillingKeys } from '../billing/billing-keys';
import { periodIndexAt } from '../billing/credit-period';
import { microToCredits } from '../billing/credit-units';
import { UsageMeterService } from '../billing/usage-meter.service';
import { ApiCaller } from '../account/api-caller';
import { KV_STORE, KvStore } from '../../infra/kv/kv-store';
import { UsageItemDto } from './dto/usage-item.dto';
import { addCounts, parseUsageHash } from './usage-meter';
import { CLAIM_BATCH, CLAIM_SYNCED, READ_METER_SCRIPT, unflatten } from './usage-sync.scripts';
import { UsageCount, UsageRepository } from './usage.repository';

// A sync claims a meter once per run (seconds apart), so a second read almost never differs from the first.
const MAX_READ_ATTEMPTS = 5;

@Injectable()
export class UsageService {
  constructor(
    @Inject(KV_STORE) private readonly kv: KvStore,
    private readonly usage: UsageRepository,
    private readonly meter: UsageMeterService,
  ) {}

  /** The durable totals plus what the KV store holds that they do not include yet. */
  async currentPeriod(caller: ApiCaller): Promise<UsageItemDto[]> {
    const period = periodIndexAt(caller.resetAnchorAt, new Date());
    // This replica's own calls are counted in memory until the next flush; add them first.
    await this.meter.flush();
    const counts = await this.read(caller.accountId, period);
    return counts
      .map((c) => ({ endpoint: c.endpoint, calls: c.calls, credits: microToCredits(c.creditsMicro) }))
      .sort((a, b) => a.endpoint.localeCompare(b.endpoint));
  }

  /**
   * Totals + live delta + the claim in flight unless the totals already include its batch. The KV store is
   * read before PostgreSQL and its claim's batch id again after: a sync that claimed the live delta in
   * between (a new batch id) could have added to the totals what the first read also saw, so the read is
   * taken again. With the batch id unchanged the three parts never overlap.
   */
  private async read(accountId: string, period: number): Promise<UsageCount[]> {
    const keys = [BillingKeys.usage(accountId, period), BillingKeys.usageClaim(accountId, period)];
    for (let attempt = 1; ; attempt++) {
      const [liveFields, claimFields] = await this.kv.run(READ_METER_SCRIPT, keys, []);
      const durable = await this.usage.find(accountId, period);
      const [, claimAfter] = await this.kv.run(READ_METER_SCRIPT, keys, []);
      const claim = unflatten(claimFields);
      if (claim[CLAIM_BATCH] !== unflatten(claimAfter)[CLAIM_BATCH] && attempt < MAX_READ_ATTEMPTS) continue;
      const inFlight = claim[CLAIM_SYNCED] === '0' && claim[CLAIM_BATCH] !== durable.lastBatchId;
      return addCounts(
        accountId,
        period,
        durable.counts,
        parseUsageHash(accountId, period, unflatten(liveFields)),
        inFlight ? parseUsageHash(accountId, period, claim) : [],
      );
    }
  }
}
