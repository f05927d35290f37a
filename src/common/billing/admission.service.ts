import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { AppConfig } from '../../config/app.config';
import { KV_STORE, KvStore } from '../../infra/kv/kv-store';
import { isMetered, TIERS } from '../../modules/account/tiers';
import { ApiCaller } from '../auth/api-caller';
import { Admission } from '../http/request-state';
import { ADMIT_SCRIPT, AdmitStatus, COMMIT_HOLDS_SCRIPT, REFUND_SCRIPT } from './admission.scripts';
import { BillingKeys, USAGE_KEY_TTL_MS, WINDOW_KEY_TTL_MS, WINDOW_MS } from './billing-keys';
import { EndpointName } from './credit-costs';
import { periodAt } from './credit-period';
import { creditsToMicro, MICRO_PER_CREDIT } from './credit-units';

export interface AdmissionResult {
  status: AdmitStatus;
  limit: number;
  remaining: number;
  /** Epoch seconds at which the next window opens. */
  resetAt: number;
  admission: Admission;
  periodEndsAt: Date;
}

const COMMIT_BATCH_MAX = 500;

/**
 * Rate limit, credit hold and usage meter for one call in one KV round trip; settles the hold after the
 * handler: success queues it for a batched commit to the ledger outbox, failure refunds it at once.
 */
@Injectable()
export class AdmissionService implements OnModuleInit, BeforeApplicationShutdown, OnApplicationShutdown {
  private readonly logger = new Logger(AdmissionService.name);
  private readonly quotaMicro = new Map<string, string>();
  private pendingCommits: string[] = [];
  private commitTimer?: NodeJS.Timeout;
  private committing: Promise<void> = Promise.resolve();

  constructor(
    @Inject(KV_STORE) private readonly kv: KvStore,
    private readonly config: ConfigService<AppConfig, true>,
  ) {
    for (const [tier, policy] of Object.entries(TIERS)) {
      this.quotaMicro.set(tier, policy.monthlyCredits ? creditsToMicro(policy.monthlyCredits) : '0');
    }
  }

  onModuleInit() {
    const interval = this.config.get('ledger.commitIntervalMs', { infer: true });
    this.commitTimer = setInterval(() => void this.commitPending(), interval);
    this.commitTimer.unref();
  }

  /** While the KV store and the database are still open (they close in onApplicationShutdown). */
  async beforeApplicationShutdown() {
    clearInterval(this.commitTimer);
    await this.commitPending();
  }

  /** Calls that finished while the HTTP server was closing; a hold that misses this is swept as an orphan. */
  async onApplicationShutdown() {
    await this.commitPending().catch(() => undefined);
  }

  async admit({ caller, endpoint, cost, requestId, nowMs = Date.now() }: {
    caller: ApiCaller;
    endpoint: EndpointName;
    cost: number;
    requestId: string;
    nowMs?: number;
  }): Promise<AdmissionResult> {
    const windowIndex = Math.floor(nowMs / WINDOW_MS);
    const period = periodAt(caller.resetAnchorAt, new Date(nowMs));
    const metered = isMetered(caller.tier);
    const costMicro = metered ? cost * MICRO_PER_CREDIT : 0;
    const limit = TIERS[caller.tier].rpm;
    const [status, count, balance] = await this.kv.run(
      ADMIT_SCRIPT,
      [
        BillingKeys.window(caller.keyId, windowIndex),
        BillingKeys.credits(caller.accountId),
        BillingKeys.holds,
        BillingKeys.usage(caller.accountId, period.index),
        BillingKeys.seq,
        BillingKeys.outbox,
        BillingKeys.usageDirty,
      ],
      [
        limit,
        WINDOW_KEY_TTL_MS,
        metered ? 1 : 0,
        costMicro,
        caller.creditSeedMicro,
        caller.creditEpoch,
        caller.creditPeriod,
        period.index,
        this.quotaMicro.get(caller.tier)!,
        requestId,
        caller.accountId,
        endpoint,
        nowMs,
        USAGE_KEY_TTL_MS,
        BillingKeys.usageMember(caller.accountId, period.index),
      ],
    );
    return {
      status: Number(status),
      limit,
      remaining: Math.max(0, limit - Number(count)),
      resetAt: (windowIndex + 1) * (WINDOW_MS / 1000),
      periodEndsAt: period.end,
      admission: {
        endpoint,
        costMicro,
        metered,
        accountId: caller.accountId,
        period: period.index,
        balanceMicro: metered ? String(balance) : null,
        settled: false,
      },
    };
  }

  /** The call succeeded: its hold joins the next batched commit (nothing to do for unmetered calls). */
  settleSuccess(admission: Admission, requestId: string): void {
    if (admission.settled) return;
    admission.settled = true;
    if (admission.costMicro === 0) return;
    this.pendingCommits.push(requestId);
    if (this.pendingCommits.length >= COMMIT_BATCH_MAX) void this.commitPending();
  }

  /** The call failed: take back its usage and give back its credits before the error is answered. */
  async settleFailure(admission: Admission, requestId: string): Promise<void> {
    if (admission.settled) return;
    admission.settled = true;
    try {
      const balance = await this.kv.run(
        REFUND_SCRIPT,
        [
          BillingKeys.credits(admission.accountId),
          BillingKeys.holds,
          BillingKeys.usage(admission.accountId, admission.period),
          BillingKeys.usageDirty,
        ],
        [requestId, admission.endpoint, BillingKeys.usageMember(admission.accountId, admission.period)],
      );
      if (admission.metered && balance !== '-1') admission.balanceMicro = String(balance);
    } catch (error) {
      // The caller still gets its error; an unrefunded hold would be charged by the orphan sweep, so say so loudly.
      this.logger.error(`refund of ${requestId} failed: ${(error as Error).message}`);
    }
  }

  /** Moves queued holds to the ledger outbox; serialised so a shutdown waits for the batch in flight. */
  commitPending(): Promise<void> {
    this.committing = this.committing.then(async () => {
      while (this.pendingCommits.length > 0) {
        const batch = this.pendingCommits.splice(0, COMMIT_BATCH_MAX);
        try {
          await this.kv.run(COMMIT_HOLDS_SCRIPT, [BillingKeys.holds, BillingKeys.outbox], batch);
        } catch (error) {
          // Left as holds, they are charged by the orphan sweep; nothing is lost.
          this.logger.error(`committing ${batch.length} holds failed: ${(error as Error).message}`);
          return;
        }
      }
    });
    return this.committing;
  }
}
