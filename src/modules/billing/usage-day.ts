/** Usage is kept per UTC day, named 'YYYY-MM-DD' in the meters, in usage_daily and in the history read. */
export const DAY_MS = 86_400_000;

/** The UTC day an instant (epoch milliseconds) falls on, as 'YYYY-MM-DD'. */
export function utcDayOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** Epoch milliseconds at which a 'YYYY-MM-DD' day starts (UTC). */
export function dayStartMs(day: string): number {
  return Date.parse(`${day}T00:00:00.000Z`);
}

/** The day `days` after `day` (before it when negative). */
export function addDays(day: string, days: number): string {
  return utcDayOf(dayStartMs(day) + days * DAY_MS);
}

/**
 * The text of the day in progress, made once per day: every billed call counts its usage under the day
 * it was admitted on, and a string made per call would be garbage on the hot path.
 */
export class UtcDayCache {
  private startMs = 0;
  private endMs = 0;
  private day = '';

  of(ms: number): string {
    if (ms < this.startMs || ms >= this.endMs) {
      this.startMs = ms - (((ms % DAY_MS) + DAY_MS) % DAY_MS);
      this.endMs = this.startMs + DAY_MS;
      this.day = utcDayOf(this.startMs);
    }
    return this.day;
  }
}
