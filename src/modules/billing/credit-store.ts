import { AdmitCall } from './admit-batch';
import { AdmitReply } from './admission.scripts';

/** Injection token of the CreditStore the service runs on (chosen at start by CREDITS_STORE). */
export const CREDIT_STORE = Symbol('CREDIT_STORE');

/**
 * redis: live balances in Redis, each charge appended to the KV ledger outbox in the step that takes it,
 * drained into PostgreSQL every second; it needs a Redis that keeps its data (an append-only file).
 * postgres: balances and charges in PostgreSQL, written before a call is answered; Redis (or the
 * in-process store) keeps only rate-limit windows and the like, so nothing it loses moves money.
 */
export type CreditStoreKind = 'redis' | 'postgres';

/** A call that was charged and then failed: what its void needs. */
export interface ChargedCall {
  requestId: string;
  accountId: string;
  endpoint: string;
  costMicro: number;
  /** Credit epoch and period the charge was taken in. */
  epoch: number;
  period: number;
  nowMs: number;
}

/**
 * Where admissions are decided and charges kept. Every method is safe to call again with the same
 * arguments after a failure whose outcome is unknown: it then answers what the first run did.
 */
export interface CreditStore {
  readonly kind: CreditStoreKind;
  /** False while the KV connection is down (an admission would only wait for it). */
  connected(): boolean;
  /** Windows and charges of a batch of calls, in order; null when the batch was given up on (abandon). */
  admit(batchId: string, calls: readonly AdmitCall[]): Promise<AdmitReply[] | null>;
  /** Takes back the charge of a call that failed; the live balance afterwards in micro-credits, '-1' when none. */
  voidCall(call: ChargedCall): Promise<string>;
  /** Gives up on a batch that got no reply: a run still on its way admits nothing, and what a run did is voided (how many). */
  abandon(batchId: string, calls: readonly AdmitCall[]): Promise<number>;
  /** The balance a call admitted now would start from (micro-credits), without admitting one. */
  readBalance(params: BalanceQuery): Promise<string>;
}

/** ADMIT_SCRIPT's seed and period arguments, for a balance read without an admission. */
export interface BalanceQuery {
  accountId: string;
  seedMicro: string;
  epoch: number;
  seedPeriod: number;
  period: number;
  quotaMicro: string;
}
