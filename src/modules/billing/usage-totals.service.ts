import { Inject, Injectable } from '@nestjs/common';
import { KV_STORE, KvStore } from '../../infra/kv/kv-store';
import { ApiCaller } from '../account/api-caller';
import { AdmissionService } from './admission.service';
import { LedgerFlusherService } from './ledger-flusher.service';
import { periodIndexAt } from './credit-period';
import { CLAIM_BATCH, CLAIM_SYNCED, decodeUsageHash, hashOfReply, UsageCount, UsageMeterKeys } from './usage-meter.format';
import { UsageMeterService } from './usage-meter.service';
import { READ_METER_SCRIPT } from './usage-meter.scripts';
import { UsageRepository } from './usage.repository';

// A sync claims a meter once per run (seconds apart), so a second read almost never differs from the first.
const MAX_READ_ATTEMPTS = 5;
// How long /usage waits for this replica's charges to reach PostgreSQL before it answers without them.
const DRAIN_WAIT_MS = 1_000;

/**
 * What /usage reports: a caller's usage in its current period, durable totals and KV deltas together. The
 * totals hold every charged call whose ledger row is written (the row and its count commit together), and
 * the meters' deltas the calls that cost nothing.
 */
@Injectable()
export class UsageTotalsService {
  constructor(
    @Inject(KV_STORE) private readonly kv: KvStore,
    private readonly usage: UsageRepository,
    private readonly meter: UsageMeterService,
    private readonly admissions: AdmissionService,
    private readonly ledger: LedgerFlusherService,
  ) {}

  /** Endpoint by endpoint, those with any use; micro-credits as integer text. */
  async currentPeriod(caller: ApiCaller, now = new Date()): Promise<UsageCount[]> {
    const period = periodIndexAt(caller.resetAnchorAt, now);
    // This replica's own calls that cost nothing are counted in memory until the next flush; add them first.
    await this.meter.flush();
    // Its charged calls are counted by their ledger rows: on the redis store those wait in the outbox.
    if (this.admissions.creditStore === 'redis') await this.ledger.drainedThrough(this.admissions.newestChargeSeq, DRAIN_WAIT_MS);
    return this.read(caller.accountId, period);
  }

  /**
   * Totals + live delta + the claim in flight unless the totals already include its batch. The KV store is
   * read before PostgreSQL and its claim's batch id again after: a sync that claimed the live delta in
   * between (a new batch id) could have added to the totals what the first read also saw, so the read is
   * taken again. With the batch id unchanged the three parts never overlap.
   */
  private async read(accountId: string, period: number): Promise<UsageCount[]> {
    const keys = [UsageMeterKeys.live(accountId, period), UsageMeterKeys.claim(accountId, period)];
    for (let attempt = 1; ; attempt++) {
      const [liveFields, claimFields] = await this.kv.run(READ_METER_SCRIPT, keys, []);
      const durable = await this.usage.find(accountId, period);
      const [, claimAfter] = await this.kv.run(READ_METER_SCRIPT, keys, []);
      const claim = hashOfReply(claimFields);
      if (claim[CLAIM_BATCH] !== hashOfReply(claimAfter)[CLAIM_BATCH] && attempt < MAX_READ_ATTEMPTS) continue;
      const inFlight = claim[CLAIM_SYNCED] === '0' && claim[CLAIM_BATCH] !== durable.lastBatchId;
      return addCounts(
        accountId,
        period,
        durable.counts,
        decodeUsageHash(accountId, period, hashOfReply(liveFields)),
        inFlight ? decodeUsageHash(accountId, period, claim) : [],
      );
    }
  }
}

/** Sums counts endpoint by endpoint (micro-credits as integers, never floats) and keeps those with any use. */
function addCounts(accountId: string, period: number, ...lists: UsageCount[][]): UsageCount[] {
  const totals = new Map<string, { calls: number; creditsMicro: bigint }>();
  for (const list of lists) {
    for (const count of list) {
      const total = totals.get(count.endpoint) ?? { calls: 0, creditsMicro: 0n };
      total.calls += count.calls;
      total.creditsMicro += BigInt(count.creditsMicro);
      totals.set(count.endpoint, total);
    }
  }
  return [...totals]
    .filter(([, t]) => t.calls > 0 || t.creditsMicro !== 0n)
    .map(([endpoint, t]) => ({ accountId, period, endpoint, calls: t.calls, creditsMicro: t.creditsMicro.toString() }));
}
