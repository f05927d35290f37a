import { KvStore } from '../../infra/kv/kv-store';
import { ADMISSION_RECORD_TTL_MS, AdmissionRecordKeys, VOID_RECORD_TTL_MS } from './admission-record';
import { READ_BALANCE_SCRIPT } from './admission.scripts';
import { AdmitCall, admitBatch, SeedReader } from './admit-batch';
import { BillingKeys } from './billing-keys';
import { BalanceQuery, ChargedCall, CreditStore } from './credit-store';
import { ABANDON_SCRIPT, VOID_SCRIPT } from './settlement.scripts';

/** CreditStore `redis`: the admission scripts, their live balances and the ledger outbox, all in the KV store. */
export class RedisCreditStore implements CreditStore {
  readonly kind = 'redis' as const;

  constructor(
    private readonly kv: KvStore,
    private readonly seeds: SeedReader,
  ) {}

  connected(): boolean {
    return this.kv.isConnected();
  }

  admit(batchId: string, calls: readonly AdmitCall[]) {
    return admitBatch(this.kv, batchId, calls, this.seeds);
  }

  voidCall(c: ChargedCall): Promise<string> {
    return this.kv.run(
      VOID_SCRIPT,
      [BillingKeys.credits(c.accountId), BillingKeys.seq, BillingKeys.outbox, AdmissionRecordKeys.void(c.requestId)],
      [c.requestId, c.accountId, c.endpoint, c.costMicro, c.epoch, c.period, c.nowMs, VOID_RECORD_TTL_MS],
    );
  }

  abandon(batchId: string, calls: readonly AdmitCall[]): Promise<number> {
    const keys = [AdmissionRecordKeys.batch(batchId), BillingKeys.seq, BillingKeys.outbox];
    const args: Array<string | number> = [ADMISSION_RECORD_TTL_MS, VOID_RECORD_TTL_MS, Date.now()];
    calls.forEach(({ credits, params: p }, i) => {
      keys.push(credits, AdmissionRecordKeys.void(p.requestId), AdmissionRecordKeys.call(batchId, i));
      args.push(p.requestId, p.accountId, p.endpoint, Math.max(0, p.costMicro), p.epoch, p.period);
    });
    return this.kv.run(ABANDON_SCRIPT, keys, args);
  }

  readBalance(q: BalanceQuery): Promise<string> {
    return this.kv.run(READ_BALANCE_SCRIPT, [BillingKeys.credits(q.accountId)], [q.epoch, q.seedMicro, q.seedPeriod, q.period, q.quotaMicro]);
  }
}
