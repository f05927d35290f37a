import { BoundedMap } from '../memo/bounded-map';

const WINDOW_MS = 60_000;
/** Addresses remembered at once; a flood from more addresses than this forgets the oldest first. */
const MAX_ADDRESSES = 100_000;

interface AddressWindow {
  startMs: number;
  failures: number;
}

/**
 * How many well-formed keys that turned out unknown each client address may present per minute: the
 * lookups that cost a database query. Past the limit the address is refused before any query (429), so
 * a flood of random keys costs the database a handful of queries a minute per address. Cached keys never
 * come here, so a valid key from the same address keeps working. Per replica, in memory: each replica
 * protects its own database pool, and a shared counter would put a KV call on the path it protects.
 */
export class FailedLookupLimiter {
  private readonly windows = new BoundedMap<string, AddressWindow>(MAX_ADDRESSES);

  constructor(private readonly maxPerMinute: number) {}

  /** 0 when `address` may look a key up now, else the seconds until it may. */
  retryAfterSeconds(address: string, nowMs: number): number {
    const window = this.windows.get(addressGroup(address));
    if (!window || nowMs - window.startMs >= WINDOW_MS || window.failures < this.maxPerMinute) return 0;
    return Math.max(1, Math.ceil((window.startMs + WINDOW_MS - nowMs) / 1000));
  }

  /**
   * A lookup from `address` starts, counted as a failure until it finds a key (forgive): counted only once
   * it had failed, a burst of concurrent unknown keys would all pass the check before the first one failed.
   */
  recordLookup(address: string, nowMs: number): void {
    const group = addressGroup(address);
    const window = this.windows.get(group);
    if (window && nowMs - window.startMs < WINDOW_MS) window.failures += 1;
    else this.windows.set(group, { startMs: nowMs, failures: 1 });
  }

  /**
   * The lookup recorded at `startedAtMs` found a key, or got no answer (the key store failed): either way
   * it found no unknown key, so it is not a failure (unless its window has passed).
   */
  forgive(address: string, startedAtMs: number): void {
    const window = this.windows.get(addressGroup(address));
    if (window && window.startMs <= startedAtMs && startedAtMs - window.startMs < WINDOW_MS && window.failures > 0) window.failures -= 1;
  }
}

/**
 * The unit an address is limited by: the address itself for IPv4, the /64 network for IPv6 (one host is
 * usually handed a whole /64, so counting single IPv6 addresses would let it rotate through them).
 */
export function addressGroup(address: string): string {
  if (!address.includes(':')) return address;
  if (address.startsWith('::ffff:') && address.includes('.')) return address.slice(7);
  const [head, tail = ''] = address.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = address.includes('::') ? [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right] : left;
  return `${groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, '').toLowerCase())
    .join(':')}::/64`;
}
