import { BeforeApplicationShutdown, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { TurnBatcher } from '../../common/async/turn-batcher';
import { within } from '../../common/async/within';
import { ApiCaller } from './api-caller';
import { AppError } from '../../common/errors/app-error';
import { ErrorCode } from '../../common/errors/error-code';
import { FailedLookupLimiter } from '../../common/guards/failed-lookup-limiter';
import { HEADER } from '../../common/http/response-headers';
import { BoundedMap } from '../../common/memo/bounded-map';
import { AppConfig } from '../../config/app.config';
import { AccountRepository } from './account.repository';
import { API_KEY_PATTERN, hashApiKey } from './api-key-format';

const MAX_ENTRIES = 50_000;
/**
 * Keys looked up and not found, held apart from the found ones so that a flood of random keys only ever
 * evicts other random keys, never a caller's entry (which would send that caller to the database).
 */
const MAX_UNKNOWN_ENTRIES = 20_000;
/** Keys per refresh query. */
const REFRESH_CHUNK = 1_000;
/**
 * Keys used within this long are kept fresh by the refresh rounds. A key used every few seconds (a bot
 * polling, or a load generator cycling through a thousand keys) must not expire between its calls and
 * then wait for a database read on the request path. The price is a row in every round (one per half
 * TTL) until the window closes: a row in a bulk read costs the database roughly a tenth of a query of its
 * own, so for a key called every 10 s the rounds cost about what a read per call would, off the request
 * path. Keys idle longer than this are left to expire.
 */
export const ACTIVE_KEY_WINDOW_MS = 15_000;
/** All a client learns of a failed lookup: never the database's host, port or error. */
const KEY_STORE_UNAVAILABLE = 'x-api-key: cannot be checked now (key store unavailable); retry with backoff';

interface CacheEntry {
  caller: ApiCaller | null;
  keyHash: string;
  expiresAt: number;
  /** Epoch ms of its last use: entries used within ACTIVE_KEY_WINDOW_MS are refreshed ahead of their expiry. */
  lastUsedAt: number;
}

/**
 * Resolves x-api-key to its caller with no database query on the hot path: hits and misses are kept in
 * memory for API_KEY_CACHE_TTL_MS (at most 5 s, so a revoked key stops working on every replica within
 * that, and a new key works within that), the misses of one event-loop turn share one query, and
 * last-used times are written in batches. Lookups of unknown keys are limited per client address
 * (FailedLookupLimiter), so random keys cannot turn into a query each.
 * Keys used in the last ACTIVE_KEY_WINDOW_MS are re-read ahead of their expiry, all in one query per half
 * TTL, rather than one query per key per TTL on the request path (520 busy keys and a 2 s TTL made 260
 * queries a second; keys used every few seconds, rather than since the last read, still made ~230).
 * While the key store fails, a key read within the TTL plus API_KEY_STALE_IF_ERROR_MS is still served as
 * last read, and any other lookup is 503 SERVICE_UNAVAILABLE: a key nobody could check is not an unknown
 * key, so it is neither remembered as one nor counted against its client address.
 */
@Injectable()
export class ApiCallerCache implements OnModuleInit, BeforeApplicationShutdown {
  private readonly logger = new Logger(ApiCallerCache.name);
  private readonly entries = new Map<string, CacheEntry>();
  /** Unknown key -> epoch ms until which it is answered unknown without a query. */
  private readonly unknown = new BoundedMap<string, number>(MAX_UNKNOWN_ENTRIES);
  private readonly loading = new Map<string, Promise<ApiCaller | null>>();
  private readonly failedLookups: FailedLookupLimiter;
  // One query in flight at a time: under a burst of new keys (or a flood of random ones) the misses of the
  // turns that follow wait for it and then leave together, so a burst costs a few queries, not one a turn.
  private readonly lookups = new TurnBatcher<string, ApiCaller | null>((hashes) => this.findByHashes(hashes), {
    maxBatch: REFRESH_CHUNK,
    maxInFlight: 1,
  });
  /** Key id -> epoch ms of its latest use since the last flush (a number: no Date per request). */
  private lastUsed = new Map<string, number>();
  private touchTimer?: NodeJS.Timeout;
  private refreshTimer?: NodeJS.Timeout;
  private refreshing = false;
  /** The last read of the key store failed; set and cleared by readCallers only. */
  private storeFailing = false;
  private readonly ttlMs: number;
  private readonly staleIfErrorMs: number;
  private readonly lookupTimeoutMs: number;

  constructor(
    private readonly accounts: AccountRepository,
    private readonly config: ConfigService<AppConfig, true>,
  ) {
    this.ttlMs = config.get('apiKeys.cacheTtlMs', { infer: true });
    this.staleIfErrorMs = config.get('apiKeys.staleIfErrorMs', { infer: true });
    this.lookupTimeoutMs = config.get('apiKeys.lookupTimeoutMs', { infer: true });
    this.failedLookups = new FailedLookupLimiter(config.get('apiKeys.failedLookupsPerMinute', { infer: true }));
  }

  onModuleInit() {
    // Not registry jobs: both serve this process's own cache (its last-used times, its entries), so every
    // replica runs them, seconds apart, whatever HL_JOBS_ENABLED says and with no job_runs row per round.
    this.touchTimer = setInterval(() => void this.flushLastUsed(), this.config.get('apiKeys.touchIntervalMs', { infer: true }));
    this.touchTimer.unref();
    this.refreshTimer = setInterval(() => void this.refreshInUse(), this.ttlMs / 2);
    this.refreshTimer.unref();
  }

  async beforeApplicationShutdown() {
    clearInterval(this.touchTimer);
    clearInterval(this.refreshTimer);
    await this.flushLastUsed();
  }

  /**
   * What the cache knows of a key without a query: its caller, null for a missing, malformed, unknown or
   * revoked one, undefined when only a lookup can tell. A cache hit (nearly every call) answers
   * synchronously, so the request pipeline awaits nothing for it; so does an expired entry while the key
   * store fails and the entry is within its stale window.
   */
  peek(plaintextKey: string | undefined): ApiCaller | null | undefined {
    if (!plaintextKey) return null;
    const now = Date.now();
    // Keyed by the presented key, so a hit costs no hashing; only the hash ever reaches the database.
    // Only well-formed keys are ever loaded, so an entry needs no second look at the key's format.
    const hit = this.entries.get(plaintextKey);
    if (hit && (hit.expiresAt > now || (this.storeFailing && this.withinStaleWindow(hit, now)))) {
      hit.lastUsedAt = now;
      return this.used(hit.caller, now);
    }
    const unknownUntil = this.unknown.get(plaintextKey);
    if ((unknownUntil !== undefined && unknownUntil > now) || !API_KEY_PATTERN.test(plaintextKey)) return null;
    return undefined;
  }

  /**
   * Reads a well-formed key the cache does not know (peek answered undefined). Refused with 429
   * RATE_LIMITED, before any query, while `clientAddress` is over its limit of unknown keys. When the key
   * store fails, the entry last read is answered if within its stale window, else 503 SERVICE_UNAVAILABLE.
   */
  async lookUp(plaintextKey: string, clientAddress: string): Promise<ApiCaller | null> {
    const now = Date.now();
    // While the store fails no lookup can find a key unknown: a client's count holds only lookups still out,
    // each to be forgiven when it fails, and refusing on it would lock the client out for the outage.
    const retryAfter = this.storeFailing ? 0 : this.failedLookups.retryAfterSeconds(clientAddress, now);
    if (retryAfter > 0) {
      throw new AppError(ErrorCode.RATE_LIMITED, `x-api-key: too many unknown keys from this client; retry in ${retryAfter} s`, {
        [HEADER.retryAfter]: String(retryAfter),
      });
    }
    // One count per key read, not per request joining it: concurrent first calls with a valid key share one.
    const starts = !this.loading.has(plaintextKey);
    if (starts) this.failedLookups.recordLookup(clientAddress, now);
    let caller: ApiCaller | null;
    try {
      caller = await this.load(plaintextKey);
    } catch {
      // Not an unknown key: nobody could tell.
      if (starts) this.failedLookups.forgive(clientAddress, now);
      return this.used(this.staleEntry(plaintextKey), now);
    }
    if (caller && starts) this.failedLookups.forgive(clientAddress, now);
    return this.used(caller, now);
  }

  /** peek, then lookUp when needed. */
  resolve(plaintextKey: string | undefined, clientAddress: string): ApiCaller | null | Promise<ApiCaller | null> {
    const known = this.peek(plaintextKey);
    return known !== undefined ? known : this.lookUp(plaintextKey!, clientAddress);
  }

  /** What the key was last read as, within its stale window; thrown 503 when there is no such read. */
  private staleEntry(plaintextKey: string): ApiCaller | null {
    const entry = this.entries.get(plaintextKey);
    const now = Date.now();
    if (entry && this.withinStaleWindow(entry, now)) {
      // In use again: the refresh rounds re-read it, so it is fresh as soon as the store answers.
      entry.lastUsedAt = now;
      return entry.caller;
    }
    throw new AppError(ErrorCode.SERVICE_UNAVAILABLE, KEY_STORE_UNAVAILABLE);
  }

  private withinStaleWindow(entry: CacheEntry, now: number): boolean {
    return entry.expiresAt + this.staleIfErrorMs > now;
  }

  private used(caller: ApiCaller | null, now: number): ApiCaller | null {
    if (caller) this.lastUsed.set(caller.keyId, now);
    return caller;
  }

  private load(plaintextKey: string): Promise<ApiCaller | null> {
    let pending = this.loading.get(plaintextKey);
    if (!pending) {
      const keyHash = hashApiKey(plaintextKey);
      const readAt = Date.now();
      pending = this.lookups
        .submit(keyHash)
        .then((caller) => {
          if (!caller) {
            this.unknown.set(plaintextKey, readAt + this.ttlMs);
            return null;
          }
          if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
          this.entries.delete(plaintextKey);
          this.entries.set(plaintextKey, { caller, keyHash, expiresAt: readAt + this.ttlMs, lastUsedAt: readAt });
          return caller;
        })
        .finally(() => this.loading.delete(plaintextKey));
      this.loading.set(plaintextKey, pending);
    }
    return pending;
  }

  private async findByHashes(keyHashes: string[]): Promise<Array<ApiCaller | null>> {
    const found = await this.readCallers(keyHashes);
    return keyHashes.map((hash) => found.get(hash) ?? null);
  }

  /**
   * Every read of the key store, lookups and refresh rounds, so that one flag says whether it answers. A
   * read unanswered within API_KEY_LOOKUP_TIMEOUT_MS fails like a refused one: a database that accepts
   * connections and never answers must not hold every request of an uncached key (and, past the TTL,
   * of every key) until its client gives up.
   */
  private async readCallers(keyHashes: string[]): Promise<Map<string, ApiCaller>> {
    try {
      const found = await within(this.accounts.findCallersByKeyHashes(keyHashes), this.lookupTimeoutMs, 'the key store');
      if (this.storeFailing) this.logger.log('API-key lookups work again');
      this.storeFailing = false;
      return found;
    } catch (error) {
      // Once per outage: every lookup and refresh round fails while it lasts.
      if (!this.storeFailing)
        this.logger.warn(`API-key lookups failing, keys read within ${this.staleIfErrorMs} ms past their TTL still served: ${(error as Error).message}`);
      this.storeFailing = true;
      throw error;
    }
  }

  /**
   * Re-reads every known key used within ACTIVE_KEY_WINDOW_MS (every half TTL, so well before it expires),
   * so keys in use never wait for the database. Entries past their stale window go (until then they may be
   * served while the key store fails). Freshness counts from when the query was sent: a revocation
   * committed after that is caught by the next round, still within the TTL.
   */
  async refreshInUse(): Promise<void> {
    if (this.refreshing) return;
    this.refreshing = true;
    try {
      const now = Date.now();
      const due: Array<[string, CacheEntry]> = [];
      for (const [key, entry] of this.entries) {
        if (!this.withinStaleWindow(entry, now)) this.entries.delete(key);
        else if (entry.caller && now - entry.lastUsedAt < ACTIVE_KEY_WINDOW_MS) due.push([key, entry]);
      }
      for (let i = 0; i < due.length; i += REFRESH_CHUNK) await this.refresh(due.slice(i, i + REFRESH_CHUNK));
    } catch (error) {
      // The entries age into their stale window and requests load them one by one (readCallers logs store failures).
      if (!this.storeFailing) this.logger.warn(`API-key refresh failed: ${(error as Error).message}`);
    } finally {
      this.refreshing = false;
    }
  }

  private async refresh(due: Array<[string, CacheEntry]>): Promise<void> {
    const readAt = Date.now();
    const found = await this.readCallers(due.map(([, entry]) => entry.keyHash));
    for (const [key, entry] of due) {
      // A request may have reloaded the key meanwhile; its entry is at least as fresh as this one.
      if (this.entries.get(key) !== entry) continue;
      this.entries.set(key, { caller: found.get(entry.keyHash) ?? null, keyHash: entry.keyHash, expiresAt: readAt + this.ttlMs, lastUsedAt: entry.lastUsedAt });
    }
  }

  async flushLastUsed(): Promise<void> {
    if (this.lastUsed.size === 0) return;
    const batch = this.lastUsed;
    this.lastUsed = new Map();
    await this.accounts.touchKeys(batch).catch((error) => this.logger.warn(`last-used update failed: ${(error as Error).message}`));
  }
}
