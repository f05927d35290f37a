import { Logger } from '@nestjs/common';

/**
 * Logs a repeating failure at most once per interval, with how many went unlogged in between, and once
 * when it stops: a sync that fails every few seconds while a store is down says so without flooding the log.
 */
export class ThrottledErrorLog {
  private lastLoggedAt = -Infinity;
  private unlogged = 0;
  private failing = false;

  constructor(
    private readonly logger: Logger,
    private readonly what: string,
    private readonly intervalMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  failed(error: unknown): void {
    this.failing = true;
    const now = this.now();
    if (now - this.lastLoggedAt < this.intervalMs) {
      this.unlogged += 1;
      return;
    }
    const repeats = this.unlogged > 0 ? ` (${this.unlogged} more failures since the last report)` : '';
    this.logger.error(`${this.what} failed${repeats}: ${error instanceof Error ? error.message : String(error)}`);
    this.lastLoggedAt = now;
    this.unlogged = 0;
  }

  succeeded(): void {
    if (!this.failing) return;
    this.logger.log(`${this.what} works again`);
    this.failing = false;
    this.unlogged = 0;
    this.lastLoggedAt = -Infinity;
  }
}
