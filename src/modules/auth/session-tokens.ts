import { Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { randomBytes } from 'node:crypto';
import { AppError } from '../../common/errors/app-error';
import { ErrorCode } from '../../common/errors/error-code';
import { AuthClock } from './auth-clock';

/** Who issues backend tokens and who they are for; a token of any other issuer or audience is refused. */
export const TOKEN_ISSUER = 'market-data-api';
export const TOKEN_AUDIENCE = 'market-data-api:backend';
/** Pinned on both sides: a token that names any other algorithm (`none` included) is refused. */
export const TOKEN_ALGORITHM = 'HS256';

/** What a backend session token says: the wallet (`sub`, lower case), its session and the token's own id. */
export interface SessionClaims {
  sub: string;
  sid: string;
  jti: string;
  /** Epoch seconds. */
  iat: number;
  exp: number;
}

/** A token as the auth routes answer it (contract 2.8). */
export interface IssuedToken {
  token: string;
  expiresAt: string;
}

/** Signs and verifies the backend's JWTs (HS256 with JWT_SECRET, through @nestjs/jwt). */
@Injectable()
export class SessionTokens {
  constructor(
    private readonly jwt: JwtService,
    private readonly clock: AuthClock,
  ) {}

  /** The same claims always give the same token, so a refresh retried within its grace is answered identically. */
  issue(claims: SessionClaims): IssuedToken {
    const { sub, sid, jti, iat, exp } = claims;
    const token = this.jwt.sign({ sub, sid, jti, iat, exp }, { algorithm: TOKEN_ALGORITHM, issuer: TOKEN_ISSUER, audience: TOKEN_AUDIENCE });
    return { token, expiresAt: new Date(exp * 1000).toISOString() };
  }

  /** The claims of a token this service signed and that has not expired; 401 otherwise, saying which. */
  verify(token: string): SessionClaims {
    let claims: Partial<SessionClaims>;
    try {
      claims = this.jwt.verify<Partial<SessionClaims>>(token, {
        algorithms: [TOKEN_ALGORITHM],
        issuer: TOKEN_ISSUER,
        audience: TOKEN_AUDIENCE,
        clockTimestamp: Math.floor(this.clock.now() / 1000),
      });
    } catch (error) {
      if ((error as Error).name === 'TokenExpiredError') throw new AppError(ErrorCode.TOKEN_EXPIRED, 'authorization: the token has expired; sign in again');
      throw invalidToken('not a valid session token');
    }
    const { sub, sid, jti, iat, exp } = claims;
    if (typeof sub !== 'string' || typeof sid !== 'string' || typeof jti !== 'string' || typeof iat !== 'number' || typeof exp !== 'number') {
      throw invalidToken('not a valid session token');
    }
    return { sub, sid, jti, iat, exp };
  }
}

/** A random id for a session or a token: 128 bits, URL-safe. */
export function newTokenId(): string {
  return randomBytes(16).toString('base64url');
}

export function invalidToken(reason: string): AppError {
  return new AppError(ErrorCode.INVALID_TOKEN, `authorization: ${reason}`);
}
