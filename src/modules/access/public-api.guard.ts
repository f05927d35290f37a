import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { HttpAdapterHost, Reflector } from '@nestjs/core';
import { ApiCallerCache } from '../account/api-caller.cache';
import { AdmissionResult, AdmissionService, AdmitStatus, microToCredits } from '../billing/billing.public';
import { PublicRoute } from './public-endpoint.decorator';
import { refuseAnyQuery, RouteAccess, routeAccessOf, WalletSessionAccess } from './route-access';
import { WALLET_SESSION_VERIFIER, WalletSessionVerifier } from './wallet-session.verifier';
import { AppError } from '../../common/errors/app-error';
import { ErrorCode } from '../../common/errors/error-code';
import { clientAddress } from '../../common/http/client-address';
import { rawRequest } from '../../common/http/request-state';
import { ServerResponse } from 'node:http';
import { HttpShutdownService } from '../../infra/http/http-shutdown.service';
import { CallState, callState } from './call-state';
import { HEADER } from '../../common/http/response-headers';
import { RateLimitHeaders, rateLimitedError } from './rate-limit-headers';

type HeaderBag = { method?: string; headers: Record<string, string | string[] | undefined> };

/**
 * Default-deny access for every route, by the audience it declares (common/auth/audience.ts): `open` passes,
 * `wallet-session` needs a session the WALLET_SESSION_VERIFIER accepts (401 UNAUTHORIZED otherwise), a
 * route that declares none is refused 403 FORBIDDEN (the start-up check, AudienceCheck, normally stops the
 * app first), and `public-key` routes run the key pipeline.
 *
 * Steps 1 to 3 of the public pipeline, in the contract's order, for every `public-key` route:
 * 1. key auth: x-api-key -> caller, or 401 INVALID_API_KEY;
 * 2. and 3. in one KV round trip: the per-key fixed window (X-RateLimit-*, the IETF RateLimit fields,
 *    429 with Retry-After) and the credit charge (403 INSUFFICIENT_CREDITS), with the headers that say
 *    how both stand. Refunds of failed calls and the envelope are the error filter's.
 * A HEAD is answered as its GET would be, but is never billed nor counted in /usage (it returns no body);
 * it still counts in the key's window, being a request of that key.
 *
 * One guard for the three, not one per step: Nest awaits each guard's answer in turn, and a second guard
 * cost every call another pass of that loop (docs/benchmarks.md).
 */
@Injectable()
export class PublicApiGuard implements CanActivate {
  private readonly rateLimitHeaders = new RateLimitHeaders();

  constructor(
    private readonly reflector: Reflector,
    private readonly callers: ApiCallerCache,
    private readonly admissions: AdmissionService,
    private readonly adapterHost: HttpAdapterHost,
    @Inject(WALLET_SESSION_VERIFIER) private readonly walletSessions: WalletSessionVerifier,
    connections: HttpShutdownService,
  ) {
    connections.onResponseCut((res: ServerResponse) => this.refundIfUnanswered(callState(res.req)));
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const route = routeAccessOf(this.reflector, context);
    if (route.audience !== 'public-key') return this.admitOutsideKeyPipeline(route, context);
    // The adapter's request and response: switchToHttp() would make three closures on every call.
    const [req, res] = context.getArgs<[HeaderBag, unknown]>();
    const state = callState(req);

    const header = req.headers['x-api-key'];
    const key = typeof header === 'string' ? header.trim() : undefined;
    // A cached key (nearly every call) is answered without a promise to wait for.
    const known = this.callers.peek(key);
    // The filter must not look the key up again for a request whose lookup failed here (a database outage).
    state.keyLookedUp = true;
    const caller = known !== undefined ? known : await this.callers.lookUp(key!, clientAddress(req));
    if (!caller) {
      throw new AppError(ErrorCode.INVALID_API_KEY, header ? 'x-api-key: unknown or revoked key' : 'x-api-key: header is required');
    }
    state.caller = caller;

    const nowMs = Date.now();
    const billable = req.method !== 'HEAD';
    const result = await this.admissions.admit({ caller, endpoint: route.endpoint, cost: route.cost, requestId: state.requestId, nowMs, billable });
    // Charged from here on: whatever fails later (these headers, validation, the handler, serialisation)
    // reaches the error filter, which refunds the call; a client that leaves before its answer is written
    // is refunded too (refundIfUnanswered).
    if (result.status === AdmitStatus.ADMITTED) {
      state.admission = result.admission;
      // The connection closed while the admission was out: nobody will read the answer.
      if (rawRequest(req).socket?.destroyed === true) this.refundIfUnanswered(state);
    }
    this.setAdmissionHeaders(res, route, result, nowMs);
    if (result.status === AdmitStatus.RATE_LIMITED) throw rateLimitedError(result, nowMs);
    if (result.status === AdmitStatus.INSUFFICIENT_CREDITS) {
      throw new AppError(ErrorCode.INSUFFICIENT_CREDITS, `monthly credits exhausted; the next period starts at ${result.periodEndsAt.toISOString()}`);
    }
    // After admission, like a query DTO's refusal: the call is refunded and its headers say so.
    if (route.takesNoQuery) refuseAnyQuery(rawRequest(req).url ?? '');
    return true;
  }

  /**
   * The connection closed before the whole answer was handed to it (the client timed out or went away, or
   * the server cut it): the client never got the success it would be billed for (contract 7.1), so the
   * call is settled as failed. An answer that was written (finished) keeps its charge. Heard once per
   * connection (HttpDrain), not per request: a listener on every answer cost the billed route a tenth.
   */
  private refundIfUnanswered(state: CallState): void {
    if (state.admission) void this.admissions.settleFailure(state.admission, state.requestId);
  }

  /** Synchronous for open routes: returning a promise from canActivate would cost them extra ticks. */
  private admitOutsideKeyPipeline(route: RouteAccess, context: ExecutionContext): boolean | Promise<boolean> {
    if (route.audience === 'open') return true;
    if (route.audience === 'wallet-session') return this.admitWalletSession(route, context.getArgs<[HeaderBag]>()[0]);
    // The caller did nothing wrong; the route is missing its declaration (logged once per route).
    throw new AppError(ErrorCode.FORBIDDEN, 'route: not open to any caller');
  }

  private async admitWalletSession(route: WalletSessionAccess, req: HeaderBag): Promise<boolean> {
    callState(req).principal = await this.walletSessions.verify(req);
    if (route.takesNoQuery) refuseAnyQuery(rawRequest(req).url ?? '');
    return true;
  }

  /** Every header this step owns, each straight onto the response; the error filter turns X-Credits-Cost to 0 on failures. */
  private setAdmissionHeaders(res: unknown, route: PublicRoute, result: AdmissionResult, nowMs: number): void {
    const adapter = this.adapterHost.httpAdapter;
    // Nothing has answered the request yet unless it was cut short while its admission was out.
    if (adapter.isHeadersSent(res)) return;
    this.rateLimitHeaders.set(adapter, res, result, nowMs);
    const balance = result.admission.balanceMicro;
    // Paid tiers learn their balance on every answer after auth, a 429 included.
    if (balance !== null) adapter.setHeader(res, HEADER.creditsRemaining, microToCredits(balance));
    // Free callers are never metered: their calls cost 0.
    if (result.status === AdmitStatus.ADMITTED) adapter.setHeader(res, HEADER.creditsCost, result.admission.costMicro === 0 ? '0' : route.costText);
  }
}
