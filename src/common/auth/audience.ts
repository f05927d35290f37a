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
