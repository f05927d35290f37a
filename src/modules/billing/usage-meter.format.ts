/**
 * The usage meters in the KV store: the one place that knows their key names and hash layout (the
 * scripts in usage-meter.scripts.ts build their Lua from these names).
 *
 * Per account and usage period:
 * - the live delta `usage:delta:<account>:<period>`: `<endpoint>@<day>` -> calls and
 *   `<endpoint>@<day>#credits` -> micro-credits counted since the last sync on that UTC day (YYYY-MM-DD; a
 *   delta, not a total: the totals are in usage_counters and usage_daily). Fields without `@<day>` are
 *   those of versions that kept no day; they are still added, to usage_daily on the day they are synced.
 *   Named apart from the `usage:<account>:<period>` totals older versions kept, so those are never added
 *   as deltas.
 * - the claim `usage:claim:<account>:<period>`: a delta on its way to usage_counters and usage_daily, with
 *   the fields CLAIM_BATCH, CLAIM_PREV and CLAIM_SYNCED (endpoint names never start with '#').
 * - its member `<account>:<period>`, in the dirty set (deltas to move) and the syncing hash (moving).
 */
export const UsageMeterKeys = {
  live: (accountId: string, period: number) => `usage:delta:${accountId}:${period}`,
  claim: (accountId: string, period: number) => `usage:claim:${accountId}:${period}`,
  member: (accountId: string, period: number) => `${accountId}:${period}`,
  dirty: 'usage:delta:dirty',
  /** Members taken from the dirty set whose delta is not yet in usage_counters (a hash: member -> '1'). */
  syncing: 'usage:delta:syncing',
  /** Set by the first run of a flush's batch of tallies (ADD_USAGE_SCRIPT). */
  added: (batchId: string) => `usage:added:${batchId}`,
} as const;

/** How long a flush's batch is remembered as added: the flush sends a batch again until it lands, for at most this long. */
export const USAGE_ADD_RECORD_TTL_MS = 60 * 60_000;

/** A usage delta outlives the longest month even if no sync runs; normally it moves within one sync interval. */
export const USAGE_KEY_TTL_MS = 45 * 24 * 3600 * 1000;

/** Suffix of the field that holds an endpoint's micro-credits (the endpoint's own field holds its calls). */
export const CREDITS_FIELD_SUFFIX = '#credits';

/** Between an endpoint and the day its calls were counted on, in a field name (endpoint names have no '@'). */
export const DAY_SEPARATOR = '@';
const DAY_TEXT = /^\d{4}-\d{2}-\d{2}$/;

/** Claim fields that are not endpoint counts: its batch id, the batch before it, and '0'/'1' for synced. */
export const CLAIM_BATCH = '#batch';
export const CLAIM_PREV = '#prev';
export const CLAIM_SYNCED = '#synced';

export interface UsageMeterId {
  member: string;
  accountId: string;
  period: number;
}

/** The meter a member names (see UsageMeterKeys.member); undefined for anything else. */
export function meterOfMember(member: string): UsageMeterId | undefined {
  const at = member.lastIndexOf(':');
  const period = Number(member.slice(at + 1));
  if (at <= 0 || !Number.isInteger(period)) return undefined;
  return { member, accountId: member.slice(0, at), period };
}

export interface UsageCount {
  accountId: string;
  period: number;
  endpoint: string;
  calls: number;
  creditsMicro: string;
}

/** A meter's count of one endpoint on one UTC day. */
export interface DailyUsageCount extends UsageCount {
  /** YYYY-MM-DD the calls were counted on; null for a field that names no day (written by earlier versions). */
  day: string | null;
}

/** Usage counted in memory, by account, then period, then UTC day (YYYY-MM-DD), then endpoint. */
export type UsageTallies = Map<string, Map<number, Map<string, Map<string, { calls: number; creditsMicro: number }>>>>;

/** ADD_USAGE_SCRIPT's keys and arguments for a batch of tallies (see that script); fields are `<endpoint>@<day>`. */
export function encodeUsageTallies(tallies: UsageTallies, batchId: string): { keys: string[]; args: Array<string | number> } {
  const keys: string[] = [UsageMeterKeys.dirty, UsageMeterKeys.added(batchId)];
  const args: Array<string | number> = [USAGE_ADD_RECORD_TTL_MS];
  for (const [accountId, periods] of tallies) {
    for (const [period, days] of periods) {
      keys.push(UsageMeterKeys.live(accountId, period));
      let fields = 0;
      for (const endpoints of days.values()) fields += endpoints.size;
      args.push(UsageMeterKeys.member(accountId, period), fields);
      for (const [day, endpoints] of days) {
        for (const [endpoint, tally] of endpoints) args.push(`${endpoint}${DAY_SEPARATOR}${day}`, tally.calls, tally.creditsMicro);
      }
    }
  }
  return { keys, args };
}

/**
 * Reads a live delta or a claim into counts, one per endpoint and day; the claim's own fields are not
 * counts. Deltas may be negative or zero (a failed call is taken back out), so nothing is dropped here.
 */
export function decodeUsageHash(accountId: string, period: number, hash: Record<string, string>): DailyUsageCount[] {
  const counts = new Map<string, DailyUsageCount>();
  const countFor = (name: string) => {
    let count = counts.get(name);
    if (!count) {
      const at = name.lastIndexOf(DAY_SEPARATOR);
      const day = at < 0 ? null : name.slice(at + 1);
      // A day that is not one (no writer makes it) is read as no day rather than stopping the sync on a bad date.
      count = {
        accountId,
        period,
        endpoint: at < 0 ? name : name.slice(0, at),
        day: day !== null && DAY_TEXT.test(day) ? day : null,
        calls: 0,
        creditsMicro: '0',
      };
      counts.set(name, count);
    }
    return count;
  };
  for (const [field, value] of Object.entries(hash)) {
    if (field.endsWith(CREDITS_FIELD_SUFFIX)) countFor(field.slice(0, -CREDITS_FIELD_SUFFIX.length)).creditsMicro = value;
    else if (!field.startsWith('#')) countFor(field).calls = Number(value);
  }
  return [...counts.values()];
}

/** HGETALL's reply (field, value, field, value, ...), as Redis gives it and the scripts hand it back, as a hash. */
export function hashOfReply(fields: string[]): Record<string, string> {
  const hash: Record<string, string> = {};
  for (let i = 0; i + 1 < fields.length; i += 2) hash[fields[i]] = fields[i + 1];
  return hash;
}
