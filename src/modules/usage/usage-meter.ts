import { UsageCount } from './usage.repository';

const CREDITS_SUFFIX = '#credits';

/** Reads a live usage hash (`<endpoint>` -> calls, `<endpoint>#credits` -> micro-credits) into counts. */
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
    else countFor(field).calls = Number(value);
  }
  return [...counts.values()].filter((c) => c.calls > 0 || c.creditsMicro !== '0');
}
