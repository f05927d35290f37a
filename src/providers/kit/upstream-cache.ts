import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { setTimeout as delay } from 'node:timers/promises';
import { KV_STORE, KvStore } from '../../infra/kv/kv-store';
import { cacheLookups } from '../../infra/metrics/metrics';
import { CIRCUIT_RETRY_MS } from './upstream-circuit';
import { UPSTREAM_CLOCK, UpstreamClock } from './upstream-clock';
import { UpstreamError } from './upstream.error';

/** Contract part 7 rule 2: during an outage the last value, up to about an hour old, stands in for an error. */
export const STALE_LIMIT_MS = 60 * 60_000;
/** How long one replica's load holds the others back; longer than a normal upstream call. */
const DEFAULT_LOCK_TTL_MS = 10_000;
/** How long a replica waits for another's load before calling the upstream itself. */
const DEFAULT_LOCK_WAIT_MS = 2_000;
const LOCK_POLL_MS = 25;
/**
 * How long a key's failed load stands as its answer (its stale value, or the error) before a background
 * probe asks the upstream again: the providers' circuit interval, so a key's probe finds the circuit ready for its trial.
 */
export const RETRY_FAILED_MS = CIRCUIT_RETRY_MS;
/** Keys whose last load failed, remembered per cache and replica; past this the oldest are forgotten. */
const MAX_FAILING_KEYS = 10_000;

export interface UpstreamCacheOptions {
  /** Names the cache in its KV keys and metrics ('coingecko.quotes'): a closed set, never input. */
  name: string;
  /** How long a value is served without asking the upstream (contract 8.8: 30-60 s market data, up to 1 h fundamentals). */
  freshTtlMs: number;
  /**
   * A shorter fresh TTL for some values: a partial answer (one of several upstream calls failed) is asked
   * again sooner than a whole one. Returns the TTL for `value`, at most freshTtlMs.
   */
  freshTtlFor?: (value: unknown) => number;
  /** How old a value may be and still stand in for a failed load; at most an hour by default. */
  staleLimitMs?: number;
  lockTtlMs?: number;
  lockWaitMs?: number;
  /** Injectable clock for the ages of values and of failures (tests move it past the TTL, the retry and the stale limit). */
  now?: UpstreamClock;
}

type Outcome<T> = AgedValue<T> & { result: 'hit' | 'miss' | 'stale' };

/** A cached value and when it left the upstream (epoch ms): the response's Age. Also what the KV store holds per key. */
export interface AgedValue<T> {
  value: T;
  loadedAt: number;
  /** This value's fresh TTL when it differs from the cache's (freshTtlFor). */
  freshMs?: number;
}
type Entry<T> = AgedValue<T>;

/** A key whose last load failed with `error`: its answer until `retryAt`, then a probe's. */
interface Failure {
  error: UpstreamError;
  retryAt: number;
  probing: boolean;
}

/**
 * Cache-aside for on-demand upstream reads, shared by replicas through the KV store: a value is fresh for
 * `freshTtlMs`; past that the next read loads it again, and if that load fails with an UpstreamError the
 * last value (up to `staleLimitMs` old) is served instead, before giving up with the error. Many concurrent
 * misses make one upstream call: in this process they join one in-flight lookup, and across replicas a
 * short KV lock lets one replica load while the others wait briefly for its value (then load themselves).
 * A failed load is remembered per key for RETRY_FAILED_MS: meanwhile reads of the key get its stale value
 * (or the error) at once, calling nothing; then one background probe per interval loads it, and its value
 * serves the next reads. Per replica, in memory: a replica learns of a failure from its own first load, and
 * no read pays a KV round trip for it. A fresh value another replica stored ends it too.
 * Values are JSON. The KV store being down makes the cache a pass-through, never an error of its own.
 */
export class UpstreamCache {
  private readonly logger = new Logger(UpstreamCache.name);
  private readonly inFlight = new Map<string, Promise<Outcome<unknown>>>();
  private readonly failures = new Map<string, Failure>();
  private readonly staleLimitMs: number;
  private readonly lockTtlMs: number;
  private readonly lockWaitMs: number;
  private readonly now: UpstreamClock;

  constructor(
    private readonly kv: KvStore,
    private readonly options: UpstreamCacheOptions,
  ) {
    this.staleLimitMs = options.staleLimitMs ?? STALE_LIMIT_MS;
    this.lockTtlMs = options.lockTtlMs ?? DEFAULT_LOCK_TTL_MS;
    this.lockWaitMs = options.lockWaitMs ?? DEFAULT_LOCK_WAIT_MS;
    this.now = options.now ?? Date.now;
  }

  get name(): string {
    return this.options.name;
  }

  /** The cached value of `key`, or what `load` returns (then cached). Each call counts one lookup, with the result of the flight it joined. */
  async get<T>(key: string, load: () => Promise<T>): Promise<T> {
    return (await this.getAged(key, load)).value;
  }

  /** As get, with the time the value was loaded from the upstream. */
  async getAged<T>(key: string, load: () => Promise<T>): Promise<AgedValue<T>> {
    let flight = this.inFlight.get(key) as Promise<Outcome<T>> | undefined;
    if (!flight) {
      flight = this.lookup(key, load).finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, flight);
    }
    const { result, ...aged } = await flight;
    cacheLookups.inc({ cache: this.options.name, result });
    return aged;
  }

  private async lookup<T>(key: string, load: () => Promise<T>): Promise<Outcome<T>> {
    const valueKey = `cache:${this.options.name}:${key}`;
    const cached = await this.read<T>(valueKey);
    if (cached && this.isFresh(cached)) {
      this.failures.delete(key);
      return { ...cached, result: 'hit' };
    }
    const failure = this.failures.get(key);
    if (failure) {
      if (!failure.probing && this.now() >= failure.retryAt) void this.probe(key, valueKey, load, failure);
      return this.standIn(cached, failure.error);
    }
    const lockKey = `${valueKey}:loading`;
    if (!(await this.tryLock(lockKey))) {
      const loadedElsewhere = await this.waitForFresh<T>(valueKey, lockKey);
      if (loadedElsewhere) return { ...loadedElsewhere, result: 'hit' };
      return this.loadOrStandIn(key, valueKey, load, cached);
    }
    const lockedAt = Date.now();
    try {
      return await this.loadOrStandIn(key, valueKey, load, cached);
    } finally {
      await this.unlock(lockKey, lockedAt);
    }
  }

  private async loadOrStandIn<T>(key: string, valueKey: string, load: () => Promise<T>, cached: Entry<T> | null): Promise<Outcome<T>> {
    try {
      return { ...(await this.loadAndStore(valueKey, load)), result: 'miss' };
    } catch (err) {
      if (!(err instanceof UpstreamError)) throw err;
      this.remember(key, err);
      return this.standIn(cached, err);
    }
  }

  /** The last value while it may stand in for a failed load, else the failure itself. */
  private standIn<T>(cached: Entry<T> | null, error: UpstreamError): Outcome<T> {
    if (cached && this.now() - cached.loadedAt <= this.staleLimitMs) return { ...cached, result: 'stale' };
    throw error;
  }

  /**
   * Loads a failing key in the background (no client waits on it): a value is stored and ends the failure,
   * another UpstreamError stands for RETRY_FAILED_MS more, and anything else (a provider switched off, a bug)
   * ends it, so the next read meets it itself. Skipped while another replica holds the key's load lock.
   */
  private async probe<T>(key: string, valueKey: string, load: () => Promise<T>, failure: Failure): Promise<void> {
    failure.probing = true;
    const lockKey = `${valueKey}:loading`;
    if (!(await this.tryLock(lockKey))) {
      failure.retryAt = this.now() + RETRY_FAILED_MS;
      failure.probing = false;
      return;
    }
    const lockedAt = Date.now();
    try {
      await this.loadAndStore(valueKey, load);
      this.failures.delete(key);
    } catch (err) {
      if (err instanceof UpstreamError) this.remember(key, err);
      else {
        this.failures.delete(key);
        this.logger.warn(`${this.options.name}: probe failed (${String(err)})`);
      }
    } finally {
      await this.unlock(lockKey, lockedAt);
    }
  }

  private async loadAndStore<T>(valueKey: string, load: () => Promise<T>): Promise<Entry<T>> {
    const value = await load();
    const freshMs = this.options.freshTtlFor?.(value);
    const entry: Entry<T> =
      freshMs === undefined ? { value, loadedAt: this.now() } : { value, loadedAt: this.now(), freshMs: Math.min(freshMs, this.options.freshTtlMs) };
    await this.write(valueKey, entry);
    return entry;
  }

  private remember(key: string, error: UpstreamError): void {
    if (!this.failures.has(key) && this.failures.size >= MAX_FAILING_KEYS) this.failures.delete(this.failures.keys().next().value!);
    this.failures.set(key, { error, retryAt: this.now() + RETRY_FAILED_MS, probing: false });
  }

  private isFresh(entry: Entry<unknown>): boolean {
    return this.now() - entry.loadedAt < (entry.freshMs ?? this.options.freshTtlMs);
  }

  /** The value another replica is loading, once written; null when its load ends without one or takes too long. */
  private async waitForFresh<T>(valueKey: string, lockKey: string): Promise<Entry<T> | null> {
    const deadline = Date.now() + this.lockWaitMs;
    while (Date.now() < deadline) {
      await delay(LOCK_POLL_MS);
      // Lock first: the loader writes the value before it releases the lock, so a released lock means the value is there (or never will be).
      const stillLoading = (await this.kv.get(lockKey).catch(() => null)) !== null;
      const entry = await this.read<T>(valueKey);
      if (entry && this.isFresh(entry)) return entry;
      if (!stillLoading) return null;
    }
    return null;
  }

  private async read<T>(valueKey: string): Promise<Entry<T> | null> {
    try {
      const text = await this.kv.get(valueKey);
      return text === null ? null : (JSON.parse(text) as Entry<T>);
    } catch (err) {
      this.logger.warn(`${this.options.name}: cache unreadable, loading from the upstream (${String(err)})`);
      return null;
    }
  }

  private async write<T>(valueKey: string, entry: Entry<T>): Promise<void> {
    try {
      // Kept as long as it may stand in for a failed load; the loadedAt age decides freshness.
      await this.kv.set(valueKey, JSON.stringify(entry), this.staleLimitMs);
    } catch (err) {
      this.logger.warn(`${this.options.name}: value not cached (${String(err)})`);
    }
  }

  private async tryLock(lockKey: string): Promise<boolean> {
    try {
      return await this.kv.setIfAbsent(lockKey, '1', this.lockTtlMs);
    } catch {
      return true;
    }
  }

  /** Released early so others need not wait it out after a failure; unless it expired and may be another's. */
  private async unlock(lockKey: string, lockedAt: number): Promise<void> {
    if (Date.now() - lockedAt < this.lockTtlMs) await this.kv.del(lockKey).catch(() => undefined);
  }
}

/** Hands each area its caches, all on the app's KV store: `caches.create({ name: 'coingecko.quotes', freshTtlMs: 30_000 })`. */
@Injectable()
export class UpstreamCacheFactory {
  constructor(
    @Inject(KV_STORE) private readonly kv: KvStore,
    @Optional() @Inject(UPSTREAM_CLOCK) private readonly clock?: UpstreamClock,
  ) {}

  create(options: UpstreamCacheOptions): UpstreamCache {
    return new UpstreamCache(this.kv, { now: this.clock, ...options });
  }
}
