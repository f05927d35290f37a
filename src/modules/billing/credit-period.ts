/**
 * Monthly credit periods start at resetAnchorAt and recur on the same day of each month (UTC),
 * clamped to the month's last day: an anchor on Jan 31 resets on Feb 28 (or 29), then Mar 31.
 */
export function addMonthsUtc(anchor: Date, months: number): Date {
  const year = anchor.getUTCFullYear();
  const month = anchor.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return new Date(
    Date.UTC(
      year,
      month,
      Math.min(anchor.getUTCDate(), lastDay),
      anchor.getUTCHours(),
      anchor.getUTCMinutes(),
      anchor.getUTCSeconds(),
      anchor.getUTCMilliseconds(),
    ),
  );
}

/** How many whole periods have begun since the anchor (0 during the first month). */
export function periodIndexAt(anchor: Date, now: Date): number {
  if (now < anchor) return 0;
  let months = (now.getUTCFullYear() - anchor.getUTCFullYear()) * 12 + (now.getUTCMonth() - anchor.getUTCMonth());
  if (addMonthsUtc(anchor, months) > now) months -= 1;
  return Math.max(0, months);
}

export interface CreditPeriod {
  index: number;
  start: Date;
  end: Date;
}

export function periodAt(anchor: Date, now: Date): CreditPeriod {
  const index = periodIndexAt(anchor, now);
  return { index, start: addMonthsUtc(anchor, index), end: addMonthsUtc(anchor, index + 1) };
}
