/** SEC's published fair-access limit: requests a second per user, all machines together. */
export const SEC_REQUESTS_PER_SECOND_LIMIT = 10;
/** Past the limit SEC limits the address until its rate has stayed under the threshold for 10 minutes. */
export const SEC_BLOCK_MS = 600_000;
const SECOND_MS = 1_000;

/**
 * Requests per client address in fixed one-second windows, every request counted (refused ones too, as SEC
 * counts them). A request past the limit blocks the address for `blockMs`; a request during a block does not
 * extend it. `peakPerSecond` is the most requests one address sent in one second: what a limiter test asserts.
 */
export class SecRateLimit {
  peakPerSecond = 0;
  private readonly windows = new Map<string, { second: number; count: number }>();
  private readonly blockedUntil = new Map<string, number>();

  constructor(
    private readonly limit: number,
    private readonly blockMs: number,
  ) {}

  get enabled(): boolean {
    return this.limit > 0;
  }

  /** Counts the request; false when the address is over the limit or blocked. */
  admit(client: string, now: number): boolean {
    const second = Math.floor(now / SECOND_MS);
    let window = this.windows.get(client);
    if (!window || window.second !== second) {
      window = { second, count: 0 };
      this.windows.set(client, window);
    }
    window.count += 1;
    this.peakPerSecond = Math.max(this.peakPerSecond, window.count);
    if (!this.enabled) return true;
    if ((this.blockedUntil.get(client) ?? 0) > now) return false;
    if (window.count <= this.limit) return true;
    this.blockedUntil.set(client, now + this.blockMs);
    return false;
  }

  reset(): void {
    this.peakPerSecond = 0;
    this.windows.clear();
    this.blockedUntil.clear();
  }
}
