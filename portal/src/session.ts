import { ApiError, ApiRequest, callApi } from './api';
import type { Challenge, SessionToken } from './types';
import type { ConnectedWallet } from './wallet';

/** A session call refused because the session ended; the page has already been told why (onEnded). */
export class SessionEndedError extends Error {}

/** Refresh this long before the token ends, or a fifth of its lifetime when that is shorter. */
const REFRESH_LEAD_MS = 60_000;
/** expiresAt is the server's clock: one far behind this one must not turn refreshing into a loop (or a 429). */
const MIN_REFRESH_DELAY_MS = 30_000;

/**
 * The wallet session: the token lives in this object only (never in storage, so it dies with the tab),
 * and is rotated shortly before it expires. `onEnded` hears why a session ended without a sign-out.
 */
export class WalletSession {
  private token?: string;
  private refreshTimer?: ReturnType<typeof setTimeout>;

  constructor(private readonly onEnded: (reason: string) => void) {}

  get signedIn(): boolean {
    return this.token !== undefined;
  }

  async signIn(wallet: ConnectedWallet): Promise<void> {
    const { message } = await callApi<Challenge>('/api/v1/auth/login', { method: 'POST', body: { address: wallet.address } });
    const signature = await wallet.signMessage(message);
    this.adopt(await callApi<SessionToken>('/api/v1/auth/sign-message', { method: 'POST', body: { address: wallet.address, message, signature } }));
  }

  /** A call behind the session; a 401 ends it (expired, revoked elsewhere) and rejects with SessionEndedError. */
  async call<T>(path: string, request: Omit<ApiRequest, 'token'> = {}): Promise<T> {
    if (!this.token) throw new SessionEndedError('session: sign in first');
    try {
      return await callApi<T>(path, { ...request, token: this.token });
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 401) throw error;
      this.end(`Session ended (${error.message}). Sign in again.`);
      throw new SessionEndedError(error.message);
    }
  }

  async signOut(): Promise<void> {
    const token = this.token;
    this.forget();
    // Forgotten first: even if the server cannot be told, this tab no longer holds the token.
    if (token) await callApi('/api/v1/auth/logout', { method: 'POST', token });
  }

  private adopt({ token, expiresAt }: SessionToken): void {
    this.token = token;
    clearTimeout(this.refreshTimer);
    const left = Date.parse(expiresAt) - Date.now();
    const delay = Math.max(MIN_REFRESH_DELAY_MS, left - Math.min(REFRESH_LEAD_MS, left / 5));
    this.refreshTimer = setTimeout(() => void this.refresh(), delay);
  }

  private async refresh(): Promise<void> {
    const token = this.token;
    if (!token) return;
    try {
      const next = await callApi<SessionToken>('/api/v1/auth/refresh', { method: 'POST', token });
      // A sign-out while the refresh was in flight wins.
      if (this.token === token) this.adopt(next);
    } catch (error) {
      if (this.token === token) this.end(`Session ended (${error instanceof Error ? error.message : String(error)}). Sign in again.`);
    }
  }

  private end(reason: string): void {
    if (!this.token) return;
    this.forget();
    this.onEnded(reason);
  }

  private forget(): void {
    this.token = undefined;
    clearTimeout(this.refreshTimer);
    this.refreshTimer = undefined;
  }
}
