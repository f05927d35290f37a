/**
 * A ledger entry as it travels through the KV outbox before it becomes (or, for a void, cancels) a
 * credit_transactions row. One pipe-separated line of these fields in this order, written only by the
 * admission scripts (Lua and their JavaScript twins); amounts are integer micro-credits so Redis can do
 * exact integer arithmetic.
 */
export interface LedgerEntry {
  /** charge: an admitted call; void: that call failed and its charge is cancelled; period_reset: a new month. */
  type: 'charge' | 'void' | 'period_reset';
  accountId: string;
  /**
   * The request id (a UUID) for charges and voids, `<account>:e<epoch>:p<period>` for resets (the ledger
   * row's reference is then that text's UUID in LEDGER_REFERENCE_NAMESPACE).
   */
  referenceId: string;
  endpoint: string;
  amountMicro: string;
  /** The live balance after this entry; '-1' when a void found no balance to return the credits to. */
  balanceAfterMicro: string;
  epoch: number;
  period: number;
  seq: number;
  atMs: number;
}

export const LEDGER_FIELD_COUNT = 10;

/**
 * The namespace of the name-based UUIDs (version 3) that stand for a period reset's reference text in
 * credit_transactions.reference_id (SQL function ledger_reference_uuid, migration 1764300000000).
 */
export const LEDGER_REFERENCE_NAMESPACE = '4f3b4397-13b3-4189-8c7f-e91df7f1ce52';

const TYPES: ReadonlySet<string> = new Set(['charge', 'void', 'period_reset']);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const INTEGER = /^-?\d+$/;

/** The entry of a well-formed line, or null: the same rule LedgerRepository applies to a batch it cannot cast. */
export function parseLedgerEntry(line: string): LedgerEntry | null {
  const f = line.split('|');
  if (f.length !== LEDGER_FIELD_COUNT || !TYPES.has(f[0]) || !UUID.test(f[1]) || f[2] === '') return null;
  // Charges and voids name their call by its request id, which the ledger stores as a uuid.
  if (f[0] !== 'period_reset' && !UUID.test(f[2])) return null;
  if (!f.slice(4).every((field) => INTEGER.test(field))) return null;
  return {
    type: f[0] as LedgerEntry['type'],
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

/**
 * Outbox lines as the drainer holds them while PostgreSQL writes them: one joined text, not thousands
 * of line strings. Kept as an array across the database round trip, the ~5,000 strings of a batch
 * outlived every young-generation collection in between, each of which copied them, and were then
 * promoted to the old generation. The drain cost the serving process ~1.2 µs of garbage collection per
 * billed request; joined at once, the lines die young, and 0.7 µs of it is gone (docs/benchmarks.md).
 */
export class OutboxBatch {
  private constructor(
    /** The lines joined with '\n' (no line holds one: every field is minted by the service). */
    readonly text: string,
    readonly count: number,
    /** First and last line, to trim exactly this batch off the outbox head. */
    readonly first: string,
    readonly last: string,
  ) {}

  static of(lines: string[]): OutboxBatch {
    return new OutboxBatch(lines.join('\n'), lines.length, lines[0] ?? '', lines[lines.length - 1] ?? '');
  }

  get hasVoid(): boolean {
    return this.text.startsWith('void|') || this.text.includes('\nvoid|');
  }

  /** The lines again, for the rare batch that has to be filtered line by line. */
  lines(): string[] {
    return this.count === 0 ? [] : this.text.split('\n');
  }
}
