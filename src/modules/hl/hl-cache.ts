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

/**
 * Values derived from one immutable snapshot (liquidation bins, per-coin summaries, holder pages):
 * computed once per key and snapshot, and all dropped together when a request names another snapshot.
 * Keys from the validated coin set are bounded by it; caches with open-ended keys (pages) pass
 * `maxEntries` and then keep the most recently used ones (0 disables the cache).
 */
export class SnapshotScopedCache<T> {
  private snapshotId: number | undefined;
  private readonly entries = new Map<string, Promise<T>>();

  constructor(private readonly options: { maxEntries?: number } = {}) {}

  get(snapshotId: number, key: string, load: () => Promise<T>): Promise<T> {
    const max = this.options.maxEntries ?? Infinity;
    if (max <= 0) return load();
    if (snapshotId !== this.snapshotId) {
      this.snapshotId = snapshotId;
      this.entries.clear();
    }
    let entry = this.entries.get(key);
    if (entry) {
      // Most recently used last, so eviction takes the one unused the longest.
      if (max !== Infinity) {
        this.entries.delete(key);
        this.entries.set(key, entry);
      }
      return entry;
    }
    entry = load();
    this.entries.set(key, entry);
    if (this.entries.size > max) this.entries.delete(this.entries.keys().next().value!);
    // A failed computation is not remembered: the next request tries again.
    const stored = entry;
    stored.catch(() => {
      if (this.entries.get(key) === stored) this.entries.delete(key);
    });
    return entry;
  }

  clear(): void {
    this.snapshotId = undefined;
    this.entries.clear();
  }
}
