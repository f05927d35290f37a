/** Where billing state lives in the KV store; one place so scripts and readers agree. */
export const BillingKeys = {
  window: (keyId: string, windowIndex: number) => `rl:${keyId}:${windowIndex}`,
  credits: (accountId: string) => `credits:${accountId}`,
  usage: (accountId: string, period: number) => `usage:${accountId}:${period}`,
  // The admission scripts build the same member in Lua (accountId .. ':' .. period).
  usageMember: (accountId: string, period: number) => `${accountId}:${period}`,
  usageDirty: 'usage:dirty',
  outbox: 'ledger:outbox',
  seq: 'ledger:seq',
} as const;

export const WINDOW_MS = 60_000;
/** The window key outlives its minute a little so late INCRs never resurrect a fresh counter. */
export const WINDOW_KEY_TTL_MS = 65_000;
/** Usage meters outlive the longest month; the durable copy is in usage_counters. */
export const USAGE_KEY_TTL_MS = 45 * 24 * 3600 * 1000;
