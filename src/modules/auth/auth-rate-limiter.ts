import { Inject, Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { AppConfig } from '../../config/app.config';
import { KV_STORE, KvStore } from '../../infra/kv/kv-store';
import { addressGroup } from '../../common/guards/failed-lookup-limiter';
import type { WindowStanding } from '../billing/billing.public';
import { AppError } from '../../common/errors/app-error';
import { rateLimitedError, rateLimitHeaderValues } from '../access/rate-limit-headers';
import { AuthClock } from './auth-clock';
import { AuthKeys, COUNT_WINDOW_SCRIPT } from './auth.scripts';

const WINDOW_MS = 60_000;
/** The window key outlives its minute a little, so a late INCR never starts a fresh count. */
const WINDOW_KEY_TTL_MS = 65_000;

/**
 * The auth routes' own fixed one-minute windows, shared by every replica (contract 8.9 shows none):
 * one per client address (IPv6 by /64) over all four routes, and one per wallet address. The wallet's
 * window counts only requests that prove the wallet (a correctly signed sign-in, refresh, logout): a
 * window anyone could spend by naming an address would let them lock its owner out of signing in.
 */
@Injectable()
export class AuthRateLimiter {
  private readonly limits: AppConfig['auth']['rateLimit'];

  constructor(
    @Inject(KV_STORE) private readonly kv: KvStore,
    private readonly clock: AuthClock,
    config: ConfigService<AppConfig, true>,
  ) {
    this.limits = config.get('auth.rateLimit', { infer: true });
  }

  /** Counts a call from `clientAddress`; 429 with Retry-After past the limit. Answers the window's standing. */
  takeForClient(clientAddress: string): Promise<WindowStanding> {
    return this.take(`ip:${addressGroup(clientAddress)}`, this.limits.perIp);
  }

  takeForWallet(walletAddress: string): Promise<WindowStanding> {
    return this.take(`wallet:${walletAddress}`, this.limits.perAddress);
  }

  private async take(bucket: string, limit: number): Promise<WindowStanding> {
    const nowMs = this.clock.now();
    const windowIndex = Math.floor(nowMs / WINDOW_MS);
    const count = await this.kv.run(COUNT_WINDOW_SCRIPT, [AuthKeys.window(bucket, windowIndex)], [WINDOW_KEY_TTL_MS]);
    const standing = { limit, remaining: Math.max(0, limit - count), resetAt: ((windowIndex + 1) * WINDOW_MS) / 1000 };
    if (count > limit) {
      const refusal = rateLimitedError(standing, nowMs);
      throw new AppError(refusal.code, refusal.message, { ...rateLimitHeaderValues(standing, nowMs), ...refusal.headers });
    }
    return standing;
  }
}
