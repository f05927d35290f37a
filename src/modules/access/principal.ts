import { ApiCaller } from '../account/api-caller';
import { callState } from './call-state';

/** A caller of the public key pipeline: the key holder, as the pipeline resolved the key. */
export interface ApiKeyPrincipal {
  readonly kind: 'api-key';
  readonly accountId: string;
  readonly caller: ApiCaller;
}

/** A caller of the `/api/v1` backend: the wallet a valid session token was issued to. */
export interface WalletPrincipal {
  readonly kind: 'wallet-session';
  readonly accountId: string;
  /** Lower-cased 0x address, as accounts store it. */
  readonly walletAddress: string;
}

/** Whoever a protected route serves: account reads take this, so either kind of caller can reach them. */
export type Principal = ApiKeyPrincipal | WalletPrincipal;

export function apiKeyPrincipal(caller: ApiCaller): ApiKeyPrincipal {
  return { kind: 'api-key', accountId: caller.accountId, caller };
}

export function walletPrincipal({ accountId, walletAddress }: { accountId: string; walletAddress: string }): WalletPrincipal {
  return { kind: 'wallet-session', accountId, walletAddress: walletAddress.toLowerCase() };
}

/**
 * The principal the guard admitted for this request. An API-key caller's is made on first ask from the
 * resolved caller, so the billed route allocates nothing for handlers that never ask. Throws on a route
 * with no principal (an open one): asking there is a programming error, not an anonymous caller.
 */
export function principalOf(req: unknown): Principal {
  const state = callState(req);
  if (state.principal) return state.principal;
  if (!state.caller) throw new Error('no principal on this request: its route is open to anyone');
  state.principal = apiKeyPrincipal(state.caller);
  return state.principal;
}
