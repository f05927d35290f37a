import { Inject, Injectable } from '@nestjs/common';
import { BillingKeys } from '../../common/billing/billing-keys';
import { periodIndexAt } from '../../common/billing/credit-period';
import { microToCredits } from '../../common/billing/credit-units';
import { UsageMeterService } from '../../common/billing/usage-meter.service';
import { ApiCaller } from '../../common/auth/api-caller';
import { KV_STORE, KvStore } from '../../infra/kv/kv-store';
import { UsageItemDto } from './dto/usage-item.dto';
import { parseUsageHash } from './usage-meter';
import { UsageRepository } from './usage.repository';

@Injectable()
export class UsageService {
  constructor(
    @Inject(KV_STORE) private readonly kv: KvStore,
    private readonly usage: UsageRepository,
    private readonly meter: UsageMeterService,
  ) {}

  /** The live meters of the current period; the durable copy answers if the KV store lost them. */
  async currentPeriod(caller: ApiCaller): Promise<UsageItemDto[]> {
    const period = periodIndexAt(caller.resetAnchorAt, new Date());
    // This replica's own calls are counted in memory until the next flush; add them first.
    await this.meter.flush();
    const hash = await this.kv.hgetall(BillingKeys.usage(caller.accountId, period));
    const live = parseUsageHash(caller.accountId, period, hash);
    const counts = live.length > 0 ? live : await this.usage.find(caller.accountId, period);
    return counts
      .map((c) => ({ endpoint: c.endpoint, calls: c.calls, credits: microToCredits(c.creditsMicro) }))
      .sort((a, b) => a.endpoint.localeCompare(b.endpoint));
  }
}
