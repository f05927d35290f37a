import { UsageCount } from './usage.repository';

const CREDITS_SUFFIX = '#credits';

/**
 * Reads a usage hash (`<endpoint>` -> calls, `<endpoint>#credits` -> micro-credits) into counts; other
 * fields starting with '#' (a claim's batch id and state) are not counts. Deltas may be negative or zero
 * (a failed call is taken back out), so nothing is dropped here: see addCounts.
 */
export function parseUsageHash(accountId: string, period: number, hash: Record<string, string>): UsageCount[] {
  const counts = new Map<string, UsageCount>();
  const countFor = (endpoint: string) => {
    let count = counts.get(endpoint);
    if (!count) {
      count = { accountId, period, endpoint, calls: 0, creditsMicro: '0' };
      counts.set(endpoint, count);
    }
    return count;
  };
  for (const [field, value] of Object.entries(hash)) {
    if (field.endsWith(CREDITS_SUFFIX)) countFor(field.slice(0, -CREDITS_SUFFIX.length)).creditsMicro = value;
    else if (!field.startsWith('#')) countFor(field).calls = Number(value);
  }
  return [...counts.values()];
}

/** Sums counts endpoint by endpoint (micro-credits as integers, never floats) and keeps those with any use. */
export function addCounts(accountId: string, period: number, ...lists: UsageCount[][]): UsageCount[] {
  const totals = new Map<string, { calls: number; creditsMicro: bigint }>();
  for (const list of lists) {
    for (const count of list) {
      const total = totals.get(count.endpoint) ?? { calls: 0, creditsMicro: 0n };
      total.calls += count.calls;
      total.creditsMicro += BigInt(count.creditsMicro);
      totals.set(count.endpoint, total);
    }
  }
  return [...totals]
    .filter(([, t]) => t.calls > 0 || t.creditsMicro !== 0n)
    .map(([endpoint, t]) => ({ accountId, period, endpoint, calls: t.calls, creditsMicro: t.creditsMicro.toString() }));
}
