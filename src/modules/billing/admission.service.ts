import { Inject, Injectable, Logger } from '@nestjs/common';
import { KV_STORE, KvStore } from '../../infra/kv/kv-store';
import { BoundedMap } from '../../common/memo/bounded-map';
import { isMetered, TIERS } from './tiers';
import { ApiCaller } from '../account/api-caller';
import { TurnBatcher, TurnBatcherLimits } from '../../common/async/turn-batcher';
import { AdmitReply, AdmitStatus, REFUND_SCRIPT } from './admission.scripts';
import { AdmitCall, admitBatch } from './admit-batch';
import { BillingKeys, WINDOW_MS } from './billing-keys';
import { EndpointName } from './credit-costs';
import { CreditPeriod, periodAt } from './credit-period';
import { creditsToMicro, MICRO_PER_CREDIT } from './credit-units';
import { UtcDayCache } from './usage-day';
import { UsageMeterService } from './usage-meter.service';

/** A call admitted and charged: what its success commits and its failure refunds. */
export interface Admission {
  endpoint: EndpointName;
  costMicro: number;
  accountId: string;
  /** Usage period of the call (the meter it counted in). */
  period: number;
  /** UTC day (YYYY-MM-DD) the call was admitted and counted on; a failure takes it back out of that day. */
  day: string;
  /** Credit epoch and period the charge was taken in; a refund returns credits only to that same balance. */
  chargedEpoch: number;
  chargedPeriod: number;
  /** Live balance after the hold, micro-credits; null for unmetered (Free) callers. */
  balanceMicro: string | null;
  settled: boolean;
}

/**
 * How admissions share script runs (TurnBatcher). A batch closes at the end of its event-loop turn, or
 * at 64 calls (a run of ~0.5 ms in Redis). Two runs at most await their answer: the calls of the turns
 * after that wait for one to land and then leave together. Measured on the billed route (50 connections,
 * docs/benchmarks.md): ~9.5 calls per run without the in-flight bound, ~16.5 with it; Redis then spent
 * ~8 µs per call instead of ~10.5, and the server writes half as often to it. One run in flight gave
 * bigger batches still (~18.5) but no less Redis CPU per call, and each run then waits for the one before.
 */
export const ADMIT_BATCHING: TurnBatcherLimits = { maxBatch: 64, maxInFlight: 2 };

/** Accounts whose current period is held; as many as the key cache holds callers. */
const MAX_HELD_PERIODS = 50_000;

interface HeldPeriod {
  anchorMs: number;
  startMs: number;
  endMs: number;
  period: CreditPeriod;
}

/** Where a call stands in its key's per-minute window. */
export interface WindowStanding {
  limit: number;
  remaining: number;
  /** Epoch seconds at which the next window opens. */
  resetAt: number;
}

export interface AdmissionResult extends WindowStanding {
  status: AdmitStatus;
  admission: Admission;
  periodEndsAt: Date;
}

/** admitUnrouted's answer: ADMITTED or RATE_LIMITED, and the live balance (null when not metered). */
export interface WindowResult extends WindowStanding {
  status: AdmitStatus;
  balanceMicro: string | null;
}

/**
 * Rate limit and credit charge for one call in one KV round trip, shared with the other calls of its
 * event-loop turn (its usage is counted in memory, see UsageMeterService). The charge goes straight to
 * the ledger outbox, so a successful call needs nothing more; a failed one is settled by settleFailure,
 * which gives the credits back and voids the charge.
 */
@Injectable()
export class AdmissionService {
  private readonly quotaMicro = new Map<string, string>();
  /**
   * The current credit period of each account, with the anchor it was worked out from: month arithmetic on
   * every call is measurable. By account rather than by caller object, which the key cache replaces on
   * every refresh (once a second for a key in use), so a cache by object missed on most calls of a key
   * called less than a few times a second.
   */
  private readonly periods = new BoundedMap<string, HeldPeriod>(MAX_HELD_PERIODS);
  private readonly days = new UtcDayCache();
  private readonly logger = new Logger(AdmissionService.name);
  private readonly batcher = new TurnBatcher<AdmitCall, AdmitReply>((calls) => admitBatch(this.kv, calls), ADMIT_BATCHING);

  constructor(
    @Inject(KV_STORE) private readonly kv: KvStore,
    private readonly usage: UsageMeterService,
  ) {
    for (const [tier, policy] of Object.entries(TIERS)) {
      this.quotaMicro.set(tier, policy.monthlyCredits ? creditsToMicro(policy.monthlyCredits) : '0');
    }
  }

  /**
   * `billable: false` (HEAD, and requests no route answers): the call counts in the key's window and is
   * told its balance, but takes no credits, writes no charge and is not counted in /usage. Its cost is
   * still checked, so a HEAD answers 403 where its GET would.
   */
  async admit({
    caller,
    endpoint,
    cost,
    requestId,
    nowMs = Date.now(),
    billable = true,
  }: {
    caller: ApiCaller;
    endpoint: EndpointName;
    cost: number;
    requestId: string;
    nowMs?: number;
    billable?: boolean;
  }): Promise<AdmissionResult> {
    const windowIndex = Math.floor(nowMs / WINDOW_MS);
    const period = this.periodOf(caller, nowMs);
    const metered = isMetered(caller.tier);
    const costMicro = metered && billable ? cost * MICRO_PER_CREDIT : 0;
    const limit = TIERS[caller.tier].rpm;
    const [status, count, balance, chargedEpoch, chargedPeriod] = await this.submit({
      caller,
      endpoint,
      costMicro: metered ? costMicro : -1,
      requestId,
      nowMs,
      windowIndex,
      period,
    });
    const day = this.days.of(nowMs);
    let decided: AdmitStatus = Number(status);
    if (decided === AdmitStatus.ADMITTED) {
      if (billable) this.usage.count(caller.accountId, period.index, day, endpoint, costMicro);
      else if (metered && BigInt(String(balance)) < BigInt(cost * MICRO_PER_CREDIT)) decided = AdmitStatus.INSUFFICIENT_CREDITS;
    }
    return {
      status: decided,
      limit,
      remaining: Math.max(0, limit - Number(count)),
      resetAt: (windowIndex + 1) * (WINDOW_MS / 1000),
      periodEndsAt: period.end,
      admission: {
        endpoint,
        costMicro,
        accountId: caller.accountId,
        period: period.index,
        day,
        chargedEpoch: Number(chargedEpoch),
        chargedPeriod: Number(chargedPeriod),
        balanceMicro: metered ? String(balance) : null,
        // Nothing to give back on failure: an unbilled call took no credits and was never counted.
        settled: !billable,
      },
    };
  }

  /**
   * For a request of a known key that no route answers (an unknown path, a method no route takes, a body
   * refused before routing): it counts in the key's window and learns its balance; nothing is charged or
   * counted in /usage. Over the cap it is RATE_LIMITED, as a routed call would be.
   */
  async admitUnrouted({ caller, requestId, nowMs = Date.now() }: { caller: ApiCaller; requestId: string; nowMs?: number }): Promise<WindowResult> {
    const windowIndex = Math.floor(nowMs / WINDOW_MS);
    const metered = isMetered(caller.tier);
    const limit = TIERS[caller.tier].rpm;
    const period = this.periodOf(caller, nowMs);
    const [status, count, balance] = await this.submit({ caller, endpoint: '', costMicro: metered ? 0 : -1, requestId, nowMs, windowIndex, period });
    return {
      status: Number(status) === AdmitStatus.RATE_LIMITED ? AdmitStatus.RATE_LIMITED : AdmitStatus.ADMITTED,
      limit,
      remaining: Math.max(0, limit - Number(count)),
      resetAt: (windowIndex + 1) * (WINDOW_MS / 1000),
      balanceMicro: metered ? String(balance) : null,
    };
  }

  private submit({
    caller,
    endpoint,
    costMicro,
    requestId,
    nowMs,
    windowIndex,
    period,
  }: {
    caller: ApiCaller;
    endpoint: string;
    /** -1 when the caller is not metered. */
    costMicro: number;
    requestId: string;
    nowMs: number;
    windowIndex: number;
    period: CreditPeriod;
  }): Promise<AdmitReply> {
    return this.batcher.submit({
      window: BillingKeys.window(caller.keyId, windowIndex),
      credits: BillingKeys.credits(caller.accountId),
      params: {
        cap: TIERS[caller.tier].rpm,
        costMicro,
        seedMicro: caller.creditSeedMicro,
        epoch: caller.creditEpoch,
        seedPeriod: caller.creditPeriod,
        period: period.index,
        quotaMicro: this.quotaMicro.get(caller.tier)!,
        requestId,
        accountId: caller.accountId,
        endpoint,
        nowMs,
      },
    });
  }

  private periodOf(caller: ApiCaller, nowMs: number): CreditPeriod {
    const anchorMs = caller.resetAnchorAt.getTime();
    let held = this.periods.get(caller.accountId);
    if (!held || held.anchorMs !== anchorMs || nowMs < held.startMs || nowMs >= held.endMs) {
      const period = periodAt(caller.resetAnchorAt, new Date(nowMs));
      held = this.periods.set(caller.accountId, { anchorMs, startMs: period.start.getTime(), endMs: period.end.getTime(), period });
    }
    return held.period;
  }

  /**
   * The call failed: take back its usage, give back its credits and void its charge before the error is
   * answered. Runs at most once per call; a call that succeeded is never settled (its charge stands).
   */
  async settleFailure(admission: Admission, requestId: string): Promise<void> {
    if (admission.settled) return;
    admission.settled = true;
    if (admission.costMicro === 0) {
      this.usage.uncount(admission.accountId, admission.period, admission.day, admission.endpoint, 0);
      return;
    }
    try {
      const balance = await this.kv.run(
        REFUND_SCRIPT,
        [BillingKeys.credits(admission.accountId), BillingKeys.seq, BillingKeys.outbox],
        [requestId, admission.accountId, admission.endpoint, admission.costMicro, admission.chargedEpoch, admission.chargedPeriod, Date.now()],
      );
      if (balance !== '-1') admission.balanceMicro = String(balance);
      // Only once the charge is voided: a call whose refund failed stays billed, and stays in the usage.
      this.usage.uncount(admission.accountId, admission.period, admission.day, admission.endpoint, admission.costMicro);
    } catch (error) {
      // The caller still gets its error; the charge stands in the ledger (and in the usage), so say so loudly.
      this.logger.error(`refund of ${requestId} failed: ${(error as Error).message}`);
    }
  }
}
