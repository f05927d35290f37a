import { WalletPrincipal } from './principal';

/** The request as a verifier sees it: its headers (the session token travels in `authorization`). */
export interface SessionRequest {
  headers: Record<string, string | string[] | undefined>;
}

/**
 * Turns a request of a `wallet-session` route into the wallet it serves. The access guard calls it for
 * every such route; a request without a valid session must make it throw AppError(UNAUTHORIZED).
 */
export interface WalletSessionVerifier {
  verify(request: SessionRequest): Promise<WalletPrincipal>;
}

export const WALLET_SESSION_VERIFIER = Symbol('WALLET_SESSION_VERIFIER');

export const WALLET_SESSION_REQUIRED = 'authorization: a wallet session is required';
