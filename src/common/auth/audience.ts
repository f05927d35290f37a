import { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';

/**
 * Who may call a route. Every route declares one (on its controller or on the handler); a route that
 * declares none is refused, never served openly.
 * - `public-key`: the Public Data API's key pipeline (x-api-key, rate limit, credits);
 * - `wallet-session`: the `/api/v1` backend, behind a wallet-signature JWT session;
 * - `open`: anyone (health probes, metrics, the portal's static files).
 */
export type AudienceName = 'public-key' | 'wallet-session' | 'open';

export const Audience = Reflector.createDecorator<AudienceName>();

/** A route anyone may call: no key, no session, no rate limit, no credits. */
export const OpenRoute = () => Audience('open');

/** A route of the `/api/v1` backend: only a caller with a valid wallet session reaches it. */
export const WalletSessionRoute = () => Audience('wallet-session');

/** A route handler or its controller class, as Nest's execution context names them. */
export type RouteTarget = ReturnType<ExecutionContext['getHandler']>;

/** The audience a route declares, the handler's over its controller's; undefined when neither declares one. */
export function declaredAudienceOf(reflector: Reflector, handler: RouteTarget, controller: RouteTarget): AudienceName | undefined {
  return reflector.getAllAndOverride(Audience, [handler, controller]);
}
