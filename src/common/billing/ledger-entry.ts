/**
 * A ledger entry as it travels through the KV store (holds, then the outbox) before it becomes a
 * credit_transactions row. One pipe-separated line, built the same way by the Lua scripts and their
 * JavaScript twins; amounts are integer micro-credits so Redis can do exact integer arithmetic.
 */
export interface LedgerEntry {
  type: 'charge' | 'period_reset';
  accountId: string;
  /** The request id for charges, `period:<n>` for resets. */
  referenceId: string;
  endpoint: string;
  amountMicro: string;
  balanceAfterMicro: string;
  epoch: number;
  period: number;
  seq: number;
  atMs: number;
}

export const LEDGER_FIELD_COUNT = 10;

export function formatLedgerEntry(e: LedgerEntry): string {
  return [e.type, e.accountId, e.referenceId, e.endpoint, e.amountMicro, e.balanceAfterMicro, e.epoch, e.period, e.seq, e.atMs].join('|');
}

export function parseLedgerEntry(line: string): LedgerEntry | null {
  const f = line.split('|');
  if (f.length !== LEDGER_FIELD_COUNT || (f[0] !== 'charge' && f[0] !== 'period_reset')) return null;
  return {
    type: f[0],
    accountId: f[1],
    referenceId: f[2],
    endpoint: f[3],
    amountMicro: f[4],
    balanceAfterMicro: f[5],
    epoch: Number(f[6]),
    period: Number(f[7]),
    seq: Number(f[8]),
    atMs: Number(f[9]),
  };
}
