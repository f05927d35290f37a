/** A sorted set: member -> score. A class of its own, so a hash (a Map) is never taken for one. */
class SortedSet {
  readonly scores = new Map<string, number>();
}

type Value = string | Map<string, string> | string[] | Set<string> | SortedSet;

const SWEEP_INTERVAL_MS = 60_000;

interface Entry {
  value: Value;
  expiresAt: number | null;
}

/**
 * The data model of the in-process store: Redis' string, hash, list, set and sorted-set types with millisecond
 * expiry, as synchronous operations so a script twin runs without interleaving. Integers are kept
 * as decimal strings, as Redis keeps them.
 */
export class MemoryData {
  private readonly entries = new Map<string, Entry>();
  private nextSweepAt = 0;

  constructor(private readonly now: () => number = Date.now) {}

  /** Redis' TIME in microseconds, from this store's clock. */
  timeMicros(): number {
    return this.now() * 1000;
  }

  /** Keys held, expired ones not yet dropped included (Redis' DBSIZE). */
  get size(): number {
    return this.entries.size;
  }

  /**
   * Drops every expired key, at most once per SWEEP_INTERVAL_MS, whenever an expiry is set. Reading a key
   * drops it when expired, but the per-minute keys (rate-limit windows, weight windows) are never read
   * after their minute: without this an embedded server would keep one per key and minute for as long as
   * it runs. Redis expires keys actively as well. No timer, so nothing to schedule: the writes that set
   * expiries drive the sweep, and a store nobody writes to holds nothing new to drop.
   */
  private sweepExpired(): void {
    const now = this.now();
    if (now < this.nextSweepAt) return;
    this.nextSweepAt = now + SWEEP_INTERVAL_MS;
    for (const [key, entry] of this.entries) {
      if (entry.expiresAt !== null && entry.expiresAt <= now) this.entries.delete(key);
    }
  }

  private live(key: string): Entry | undefined {
    const entry = this.entries.get(key);
    if (entry && entry.expiresAt !== null && entry.expiresAt <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }

  private typed<T extends Value>(key: string, guard: (v: Value) => v is T, create?: () => T): T | undefined {
    const entry = this.live(key);
    if (entry) {
      if (!guard(entry.value)) throw new Error('WRONGTYPE Operation against a key holding the wrong kind of value');
      return entry.value;
    }
    if (!create) return undefined;
    const value = create();
    this.entries.set(key, { value, expiresAt: null });
    return value;
  }

  get(key: string): string | null {
    return this.typed(key, isString) ?? null;
  }

  set(key: string, value: string, ttlMs?: number): void {
    if (ttlMs) this.sweepExpired();
    this.entries.set(key, { value, expiresAt: ttlMs ? this.now() + ttlMs : null });
  }

  exists(key: string): boolean {
    return this.live(key) !== undefined;
  }

  del(key: string): boolean {
    const existed = this.live(key) !== undefined;
    this.entries.delete(key);
    return existed;
  }

  incrBy(key: string, by: number): number {
    const entry = this.live(key);
    if (entry && !isString(entry.value)) throw new Error('WRONGTYPE Operation against a key holding the wrong kind of value');
    const next = parseInteger(entry ? (entry.value as string) : '0') + by;
    this.entries.set(key, { value: String(next), expiresAt: entry?.expiresAt ?? null });
    return next;
  }

  pexpire(key: string, ttlMs: number): void {
    this.sweepExpired();
    const entry = this.live(key);
    if (entry) entry.expiresAt = this.now() + ttlMs;
  }

  hget(key: string, field: string): string | null {
    return this.typed(key, isHash)?.get(field) ?? null;
  }

  hset(key: string, fields: Record<string, string>): void {
    const hash = this.typed(key, isHash, () => new Map())!;
    for (const [field, value] of Object.entries(fields)) hash.set(field, value);
  }

  hdel(key: string, field: string): boolean {
    const hash = this.typed(key, isHash);
    const removed = hash?.delete(field) ?? false;
    if (hash && hash.size === 0) this.entries.delete(key);
    return removed;
  }

  hincrBy(key: string, field: string, by: number): number {
    const hash = this.typed(key, isHash, () => new Map())!;
    const next = parseInteger(hash.get(field) ?? '0') + by;
    hash.set(field, String(next));
    return next;
  }

  hgetall(key: string): Record<string, string> {
    return Object.fromEntries(this.typed(key, isHash) ?? []);
  }

  rpush(key: string, ...values: string[]): number {
    const list = this.typed(key, isList, () => [])!;
    list.push(...values);
    return list.length;
  }

  lrange(key: string, start: number, stop: number): string[] {
    const list = this.typed(key, isList) ?? [];
    // Redis semantics: negative indexes count from the tail, out-of-range ends clamp, an empty range is [].
    const from = start < 0 ? Math.max(0, list.length + start) : start;
    const to = stop < 0 ? list.length + stop : Math.min(stop, list.length - 1);
    return from > to ? [] : list.slice(from, to + 1);
  }

  ltrim(key: string, start: number, stop: number): void {
    const list = this.typed(key, isList);
    if (!list) return;
    const kept = this.lrange(key, start, stop);
    if (kept.length === 0) this.entries.delete(key);
    else list.splice(0, list.length, ...kept);
  }

  llen(key: string): number {
    return (this.typed(key, isList) ?? []).length;
  }

  sadd(key: string, member: string): void {
    this.typed(key, isSet, () => new Set())!.add(member);
  }

  spop(key: string, count: number): string[] {
    const set = this.typed(key, isSet);
    if (!set) return [];
    const popped = [...set].slice(0, count);
    for (const member of popped) set.delete(member);
    if (set.size === 0) this.entries.delete(key);
    return popped;
  }

  zadd(key: string, score: number, member: string): void {
    this.typed(key, isSortedSet, () => new SortedSet())!.scores.set(member, score);
  }

  zrem(key: string, member: string): boolean {
    const zset = this.typed(key, isSortedSet);
    const removed = zset?.scores.delete(member) ?? false;
    if (zset && zset.scores.size === 0) this.entries.delete(key);
    return removed;
  }

  zcard(key: string): number {
    return this.typed(key, isSortedSet)?.scores.size ?? 0;
  }

  /** ZREMRANGEBYSCORE key -inf max: drops every member scored at most `max`; answers how many. */
  zremRangeByScoreUpTo(key: string, max: number): number {
    const zset = this.typed(key, isSortedSet);
    if (!zset) return 0;
    let removed = 0;
    for (const [member, score] of zset.scores) {
      if (score <= max && zset.scores.delete(member)) removed++;
    }
    if (zset.scores.size === 0) this.entries.delete(key);
    return removed;
  }

  /** ZRANGE key 0 0 WITHSCORES: the lowest-scored member (ties by member, as Redis orders them), or null. */
  zfirst(key: string): { member: string; score: number } | null {
    let first: { member: string; score: number } | null = null;
    for (const [member, score] of this.typed(key, isSortedSet)?.scores ?? []) {
      if (!first || score < first.score || (score === first.score && member < first.member)) first = { member, score };
    }
    return first;
  }
}

function isString(v: Value): v is string {
  return typeof v === 'string';
}
function isHash(v: Value): v is Map<string, string> {
  return v instanceof Map;
}
function isList(v: Value): v is string[] {
  return Array.isArray(v);
}
function isSet(v: Value): v is Set<string> {
  return v instanceof Set;
}
function isSortedSet(v: Value): v is SortedSet {
  return v instanceof SortedSet;
}
function parseInteger(raw: string): number {
  if (!/^-?\d+$/.test(raw)) throw new Error('ERR value is not an integer or out of range');
  return Number(raw);
}
