import { LedgerEntry } from '../../src/modules/billing/ledger-entry';

/**
 * An outbox line as the admission scripts write it, for tests that feed the ledger without running them.
 * kv-scripts.int-spec.ts checks it against every kind of line the scripts write, so it cannot drift.
 */
export function ledgerLine(e: LedgerEntry): string {
  return [e.type, e.accountId, e.referenceId, e.endpoint, e.amountMicro, e.balanceAfterMicro, e.epoch, e.period, e.seq, e.atMs].join('|');
}
