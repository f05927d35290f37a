import { HttpServer } from '@nestjs/common';
import type { WindowStanding } from '../billing/billing.public';
import { AppError } from '../../common/errors/app-error';
import { ErrorCode } from '../../common/errors/error-code';
import { HEADER } from '../../common/http/response-headers';

/**
 * The per-key window's response headers: the contract's X-RateLimit-* and the IETF draft's fields
 * (draft-ietf-httpapi-ratelimit-headers: the policy, then what is left of it). The texts that change
 * only with the tier or the minute are made once, not on every call.
 */
export class RateLimitHeaders {
  private readonly policies = new Map<number, { limit: string; policy: string }>();
  private reset = { at: 0, text: '0' };

  /** Sets the five headers on a response that has not been sent yet. */
  set(adapter: HttpServer, res: unknown, result: WindowStanding, nowMs: number): void {
    let policy = this.policies.get(result.limit);
    if (!policy) {
      policy = { limit: String(result.limit), policy: `"minute";q=${result.limit};w=60` };
      this.policies.set(result.limit, policy);
    }
    if (result.resetAt !== this.reset.at) this.reset = { at: result.resetAt, text: String(result.resetAt) };
    const remaining = String(result.remaining);
    adapter.setHeader(res, HEADER.rateLimitLimit, policy.limit);
    adapter.setHeader(res, HEADER.rateLimitRemaining, remaining);
    adapter.setHeader(res, HEADER.rateLimitReset, this.reset.text);
    adapter.setHeader(res, HEADER.rateLimitPolicy, policy.policy);
    adapter.setHeader(res, HEADER.rateLimit, `"minute";r=${remaining};t=${Math.max(0, result.resetAt - Math.floor(nowMs / 1000))}`);
  }
}

/** The same five headers as a plain record, for a 429 thrown where no response is at hand (the error filter sets them). */
export function rateLimitHeaderValues(result: WindowStanding, nowMs: number): Record<string, string> {
  return {
    [HEADER.rateLimitLimit]: String(result.limit),
    [HEADER.rateLimitRemaining]: String(result.remaining),
    [HEADER.rateLimitReset]: String(result.resetAt),
    [HEADER.rateLimitPolicy]: `"minute";q=${result.limit};w=60`,
    [HEADER.rateLimit]: `"minute";r=${result.remaining};t=${Math.max(0, result.resetAt - Math.floor(nowMs / 1000))}`,
  };
}

/** The 429 of a key over its per-minute cap, with Retry-After: the seconds until its next window opens. */
export function rateLimitedError(result: WindowStanding, nowMs: number): AppError {
  const retryAfter = Math.max(1, result.resetAt - Math.floor(nowMs / 1000));
  return new AppError(ErrorCode.RATE_LIMITED, `rate limit of ${result.limit} requests per minute exceeded`, {
    [HEADER.retryAfter]: String(retryAfter),
  });
}
