/** `2025-03-01 14:05 UTC`: one zone for every reader, matching the usage days (UTC dates). */
export function formatDateTime(iso: string | null): string {
  if (!iso) return 'never';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** `10000000.5` -> `10,000,000.5`, on the string itself: balances are decimal strings and stay exact. */
export function formatDecimal(value: string): string {
  const [whole, fraction] = value.split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return fraction ? `${grouped}.${fraction}` : grouped;
}

/** The exact sum of decimal strings (credits), through integers scaled to the longest fraction. */
export function sumDecimals(values: readonly string[]): string {
  const scale = Math.max(0, ...values.map((value) => value.split('.')[1]?.length ?? 0));
  let total = 0n;
  for (const value of values) {
    const [whole, fraction = ''] = value.split('.');
    const negative = whole.startsWith('-');
    const units = BigInt(whole.replace('-', '') + fraction.padEnd(scale, '0'));
    total += negative ? -units : units;
  }
  const digits = (total < 0n ? -total : total).toString().padStart(scale + 1, '0');
  const sign = total < 0n ? '-' : '';
  if (scale === 0) return sign + digits;
  const fraction = digits.slice(-scale).replace(/0+$/, '');
  return `${sign}${digits.slice(0, -scale)}${fraction ? `.${fraction}` : ''}`;
}

/**
 * The next monthly reset after `now`: periods recur on the anchor's day of the month (UTC), clamped to
 * the month's last day, as the server counts them.
 */
export function nextReset(anchorIso: string, now = new Date()): Date | undefined {
  const anchor = new Date(anchorIso);
  if (Number.isNaN(anchor.getTime())) return undefined;
  for (let months = 0; ; months++) {
    const year = anchor.getUTCFullYear();
    const month = anchor.getUTCMonth() + months;
    const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
    const candidate = new Date(anchor);
    candidate.setUTCFullYear(year, month, Math.min(anchor.getUTCDate(), lastDay));
    if (candidate > now) return candidate;
  }
}
