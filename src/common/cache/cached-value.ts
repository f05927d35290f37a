/**
 * A value reloaded at most once per `ttlMs`: callers inside the window get the same object back
 * synchronously (no promise, no copy), and callers at expiry share one load. When a reload fails, the
 * previous value keeps being served for up to `maxStaleMs` (contract 7.2) and the next call retries.
 */
export class CachedValue<T> {
  private value: T | undefined;
  private loadedAt = 0;
  private inflight: Promise<T> | undefined;
  /** Bumped by invalidate() so a load started before it cannot store its (older) result. */
  private generation = 0;

  constructor(
    private readonly load: () => Promise<T>,
    private readonly options: { ttlMs: number; maxStaleMs: number; onStaleServed?: (error: unknown) => void },
  ) {}

  get(now = Date.now()): T | Promise<T> {
    if (this.value !== undefined && now - this.loadedAt < this.options.ttlMs) return this.value;
    return this.inflight ?? (this.inflight = this.reload(now));
  }

  /** Forgets the value: the next get() loads afresh (used right after a snapshot is published in-process). */
  invalidate(): void {
    this.generation++;
    this.value = undefined;
    this.inflight = undefined;
  }

  private async reload(startedAt: number): Promise<T> {
    const generation = this.generation;
    try {
      const value = await this.load();
      if (generation === this.generation) {
        this.value = value;
        this.loadedAt = startedAt;
      }
      return value;
    } catch (error) {
      if (generation === this.generation && this.value !== undefined && startedAt - this.loadedAt < this.options.maxStaleMs) {
        this.options.onStaleServed?.(error);
        return this.value;
      }
      throw error;
    } finally {
      if (generation === this.generation) this.inflight = undefined;
    }
  }
}
