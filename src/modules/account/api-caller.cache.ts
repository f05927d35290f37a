import { Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
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
export class ApiCallerCache implements OnModuleInit, OnApplicationShutdown {
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

  async onApplicationShutdown() {
    clearInterval(this.touchTimer);
    await this.flushLastUsed();
  }

  async resolve(plaintextKey: string | undefined): Promise<ApiCaller | null> {
    if (!plaintextKey || !API_KEY_PATTERN.test(plaintextKey)) return null;
    const hash = hashApiKey(plaintextKey);
    const now = Date.now();
    const hit = this.entries.get(hash);
    const caller = hit && hit.expiresAt > now ? hit.caller : await this.load(hash);
    if (caller) this.lastUsed.set(caller.keyId, new Date(now));
    return caller;
  }

  private load(hash: string): Promise<ApiCaller | null> {
    let pending = this.loading.get(hash);
    if (!pending) {
      pending = this.accounts
        .findCallerByKeyHash(hash)
        .then((caller) => {
          if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
          this.entries.delete(hash);
          this.entries.set(hash, { caller, expiresAt: Date.now() + this.ttlMs });
          return caller;
        })
        .finally(() => this.loading.delete(hash));
      this.loading.set(hash, pending);
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
