import { Injectable } from '@nestjs/common';
import { AppError } from '../../common/errors/app-error';
import { ErrorCode } from '../../common/errors/error-code';
import { walletPrincipal, WalletPrincipal } from '../access/principal';
import { SessionRequest, WALLET_SESSION_REQUIRED, WalletSessionVerifier } from '../access/wallet-session.verifier';
import { SessionClaims, SessionTokens } from './session-tokens';
import { WalletSessions } from './wallet-sessions';

const BEARER = /^Bearer +([A-Za-z0-9_-]+\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*)\s*$/i;

/**
 * Admits a `wallet-session` route's request whose bearer token is valid and still its session's current
 * one: a signature check and one KV read. A replaced token is refused here without ending the session
 * (requests sent just before a refresh land after it); only presenting it to refresh counts as reuse.
 */
@Injectable()
export class JwtWalletSessionVerifier implements WalletSessionVerifier {
  constructor(
    private readonly tokens: SessionTokens,
    private readonly sessions: WalletSessions,
  ) {}

  async verify(request: SessionRequest): Promise<WalletPrincipal> {
    const claims = this.claimsOf(request);
    const session = await this.sessions.current(claims);
    return walletPrincipal(session);
  }

  /** The verified claims of the request's bearer token; 401 UNAUTHORIZED when it carries none. */
  claimsOf(request: SessionRequest): SessionClaims {
    const header = request.headers.authorization;
    if (typeof header !== 'string' || !/^Bearer\s/i.test(header)) throw new AppError(ErrorCode.UNAUTHORIZED, WALLET_SESSION_REQUIRED);
    const token = BEARER.exec(header)?.[1];
    if (!token) throw new AppError(ErrorCode.INVALID_TOKEN, 'authorization: not a valid session token');
    return this.tokens.verify(token);
  }
}
