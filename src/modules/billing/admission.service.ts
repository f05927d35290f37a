import { Inject, Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { randomBytes } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import { TurnBatcher, TurnBatcherLimits } from '../../common/async/turn-batcher';
import { within } from '../../common/async/within';
import { AppError } from '../../common/errors/app-error';
import { ErrorCode } from '../../common/errors/error-code';
import { HEADER } from '../../common/http/response-headers';
import { BoundedMap } from '../../common/memo/bounded-map';
import { AppConfig } from '../../config/app.config';
import { billingAdmissionsUnavailable } from '../../infra/metrics/metrics';
import { ApiCaller } from '../account/api-caller';
import { ADMISSION_RECORD_TTL_MS, VOID_RECORD_TTL_MS } from './admission-record';
import { AdmitReply, AdmitStatus } from './admission.scripts';
import { AdmitCall } from './admit-batch';
import { BillingKeys, WINDOW_MS } from './billing-keys';
import { CallSettlements } from './call-settlements';
import { EndpointName } from './credit-costs';
import { CreditPeriod, periodAt } from './credit-period';
import { CREDIT_STORE, CreditStore } from './credit-store';
import { creditsToMicro, MICRO_PER_CREDIT } from './credit-units';
import { isMetered, TIERS } from './tiers';
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
  /** Live balance after the hold, micro-credits; null for unmetered (Free) callers, or while a refund is pending. */
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

/**
 * On the postgres store a batch waits for its commit to reach the disk (the WAL flush, tens of ms on a
 * database busy writing): more batches in flight share those flushes (PostgreSQL commits them together),
 * where two at a time left the service waiting on the disk (docs/benchmarks.md, "Billing through faults").
 */
export const POSTGRES_ADMIT_BATCHING: TurnBatcherLimits = { maxBatch: 64, maxInFlight: 8 };

/** Accounts whose current period is held; as many as the key cache holds callers. */
const MAX_HELD_PERIODS = 50_000;
/** The first pause before a batch is sent again; each one after doubles, up to the admission timeout. */
const FIRST_RETRY_PAUSE_MS = 25;

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

/** The answer to a call the credits store could not admit in time: nothing was charged. */
function unavailable(): AppError {
  return new AppError(ErrorCode.SERVICE_UNAVAILABLE, 'billing: the credits store did not answer in time; nothing was charged, retry shortly', {
    [HEADER.retryAfter]: '1',
  });
}

/** A connection the store refused: the command or statement never reached it. */
function neverDelivered(error: unknown): boolean {
  return (error as { code?: unknown }).code === 'ECONNREFUSED';
}

/** Process-unique ids of admission batches: this process's random part and a counter. */
const PROCESS_PART = randomBytes(6).toString('base64url');
let batchCounter = 0;
const nextBatchId = () => `${PROCESS_PART}:${(batchCounter++).toString(36)}`;

/**
 * Rate limit and credit charge for one call in one round trip to the credits store (CREDIT_STORE),
 * shared with the other calls of its event-loop turn. A call that costs something is counted in /usage by
 * its ledger row; any other admitted call by the in-memory meter (UsageMeterService). A failed call is
 * settled by settleFailure, which gives the credits back and voids the charge.
 *
 * A batch whose reply is lost (the connection dropped, a command timed out) is sent again under the same
 * batch id until the store answers or ADMISSION_TIMEOUT_MS has passed: a second run answers what the first
 * did, so the calls go on as if nothing happened. Past the timeout its calls are answered 503 and the
 * batch is given up on (CallSettlements, until that lands): whatever it did is undone.
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
  private readonly batcher: TurnBatcher<AdmitCall, AdmitReply>;
  private readonly timeoutMs: number;
  /** A batch was given up on and nothing has been answered since: later batches get one try only. */
  private outage = false;
  /** The highest ledger sequence of a charge this replica admitted: /usage waits until PostgreSQL has it. */
  private highestSeq = 0;

  constructor(
    @Inject(CREDIT_STORE) private readonly store: CreditStore,
    private readonly usage: UsageMeterService,
    private readonly settlements: CallSettlements,
    config: ConfigService<AppConfig, true>,
  ) {
    this.timeoutMs = config.get('billing.admissionTimeoutMs', { infer: true });
    this.batcher = new TurnBatcher((calls) => this.admitBatch(calls), store.kind === 'postgres' ? POSTGRES_ADMIT_BATCHING : ADMIT_BATCHING);
    for (const [tier, policy] of Object.entries(TIERS)) {
      this.quotaMicro.set(tier, policy.monthlyCredits ? creditsToMicro(policy.monthlyCredits) : '0');
    }
  }

  get creditStore(): CreditStore['kind'] {
    return this.store.kind;
  }

  /** The ledger sequence of this replica's newest charge (0 before any). */
  get newestChargeSeq(): number {
    return this.highestSeq;
  }

  /**
   * `billable: false` (HEAD, and requests no route answers): the call counts in the key's window and is
   * told its balance, but takes no credits, writes no charge and is not counted in /usage. Its cost is
   * still checked, so a HEAD answers 403 where its GET would.
   * Rejects with 503 SERVICE_UNAVAILABLE when the credits store does not answer in time (nothing charged).
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
      billable,
    });
    if (status === AdmitStatus.UNAVAILABLE) throw unavailable();
    const day = this.days.of(nowMs);
    let decided: AdmitStatus = status;
    if (decided === AdmitStatus.ADMITTED) {
      // A charged call is counted in /usage by its ledger row (the drain, or billing_admit).
      if (billable && costMicro === 0) this.usage.count(caller.accountId, period.index, day, endpoint, 0);
      else if (!billable && metered && BigInt(balance) < BigInt(cost * MICRO_PER_CREDIT)) decided = AdmitStatus.INSUFFICIENT_CREDITS;
    }
    return {
      status: decided,
      limit,
      remaining: Math.max(0, limit - count),
      resetAt: (windowIndex + 1) * (WINDOW_MS / 1000),
      periodEndsAt: period.end,
      admission: {
        endpoint,
        costMicro,
        accountId: caller.accountId,
        period: period.index,
        day,
        chargedEpoch,
        chargedPeriod,
        balanceMicro: metered ? balance : null,
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
    const [status, count, balance] = await this.submit({
      caller,
      endpoint: '',
      costMicro: metered ? 0 : -1,
      requestId,
      nowMs,
      windowIndex,
      period,
      billable: false,
    });
    if (status === AdmitStatus.UNAVAILABLE) throw unavailable();
    return {
      status: status === AdmitStatus.RATE_LIMITED ? AdmitStatus.RATE_LIMITED : AdmitStatus.ADMITTED,
      limit,
      remaining: Math.max(0, limit - count),
      resetAt: (windowIndex + 1) * (WINDOW_MS / 1000),
      balanceMicro: metered ? balance : null,
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
    billable,
  }: {
    caller: ApiCaller;
    endpoint: string;
    /** -1 when the caller is not metered. */
    costMicro: number;
    requestId: string;
    nowMs: number;
    windowIndex: number;
    period: CreditPeriod;
    billable: boolean;
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
        billable,
      },
    });
  }

  /**
   * One batch, sent until the store answers (each run after the first answers what the first did) or the
   * admission timeout has passed; then it is given up on and every call of it rejects with 503. Once a
   * batch was given up on and until the store answers again, a batch gets one try, and none while the KV
   * connection is down: an outage answers at once instead of holding every call for the timeout.
   */
  private async admitBatch(calls: AdmitCall[]): Promise<AdmitReply[]> {
    const batchId = nextBatchId();
    const deadline = Date.now() + this.timeoutMs;
    const outage = this.outage;
    // Whether a try may have run: a command sent (or queued to be sent) and not answered. A batch no try
    // of which reached the store has nothing to give up.
    let mayHaveRun = false;
    for (let pause = FIRST_RETRY_PAUSE_MS; ; pause *= 2) {
      if (outage && !this.store.connected()) break;
      try {
        // Redis commands time out on their own; a PostgreSQL that accepts and never answers does not.
        const replies = await within(this.store.admit(batchId, calls), deadline - Date.now(), 'the credits store');
        if (replies) {
          this.outage = false;
          for (const reply of replies) if (reply[5] > this.highestSeq) this.highestSeq = reply[5];
          return replies;
        }
      } catch (error) {
        // Unknown whether it ran (unless the store refused the connection): only running it again, or giving it up, tells.
        if (!neverDelivered(error)) mayHaveRun = true;
      }
      if (outage || Date.now() + pause >= deadline) break;
      await delay(pause);
    }
    this.outage = true;
    billingAdmissionsUnavailable.inc(calls.length);
    if (mayHaveRun) {
      this.settlements.later({
        label: `give-up of admission batch ${batchId}`,
        run: () => this.store.abandon(batchId, calls),
        recordTtlMs: ADMISSION_RECORD_TTL_MS,
      });
    }
    throw unavailable();
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
   * answered. Runs at most once per call; a call that succeeded is never settled (its charge stands). When
   * the store does not answer, the void is retried in the background until it lands (CallSettlements) and
   * the answer carries no balance.
   */
  async settleFailure(admission: Admission, requestId: string): Promise<void> {
    if (admission.settled) return;
    admission.settled = true;
    if (admission.costMicro === 0) {
      this.usage.uncount(admission.accountId, admission.period, admission.day, admission.endpoint, 0);
      return;
    }
    const charged = {
      requestId,
      accountId: admission.accountId,
      endpoint: admission.endpoint,
      costMicro: admission.costMicro,
      epoch: admission.chargedEpoch,
      period: admission.chargedPeriod,
      nowMs: Date.now(),
    };
    const balance = await this.settlements.settle({
      label: `void of ${requestId}`,
      requestId,
      run: () => this.store.voidCall(charged),
      recordTtlMs: VOID_RECORD_TTL_MS,
    });
    admission.balanceMicro = balance === undefined || balance === '-1' ? null : balance;
  }
}
