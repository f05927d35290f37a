import { HttpServer } from '@nestjs/common';
import { WindowStanding } from '../billing/admission.service';
import { HEADER } from '../http/response-headers';

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
