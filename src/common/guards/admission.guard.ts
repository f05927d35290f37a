import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { HttpAdapterHost, Reflector } from '@nestjs/core';
import { AdmitStatus } from '../billing/admission.scripts';
import { AdmissionResult, AdmissionService } from '../billing/admission.service';
import { microToCredits } from '../billing/credit-units';
import { publicRouteOf } from '../decorators/public-endpoint.decorator';
import { AppError } from '../errors/app-error';
import { ErrorCode } from '../errors/error-code';
import { requestState } from '../http/request-state';
import { HEADER, setResponseHeaders } from '../http/response-headers';

/**
 * Steps 2 and 3 of the public pipeline in one KV round trip: the per-key fixed window (X-RateLimit-*,
 * the IETF RateLimit fields, 429 with Retry-After) and the credit charge (403 INSUFFICIENT_CREDITS).
 */
@Injectable()
export class AdmissionGuard implements CanActivate {
  private readonly policyTexts = new Map<number, { limit: string; policy: string }>();
  private reset = { at: 0, text: '0' };

  constructor(
    private readonly reflector: Reflector,
    private readonly admissions: AdmissionService,
    private readonly adapterHost: HttpAdapterHost,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const route = publicRouteOf(this.reflector, context);
    if (!route) return true;
    const http = context.switchToHttp();
    const state = requestState(http.getRequest());
    const nowMs = Date.now();
    const result = await this.admissions.admit({
      caller: state.caller!,
      endpoint: route.endpoint,
      cost: route.cost,
      requestId: state.requestId,
      nowMs,
    });
    // Charged from here on: whatever fails later (these headers, validation, the handler, serialisation)
    // reaches the error filter, which refunds the call.
    if (result.status === AdmitStatus.ADMITTED) state.admission = result.admission;
    // One write of every header this step owns; the error filter turns X-Credits-Cost to 0 on failures.
    const headers = this.rateLimitHeaders(result, nowMs);
    const balance = result.admission.balanceMicro;
    if (result.status !== AdmitStatus.RATE_LIMITED && balance !== null) headers[HEADER.creditsRemaining] = microToCredits(balance);
    // Free callers are never metered: their calls cost 0.
    if (result.status === AdmitStatus.ADMITTED) headers[HEADER.creditsCost] = result.admission.costMicro === 0 ? '0' : route.costText;
    setResponseHeaders(this.adapterHost.httpAdapter, http.getResponse(), headers);
    if (result.status === AdmitStatus.RATE_LIMITED) {
      const retryAfter = Math.max(1, result.resetAt - Math.floor(nowMs / 1000));
      throw new AppError(ErrorCode.RATE_LIMITED, `rate limit of ${result.limit} requests per minute exceeded`, {
        [HEADER.retryAfter]: String(retryAfter),
      });
    }
    if (result.status === AdmitStatus.INSUFFICIENT_CREDITS) {
      throw new AppError(
        ErrorCode.INSUFFICIENT_CREDITS,
        `monthly credits exhausted; the next period starts at ${result.periodEndsAt.toISOString()}`,
      );
    }
    return true;
  }

  /** The window's headers; the texts that change only with the tier or the minute are made once. */
  private rateLimitHeaders(result: AdmissionResult, nowMs: number): Record<string, string> {
    let policy = this.policyTexts.get(result.limit);
    if (!policy) {
      // draft-ietf-httpapi-ratelimit-headers: the policy, then what is left of it.
      policy = { limit: String(result.limit), policy: `"minute";q=${result.limit};w=60` };
      this.policyTexts.set(result.limit, policy);
    }
    if (result.resetAt !== this.reset.at) this.reset = { at: result.resetAt, text: String(result.resetAt) };
    const remaining = String(result.remaining);
    return {
      [HEADER.rateLimitLimit]: policy.limit,
      [HEADER.rateLimitRemaining]: remaining,
      [HEADER.rateLimitReset]: this.reset.text,
      [HEADER.rateLimitPolicy]: policy.policy,
      [HEADER.rateLimit]: `"minute";r=${remaining};t=${Math.max(0, result.resetAt - Math.floor(nowMs / 1000))}`,
    };
  }
}
