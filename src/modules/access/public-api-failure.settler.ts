import { Injectable } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { AppError } from '../../common/errors/app-error';
import { FailedCallParams, FailedCallSettler } from '../../common/filters/failed-call-settler';
import { clientAddress } from '../../common/http/client-address';
import { rawRequest } from '../../common/http/request-state';
import { HEADER } from '../../common/http/response-headers';
import { ApiCallerCache } from '../account/api-caller.cache';
import { AdmissionService, AdmitStatus, microToCredits } from '../billing/billing.public';
import { callState } from './call-state';
import { PUBLIC_API_PREFIX } from './public-endpoint.decorator';
import { RateLimitHeaders, rateLimitedError } from './rate-limit-headers';

const PUBLIC_PATH = `/${PUBLIC_API_PREFIX}/`;

/** The key pipeline's part of every error answer: refunds of failed calls, and the window of unrouted ones. */
@Injectable()
export class PublicApiFailureSettler implements FailedCallSettler {
  private readonly rateLimitHeaders = new RateLimitHeaders();

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly admissions: AdmissionService,
    private readonly callers: ApiCallerCache,
  ) {}

  async settle({ exception, req, res, headers }: FailedCallParams): Promise<AppError | undefined> {
    const state = callState(req);
    let replacement: AppError | undefined;
    // A call admitted and then failed (validation, handler) is refunded before its error goes out: never billed.
    if (state.admission) await this.admissions.settleFailure(state.admission, state.requestId);
    // The framework answered before any route's guard ran (unknown route, another method, a refused body).
    else if (!state.keyLookedUp && !(exception instanceof AppError) && isPublicApiPath(req))
      replacement = await this.windowUnrouted(req, res, state.requestId, headers);
    const balance = state.admission?.balanceMicro;
    if (balance) headers[HEADER.creditsRemaining] = microToCredits(balance);
    return replacement;
  }

  /**
   * A request of a known key that no route answered is still a request of that key (contract 8.1): it
   * counts in the key's window and carries its rate-limit headers, but is not billed nor counted in
   * /usage; over the cap it is answered 429 like any other. Without a known key (none, unknown, one the
   * key store could not check, or a client refused further lookups) the framework's answer stands, without
   * rate-limit headers: no route answers it either way.
   */
  private async windowUnrouted(req: unknown, res: unknown, requestId: string, headers: Record<string, string>): Promise<AppError | undefined> {
    const header = rawRequest(req).headers['x-api-key'];
    if (typeof header !== 'string' || !header.trim()) return undefined;
    let caller;
    try {
      caller = await this.callers.resolve(header.trim(), clientAddress(req));
    } catch {
      return undefined;
    }
    if (!caller) return undefined;
    const nowMs = Date.now();
    let result;
    try {
      result = await this.admissions.admitUnrouted({ caller, requestId, nowMs });
    } catch {
      // The credits store did not answer: the framework's answer stands, without the window's headers.
      return undefined;
    }
    if (this.adapterHost.httpAdapter.isHeadersSent(res)) return undefined;
    this.rateLimitHeaders.set(this.adapterHost.httpAdapter, res, result, nowMs);
    if (result.balanceMicro !== null) headers[HEADER.creditsRemaining] = microToCredits(result.balanceMicro);
    return result.status === AdmitStatus.RATE_LIMITED ? rateLimitedError(result, nowMs) : undefined;
  }
}

function isPublicApiPath(req: unknown): boolean {
  const url = rawRequest(req).url ?? '';
  return url.startsWith(PUBLIC_PATH) || url === PUBLIC_PATH.slice(0, -1) || url.startsWith(`${PUBLIC_PATH.slice(0, -1)}?`);
}
