import { KvStore } from '../../infra/kv/kv-store';
import { AccountCreditsRepository, PostgresAdmission } from './account-credits.repository';
import { ADMISSION_RECORD_TTL_MS, AdmissionRecordKeys } from './admission-record';
import { AdmitReply, AdmitStatus } from './admission.scripts';
import { AdmitCall, admitBatch } from './admit-batch';
import { BillingKeys } from './billing-keys';
import { BalanceQuery, ChargedCall, CreditStore } from './credit-store';
import { ABANDON_SCRIPT } from './settlement.scripts';

const noSeeds = () => Promise.reject(new Error('a window-only admission never seeds a balance'));

/**
 * CreditStore `postgres`: the KV store counts the calls in their windows (the admission script for
 * callers that are not metered, so it never charges), then PostgreSQL decides and writes the charges of
 * the admitted metered calls in one statement (billing_admit), before any of them is answered. A batch
 * sent again after a lost reply finds its windows' record in the KV store and its charges by request id
 * in the ledger, so it is counted and charged once.
 */
export class PostgresCreditStore implements CreditStore {
  readonly kind = 'postgres' as const;

  /**
   * `lockTimeoutMs`: how long billing_admit may wait for its accounts' locks, below the admission's
   * deadline, so that no batch charges after its calls were answered 503.
   */
  constructor(
    private readonly kv: KvStore,
    private readonly credits: AccountCreditsRepository,
    private readonly lockTimeoutMs: number,
  ) {}

  connected(): boolean {
    return this.kv.isConnected();
  }

  async admit(batchId: string, calls: readonly AdmitCall[]): Promise<AdmitReply[] | null> {
    const windows = await admitBatch(this.kv, batchId, calls.map(windowOnly), noSeeds);
    if (!windows) return null;
    const asked: PostgresAdmission[] = [];
    const askedFor: number[] = [];
    calls.forEach(({ params: p }, i) => {
      if (p.costMicro < 0) return;
      const charge = windows[i][0] === AdmitStatus.ADMITTED && p.billable && p.costMicro > 0;
      asked.push({
        accountId: p.accountId,
        requestId: p.requestId,
        endpoint: p.endpoint,
        costMicro: p.costMicro,
        charge,
        epoch: p.epoch,
        period: p.period,
        quotaMicro: p.quotaMicro,
      });
      askedFor.push(i);
    });
    const replies = windows.map((w): AdmitReply => [...w]);
    if (asked.length === 0) return replies;
    const answers = await this.credits.admitInPostgres(asked, { atMs: calls[0].params.nowMs, lockTimeoutMs: this.lockTimeoutMs });
    answers.forEach((a, j) => {
      const reply = replies[askedFor[j]];
      // A call over its window stays RATE_LIMITED: it only read its balance.
      if (reply[0] === AdmitStatus.ADMITTED) reply[0] = a.status;
      reply[2] = a.balanceMicro;
      reply[3] = a.epoch;
      reply[4] = a.period;
      reply[5] = a.seq;
    });
    return replies;
  }

  voidCall(c: ChargedCall): Promise<string> {
    return this.credits.voidInPostgres(c);
  }

  async abandon(batchId: string, calls: readonly AdmitCall[]): Promise<number> {
    // The windows' record: a late run counts nothing. Nothing there was charged, so nothing is voided there.
    await this.kv.run(ABANDON_SCRIPT, [AdmissionRecordKeys.batch(batchId), BillingKeys.seq, BillingKeys.outbox], [ADMISSION_RECORD_TTL_MS, 0, Date.now()]);
    // billing_void finds no row for a call billing_admit never charged, and leaves a mark a late one obeys.
    let voided = 0;
    for (const { params: p } of calls) {
      if (p.costMicro <= 0 || !p.billable) continue;
      await this.credits.voidInPostgres({ accountId: p.accountId, requestId: p.requestId, period: p.period, abandon: true });
      voided += 1;
    }
    return voided;
  }

  async readBalance(q: BalanceQuery): Promise<string> {
    const [answer] = await this.credits.admitInPostgres(
      [{ accountId: q.accountId, requestId: ZERO_UUID, endpoint: '', costMicro: 0, charge: false, epoch: q.epoch, period: q.period, quotaMicro: q.quotaMicro }],
      { atMs: Date.now(), lockTimeoutMs: this.lockTimeoutMs },
    );
    return answer.balanceMicro;
  }
}

const ZERO_UUID = '00000000-0000-0000-0000-000000000000';

/** The call as the KV store sees it here: a window to count, never a charge. */
function windowOnly(call: AdmitCall): AdmitCall {
  return { ...call, params: { ...call.params, costMicro: -1 } };
}
