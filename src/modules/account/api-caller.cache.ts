import { BeforeApplicationShutdown, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { ApiCaller } from '../../common/auth/api-caller';
import { AppConfig } from '../../config/app.config';
import { AccountRepository } from './account.repository';
import { API_KEY_PATTERN, hashApiKey } from './api-key-format';

const MAX_ENTRIES = 50_000;

interface CacheEntry {
  caller: ApiCaller | null;
  expiresAt: number;
}

/**
 * Resolves x-api-key to its caller with no database query on the hot path: hits and misses are kept in
 * memory for API_KEY_CACHE_TTL_MS (at most 5 s, so a revoked key stops working on every replica within
 * that), concurrent misses for one key share one query, and last-used times are written in batches.
 */
@Injectable()
export class ApiCallerCache implements OnModuleInit, BeforeApplicationShutdown {
  private readonly logger = new Logger(ApiCallerCache.name);
  private readonly entries = new Map<string, CacheEntry>();
  private readonly loading = new Map<string, Promise<ApiCaller | null>>();
  private lastUsed = new Map<string, Date>();
  private touchTimer?: NodeJS.Timeout;
  private readonly ttlMs: number;

  constructor(
    private readonly accounts: AccountRepository,
    private readonly config: ConfigService<AppConfig, true>,
  ) {
    this.ttlMs = config.get('apiKeys.cacheTtlMs', { infer: true });
  }

  onModuleInit() {
    this.touchTimer = setInterval(() => void this.flushLastUsed(), this.config.get('apiKeys.touchIntervalMs', { infer: true }));
    this.touchTimer.unref();
  }

  async beforeApplicationShutdown() {
    clearInterval(this.touchTimer);
    await this.flushLastUsed();
  }

  async resolve(plaintextKey: string | undefined): Promise<ApiCaller | null> {
    if (!plaintextKey || !API_KEY_PATTERN.test(plaintextKey)) return null;
    const now = Date.now();
    // Keyed by the presented key, so a hit costs no hashing; only the hash ever reaches the database.
    const hit = this.entries.get(plaintextKey);
    const caller = hit && hit.expiresAt > now ? hit.caller : await this.load(plaintextKey);
    if (caller) this.lastUsed.set(caller.keyId, new Date(now));
    return caller;
  }

  private load(plaintextKey: string): Promise<ApiCaller | null> {
    let pending = this.loading.get(plaintextKey);
    if (!pending) {
      pending = this.accounts
        .findCallerByKeyHash(hashApiKey(plaintextKey))
        .then((caller) => {
          if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
          this.entries.delete(plaintextKey);
          this.entries.set(plaintextKey, { caller, expiresAt: Date.now() + this.ttlMs });
          return caller;
        })
        .finally(() => this.loading.delete(plaintextKey));
      this.loading.set(plaintextKey, pending);
    }
    return pending;
  }

  async flushLastUsed(): Promise<void> {
    if (this.lastUsed.size === 0) return;
    const batch = this.lastUsed;
    this.lastUsed = new Map();
    await this.accounts.touchKeys(batch).catch((error) => this.logger.warn(`last-used update failed: ${(error as Error).message}`));
  }
}
