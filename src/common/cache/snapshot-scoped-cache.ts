/**
 * Values derived from one immutable snapshot (per-symbol summaries, rendered pages): computed once per key
 * and snapshot, and all dropped together when a request names another snapshot. Keys drawn from a validated
 * symbol set are bounded by it; caches with open-ended keys (pages) pass `maxEntries` and then keep the
 * most recently used ones (0 disables the cache).
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
