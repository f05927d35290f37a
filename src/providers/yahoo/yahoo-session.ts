import { abortableDelay } from '../../common/async/abort';
import { KvStore } from '../../infra/kv/kv-store';
import { tryAcquireLock } from '../../infra/locks/kv-lock';
import { UpstreamError } from '../kit/upstream.error';
import { CrumbRateLimitedError, YahooSession } from './yahoo-handshake';
import { YAHOO_PROVIDER } from './yahoo-values';

export const SESSION_KEY = 'yahoo:session';
export const BACKOFF_KEY = 'yahoo:session:backoff';
const LOCK_NAME = 'yahoo:session';
/** Reused until Yahoo refuses it; the expiry only bounds how long a cookie nobody checked is trusted. */
const SESSION_TTL_MS = 6 * 60 * 60_000;
/** Yahoo's getcrumb blocks can last hours: after a 429 no replica asks again for this long. */
export const CRUMB_BACKOFF_MS = 5 * 60_000;
const POLL_MS = 200;

export interface YahooSessionKeeperOptions {
  kv: KvStore;
  /** Fetches a new cookie and crumb (performHandshake with the client's settings). */
  handshake: (signal?: AbortSignal) => Promise<YahooSession>;
  /** Longest a handshake may take: the lease of the lock, and how long another replica waits for it. */
  handshakeTimeoutMs: number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  now?: () => number;
}

/**
 * Yahoo's cookie and crumb, shared by every replica through the KV store: one replica at a time does the
 * handshake (under a lock), the others wait for its result; within a process concurrent callers share one
 * attempt. A 429 on the handshake is remembered for CRUMB_BACKOFF_MS, during which every replica fails fast.
 */
export class YahooSessionKeeper {
  private inFlight: Promise<YahooSession> | undefined;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  private readonly now: () => number;

  constructor(private readonly options: YahooSessionKeeperOptions) {
    this.sleep = options.sleep ?? abortableDelay;
    this.now = options.now ?? Date.now;
  }

  /** The shared session, fetching one when there is none. Throws UpstreamError only. */
  async current(signal?: AbortSignal): Promise<YahooSession> {
    const stored = await this.read();
    if (stored) return stored;
    // The first caller's signal governs the shared attempt: if that caller stops, the others get its abort too.
    this.inFlight ??= this.acquire(signal).finally(() => (this.inFlight = undefined));
    return this.inFlight;
  }

  /**
   * A new session after Yahoo refused `rejected`. Only that session is dropped: when another caller has
   * already replaced it, the replacement is used without another handshake.
   */
  async renew(rejected: YahooSession, signal?: AbortSignal): Promise<YahooSession> {
    const stored = await this.read();
    if (stored && stored.crumb !== rejected.crumb) return stored;
    if (stored) await this.kvCall(() => this.options.kv.del(SESSION_KEY));
    return this.current(signal);
  }

  private async acquire(signal?: AbortSignal): Promise<YahooSession> {
    const { kv, handshakeTimeoutMs } = this.options;
    const deadline = this.now() + handshakeTimeoutMs;
    for (;;) {
      const stored = await this.read();
      if (stored) return stored;
      if (await this.kvCall(() => kv.get(BACKOFF_KEY))) throw new CrumbRateLimitedError('session (backing off)');
      const lock = await this.kvCall(() => tryAcquireLock(kv, LOCK_NAME, handshakeTimeoutMs));
      if (lock) {
        try {
          return (await this.read()) ?? (await this.handshake(signal));
        } finally {
          await lock.release().catch(() => undefined);
        }
      }
      if (this.now() >= deadline) {
        throw new UpstreamError({ provider: YAHOO_PROVIDER, kind: 'timeout', message: 'session: another replica is still fetching the crumb' });
      }
      try {
        await this.sleep(POLL_MS, signal);
      } catch {
        throw new UpstreamError({ provider: YAHOO_PROVIDER, kind: 'aborted', message: 'session: aborted while waiting for the crumb' });
      }
    }
  }

  private async handshake(signal?: AbortSignal): Promise<YahooSession> {
    const { kv } = this.options;
    try {
      const session = await this.options.handshake(signal);
      await this.kvCall(() => kv.set(SESSION_KEY, JSON.stringify(session), SESSION_TTL_MS));
      return session;
    } catch (err) {
      if (err instanceof CrumbRateLimitedError) await kv.set(BACKOFF_KEY, '1', CRUMB_BACKOFF_MS).catch(() => undefined);
      throw err;
    }
  }

  private async read(): Promise<YahooSession | null> {
    const text = await this.kvCall(() => this.options.kv.get(SESSION_KEY));
    if (text === null) return null;
    try {
      const value = JSON.parse(text) as Partial<YahooSession>;
      if (typeof value.cookie === 'string' && typeof value.crumb === 'string') return { cookie: value.cookie, crumb: value.crumb };
    } catch {
      // An unreadable entry is treated as none and replaced by the next handshake.
    }
    return null;
  }

  /** The store failing is our outage, not Yahoo's; it is reported as the budget store is. */
  private async kvCall<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (err) {
      throw new UpstreamError({ provider: YAHOO_PROVIDER, kind: 'budget', message: 'session store unavailable', cause: err });
    }
  }
}
