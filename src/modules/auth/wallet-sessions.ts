import { ConfigService } from '@nestjs/config';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '../../config/app.config';
import { KV_STORE, KvStore } from '../../infra/kv/kv-store';
import { AuthClock } from './auth-clock';
import { AuthKeys, CREATE_SESSION_SCRIPT, isIssuedToken, PresentedToken, ROTATE_SESSION_SCRIPT } from './auth.scripts';
import { invalidToken, IssuedToken, newTokenId, SessionClaims, SessionTokens } from './session-tokens';

/** A live session as its KV record holds it. */
export interface WalletSession {
  accountId: string;
  walletAddress: string;
}

/**
 * Backend sessions, one KV hash each holding the one token currently valid for it. Every replica reads
 * the same record, so a refresh or a logout stops the old token everywhere at once, and a request costs
 * one read. The record expires with the session (AUTH_SESSION_MAX_MS), however often it is refreshed.
 */
@Injectable()
export class WalletSessions {
  private readonly logger = new Logger(WalletSessions.name);
  private readonly settings: AppConfig['auth'];

  constructor(
    @Inject(KV_STORE) private readonly kv: KvStore,
    private readonly tokens: SessionTokens,
    private readonly clock: AuthClock,
    config: ConfigService<AppConfig, true>,
  ) {
    this.settings = config.get('auth', { infer: true });
  }

  async start({ accountId, walletAddress }: WalletSession): Promise<IssuedToken> {
    const nowMs = this.clock.now();
    const endsAt = seconds(nowMs + this.settings.sessionMaxMs);
    const claims: SessionClaims = { sub: walletAddress, sid: newTokenId(), jti: newTokenId(), iat: seconds(nowMs), exp: this.expiryAt(nowMs, endsAt) };
    await this.kv.run(
      CREATE_SESSION_SCRIPT,
      [AuthKeys.session(claims.sid)],
      [accountId, walletAddress, claims.jti, claims.iat, claims.exp, endsAt, this.settings.sessionMaxMs],
    );
    return this.tokens.issue(claims);
  }

  /** The session a verified token belongs to, if that token is still its current one, exactly as issued. */
  async current(claims: SessionClaims): Promise<WalletSession> {
    const record = await this.kv.hgetall(AuthKeys.session(claims.sid));
    if (!record.jti) throw invalidToken('the session has ended; sign in again');
    if (record.jti !== claims.jti) throw invalidToken('the token was replaced by a refresh');
    if (!isIssuedToken({ address: record.address, iat: record.iat, exp: record.exp }, presented(claims))) throw notAsIssued();
    return { accountId: record.account, walletAddress: record.address };
  }

  /** A successor for the session's current token (the old one stops at once); see ROTATE_SESSION_SCRIPT. */
  async rotate(claims: SessionClaims): Promise<IssuedToken> {
    const nowMs = this.clock.now();
    const token = presented(claims);
    const reply = await this.kv.run(
      ROTATE_SESSION_SCRIPT,
      [AuthKeys.session(claims.sid)],
      [
        claims.jti,
        newTokenId(),
        nowMs,
        this.settings.refreshGraceMs,
        seconds(nowMs),
        seconds(nowMs + this.settings.tokenTtlMs),
        token.sub,
        token.iat,
        token.exp,
      ],
    );
    if (reply[0] === 'ended') throw invalidToken('the session has ended; sign in again');
    if (reply[0] === 'forged') throw notAsIssued();
    if (reply[0] === 'reused') {
      this.logger.warn(`session ${claims.sid} of ${claims.sub} ended: a replaced token was presented again`);
      throw invalidToken('the token was already replaced; the session has ended for safety, sign in again');
    }
    const [, jti, iat, exp] = reply;
    return this.tokens.issue({ sub: claims.sub, sid: claims.sid, jti, iat: Number(iat), exp: Number(exp) });
  }

  async end(claims: SessionClaims): Promise<void> {
    await this.kv.del(AuthKeys.session(claims.sid));
  }

  private expiryAt(nowMs: number, sessionEndsAt: number): number {
    return Math.min(seconds(nowMs + this.settings.tokenTtlMs), sessionEndsAt);
  }
}

/** The claims the session record is checked against, spelled as the KV store keeps them. */
function presented({ sub, iat, exp }: SessionClaims): PresentedToken {
  return { sub, iat: String(iat), exp: String(exp) };
}

// Signed with our secret yet not what we issued: whoever made it holds the secret, so say nothing more.
function notAsIssued() {
  return invalidToken('the token is not the one issued for its session');
}

function seconds(ms: number): number {
  return Math.floor(ms / 1000);
}
