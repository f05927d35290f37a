/** Where the rate windows, live balances and the ledger outbox live in the KV store (usage meters: usage-meter.format.ts). */
export const BillingKeys = {
  window: (keyId: string, windowIndex: number) => `rl:${keyId}:${windowIndex}`,
  credits: (accountId: string) => `credits:${accountId}`,
  outbox: 'ledger:outbox',
  seq: 'ledger:seq',
} as const;

export const WINDOW_MS = 60_000;
/** The window key outlives its minute a little so late INCRs never resurrect a fresh counter. */
export const WINDOW_KEY_TTL_MS = 65_000;
