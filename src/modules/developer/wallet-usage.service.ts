import { Injectable } from '@nestjs/common';
import { WalletPrincipal } from '../access/principal';
import { DailyUsage, microToCredits, UsageHistoryService } from '../billing/billing.public';
import { UsageDayDto, UsageHistoryDto } from './dto/usage-history.dto';

const DAY_MS = 86_400_000;

/** The wallet's calls and credits per UTC day and endpoint (what the portal charts), every day listed. */
@Injectable()
export class WalletUsageService {
  constructor(private readonly history: UsageHistoryService) {}

  async daily({ accountId }: WalletPrincipal, days: number, now = new Date()): Promise<UsageHistoryDto> {
    const rows = await this.history.daily(accountId, { days, now });
    const byDate = new Map<string, DailyUsage[]>();
    for (const row of rows) byDate.set(row.date, [...(byDate.get(row.date) ?? []), row]);
    const dates = Array.from({ length: days }, (_, index) => new Date(now.getTime() - (days - 1 - index) * DAY_MS).toISOString().slice(0, 10));
    return { from: dates[0], to: dates[days - 1], days: dates.map((date) => dayOf(date, byDate.get(date) ?? [])) };
  }
}

function dayOf(date: string, rows: DailyUsage[]): UsageDayDto {
  const micro = rows.reduce((sum, row) => sum + BigInt(row.creditsMicro), 0n);
  return {
    date,
    calls: rows.reduce((sum, row) => sum + row.calls, 0),
    credits: microToCredits(micro.toString()),
    endpoints: rows.map((row) => ({ endpoint: row.endpoint, calls: row.calls, credits: microToCredits(row.creditsMicro) })),
  };
}
