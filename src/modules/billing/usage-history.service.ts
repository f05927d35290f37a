import { Inject, Injectable } from '@nestjs/common';
import { AppError } from '../../common/errors/app-error';
import { KV_STORE, KvStore } from '../../infra/kv/kv-store';
import { periodIndexAt } from './credit-period';
import { addDays, dayStartMs, utcDayOf } from './usage-day';
import { CLAIM_BATCH, CLAIM_SYNCED, decodeUsageHash, DailyUsageCount, hashOfReply, UsageMeterKeys } from './usage-meter.format';
import { UsageMeterService } from './usage-meter.service';
import { READ_METER_SCRIPT } from './usage-meter.scripts';
import { UsageRepository } from './usage.repository';

/** The longest history UsageHistoryService.daily reads, in days. */
export const USAGE_HISTORY_MAX_DAYS = 90;

// As in UsageTotalsService: a sync claims a meter once per run, so a second read almost never differs.
const MAX_READ_ATTEMPTS = 5;

/** One endpoint's use on one UTC day. */
export interface DailyUsage {
  /** YYYY-MM-DD, UTC: the day the calls were admitted on. */
  date: string;
  /** The credit-table name (credit-costs.ts), as /usage reports it. */
  endpoint: string;
  calls: number;
  /** Integer micro-credits as text (microToCredits turns it into credits). */
  creditsMicro: string;
}

/** Usage by UTC day: the durable daily counts plus what the KV meters hold that PostgreSQL does not have yet. */
@Injectable()
export class UsageHistoryService {
  constructor(
    @Inject(KV_STORE) private readonly kv: KvStore,
    private readonly usage: UsageRepository,
    private readonly meter: UsageMeterService,
  ) {}

  /**
   * An account's usage per UTC day and endpoint for the `days` days that end with the day of `now`
   * (today - days + 1 .. today), across credit periods. Only days and endpoints with any use are listed
   * (calls > 0 or credits other than 0); the caller fills the empty days. Sorted by date, then endpoint.
   * Includes this replica's calls not yet flushed, the KV deltas not yet synced and a sync in flight, as
   * /usage does; calls served by other replicas appear within one flush interval. Counts the KV store
   * holds without a day (written by versions that kept none) are listed on today, the day a sync adds
   * them on. An unknown account has no usage.
   * @throws AppError VALIDATION_ERROR when `days` is not an integer from 1 to USAGE_HISTORY_MAX_DAYS.
   */
  async daily(accountId: string, { days, now = new Date() }: { days: number; now?: Date }): Promise<DailyUsage[]> {
    if (!Number.isInteger(days) || days < 1 || days > USAGE_HISTORY_MAX_DAYS) {
      throw AppError.validation('days', `must be an integer from 1 to ${USAGE_HISTORY_MAX_DAYS}`);
    }
    const anchor = await this.usage.resetAnchorOf(accountId);
    if (!anchor) return [];
    const to = utcDayOf(now.getTime());
    const from = addDays(to, 1 - days);
    // Every meter a call of those days can be in: the periods from the first day's start to now.
    const firstPeriod = periodIndexAt(anchor, new Date(dayStartMs(from)));
    const lastPeriod = Math.max(firstPeriod, periodIndexAt(anchor, now));
    await this.meter.flush();
    return this.read(accountId, { from, to, firstPeriod, lastPeriod });
  }

  /**
   * The same three parts as UsageTotalsService.read, per meter: the KV store before PostgreSQL, then the
   * claims' batch ids again, and a second read if any meter's claim changed in between.
   */
  private async read(accountId: string, range: { from: string; to: string; firstPeriod: number; lastPeriod: number }): Promise<DailyUsage[]> {
    const periods = Array.from({ length: range.lastPeriod - range.firstPeriod + 1 }, (_, i) => range.firstPeriod + i);
    const readMeters = () =>
      Promise.all(periods.map((p) => this.kv.run(READ_METER_SCRIPT, [UsageMeterKeys.live(accountId, p), UsageMeterKeys.claim(accountId, p)], [])));
    for (let attempt = 1; ; attempt++) {
      const meters = await readMeters();
      const durable = await this.usage.findDaily(accountId, range);
      const after = await readMeters();
      const claims = meters.map(([, claimFields]) => hashOfReply(claimFields));
      if (claims.some((claim, i) => claim[CLAIM_BATCH] !== hashOfReply(after[i][1])[CLAIM_BATCH]) && attempt < MAX_READ_ATTEMPTS) continue;
      const pending: DailyUsageCount[] = [];
      periods.forEach((period, i) => {
        pending.push(...decodeUsageHash(accountId, period, hashOfReply(meters[i][0])));
        const claim = claims[i];
        if (claim[CLAIM_SYNCED] === '0' && claim[CLAIM_BATCH] !== durable.lastBatchIds.get(period)) pending.push(...decodeUsageHash(accountId, period, claim));
      });
      return sumByDay(range, [...durable.counts, ...pending.map((c) => ({ ...c, day: c.day ?? range.to }))]);
    }
  }
}

/** Sums counts by day and endpoint (micro-credits as integers, never floats), in the range and with any use. */
function sumByDay(
  { from, to }: { from: string; to: string },
  counts: Array<{ day: string; endpoint: string; calls: number; creditsMicro: string }>,
): DailyUsage[] {
  const totals = new Map<string, DailyUsage & { micro: bigint }>();
  for (const count of counts) {
    if (count.day < from || count.day > to) continue;
    const key = `${count.day} ${count.endpoint}`;
    let total = totals.get(key);
    if (!total) {
      total = { date: count.day, endpoint: count.endpoint, calls: 0, creditsMicro: '0', micro: 0n };
      totals.set(key, total);
    }
    total.calls += count.calls;
    total.micro += BigInt(count.creditsMicro);
  }
  return [...totals.values()]
    .filter((t) => t.calls > 0 || t.micro !== 0n)
    .sort((a, b) => (a.date === b.date ? compare(a.endpoint, b.endpoint) : compare(a.date, b.date)))
    .map(({ date, endpoint, calls, micro }) => ({ date, endpoint, calls, creditsMicro: micro.toString() }));
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
