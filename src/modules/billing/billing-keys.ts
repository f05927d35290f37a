/** Where the rate windows, live balances and the ledger outbox live in the KV store (usage meters: usage-meter.format.ts). */
export const BillingKeys = {
  window: (keyId: string, windowIndex: number) => `rl:${keyId}:${windowIndex}`,
  credits: (accountId: string) => `credits:${accountId}`,
  outbox: 'ledger:outbox',
  seq: 'ledger:seq',
  /** The highest ledger sequence known to be in PostgreSQL (outbox.scripts.ts). */
  drained: 'ledger:drained',
} as const;

export const WINDOW_MS = 60_000;
/** The window key outlives its minute a little so late INCRs never resurrect a fresh counter. */
export const WINDOW_KEY_TTL_MS = 65_000;
