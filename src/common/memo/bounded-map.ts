/**
 * A Map that holds at most `max` entries, forgetting the oldest first: for remembering the results of
 * pure work (signatures, validated queries) whose inputs come from clients and so have no bound.
 */
export class BoundedMap<K, V> {
  private readonly entries = new Map<K, V>();

  constructor(private readonly max: number) {
    if (!(max >= 1)) throw new Error('BoundedMap needs room for at least one entry');
  }

  get(key: K): V | undefined {
    return this.entries.get(key);
  }

  set(key: K, value: V): V {
    if (!this.entries.has(key) && this.entries.size >= this.max) this.entries.delete(this.entries.keys().next().value as K);
    this.entries.set(key, value);
    return value;
  }

  /** The remembered value of `key`, or what `compute` makes of it (remembered unless it throws). */
  getOrSet(key: K, compute: (key: K) => V): V {
    const known = this.entries.get(key);
    return known !== undefined ? known : this.set(key, compute(key));
  }

  get size(): number {
    return this.entries.size;
  }
}
