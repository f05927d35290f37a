import { BoundedMap } from '../memo/bounded-map';

interface Slot<V> {
  value: Promise<V>;
  expiresAt: number;
}

/**
 * A per-replica cache of keyed values (a list page, an asset detail) for `ttlMs`, holding at most `max`
 * keys, the oldest forgotten first. Concurrent misses of a key share one load; a failed load is not kept.
 * For data that is already shared by all replicas elsewhere (PostgreSQL, the KV store): this only spares
 * each replica the same read and serialisation on every request.
 */
export class TtlCache<V> {
  private readonly slots: BoundedMap<string, Slot<V>>;

  constructor(
    private readonly ttlMs: number,
    max: number,
    private readonly now: () => number = Date.now,
  ) {
    this.slots = new BoundedMap(max);
  }

  get(key: string, load: () => Promise<V>): Promise<V> {
    const now = this.now();
    const slot = this.slots.get(key);
    if (slot && slot.expiresAt > now) return slot.value;
    const value = load();
    const fresh = { value, expiresAt: now + this.ttlMs };
    this.slots.set(key, fresh);
    // A failure is the caller's to see once, not to be served again: the next request loads afresh.
    value.catch(() => {
      if (this.slots.get(key) === fresh) this.slots.set(key, { value, expiresAt: 0 });
    });
    return value;
  }
}
