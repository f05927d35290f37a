import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { HttpAdapterHost, Reflector } from '@nestjs/core';
import { AdmitStatus } from '../billing/admission.scripts';
import { AdmissionResult, AdmissionService } from '../billing/admission.service';
import { microToCredits } from '../billing/credit-units';
import { publicRouteOf } from '../decorators/public-endpoint.decorator';
import { AppError } from '../errors/app-error';
import { ErrorCode } from '../errors/error-code';
import { requestState } from '../http/request-state';
import { setResponseHeaders } from '../http/response-headers';

/**
 * Steps 2 and 3 of the public pipeline in one KV round trip: the per-key fixed window (X-RateLimit-*,
 * the IETF RateLimit fields, 429 with Retry-After) and the credit charge (403 INSUFFICIENT_CREDITS).
 */
@Injectable()
export class AdmissionGuard implements CanActivate {
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
    const headers = rateLimitHeaders(result, nowMs);
    const balance = result.admission.balanceMicro;
    if (result.status !== AdmitStatus.RATE_LIMITED && balance !== null) headers['X-Credits-Remaining'] = microToCredits(balance);
    if (result.status === AdmitStatus.ADMITTED) headers['X-Credits-Cost'] = microToCredits(result.admission.costMicro);
    setResponseHeaders(this.adapterHost.httpAdapter, http.getResponse(), headers);
    if (result.status === AdmitStatus.RATE_LIMITED) {
      const retryAfter = Math.max(1, result.resetAt - Math.floor(nowMs / 1000));
      throw new AppError(ErrorCode.RATE_LIMITED, `rate limit of ${result.limit} requests per minute exceeded`, {
        'Retry-After': String(retryAfter),
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
}

function rateLimitHeaders(result: AdmissionResult, nowMs: number): Record<string, string | number> {
  const secondsToReset = Math.max(0, result.resetAt - Math.floor(nowMs / 1000));
  return {
    'X-RateLimit-Limit': result.limit,
    'X-RateLimit-Remaining': result.remaining,
    'X-RateLimit-Reset': result.resetAt,
    // draft-ietf-httpapi-ratelimit-headers: the policy, then what is left of it.
    'RateLimit-Policy': `"minute";q=${result.limit};w=60`,
    RateLimit: `"minute";r=${result.remaining};t=${secondsToReset}`,
  };
}
