/**
 * Optional provider of the clock the upstream caches age their values by and the vendors' circuits time their
 * intervals by; unbound, both read Date.now. A global test module binds it to move time past a TTL, a
 * circuit's interval or the stale limit.
 */
export const UPSTREAM_CLOCK = Symbol('UPSTREAM_CLOCK');

export type UpstreamClock = () => number;
