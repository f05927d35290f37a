/** Where billing state lives in the KV store; one place so scripts and readers agree. */
export const BillingKeys = {
  window: (keyId: string, windowIndex: number) => `rl:${keyId}:${windowIndex}`,
  credits: (accountId: string) => `credits:${accountId}`,
  /**
   * Usage counted since the last sync (a delta, not a total: the totals are in usage_counters). Named apart
   * from the `usage:<account>:<period>` totals older versions kept, so those are never added as deltas.
   */
  usage: (accountId: string, period: number) => `usage:delta:${accountId}:${period}`,
  /** A delta on its way to usage_counters, tagged with the batch id that makes adding it idempotent. */
  usageClaim: (accountId: string, period: number) => `usage:claim:${accountId}:${period}`,
  // The admission scripts build the same member in Lua (accountId .. ':' .. period).
  usageMember: (accountId: string, period: number) => `${accountId}:${period}`,
  usageDirty: 'usage:delta:dirty',
  /** Members taken from usageDirty whose delta is not yet in usage_counters (a hash: member -> '1'). */
  usageSyncing: 'usage:delta:syncing',
  outbox: 'ledger:outbox',
  seq: 'ledger:seq',
} as const;

export const WINDOW_MS = 60_000;
/** The window key outlives its minute a little so late INCRs never resurrect a fresh counter. */
export const WINDOW_KEY_TTL_MS = 65_000;
/** A usage delta outlives the longest month even if no sync runs; normally it moves within one sync interval. */
export const USAGE_KEY_TTL_MS = 45 * 24 * 3600 * 1000;
