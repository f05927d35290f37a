import { Injectable } from '@nestjs/common';
import { ApiCaller } from '../account/api-caller';
import { microToCredits, UsageTotalsService } from '../billing/billing.public';
import { UsageItemDto } from './dto/usage-item.dto';

/** /usage: billing's usage totals of the current period, in credits, by endpoint name. */
@Injectable()
export class UsageService {
  constructor(private readonly totals: UsageTotalsService) {}

  async currentPeriod(caller: ApiCaller): Promise<UsageItemDto[]> {
    const counts = await this.totals.currentPeriod(caller);
    return counts
      .map((c) => ({ endpoint: c.endpoint, calls: c.calls, credits: microToCredits(c.creditsMicro) }))
      .sort((a, b) => a.endpoint.localeCompare(b.endpoint));
  }
}
