import { Inject, Injectable, Logger } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { getAddress } from 'ethers';
import { randomBytes } from 'node:crypto';
import { AppError } from '../../common/errors/app-error';
import { ErrorCode } from '../../common/errors/error-code';
import { AppConfig } from '../../config/app.config';
import { KV_STORE, KvStore } from '../../infra/kv/kv-store';
import { AuthClock } from './auth-clock';
import { HEADER } from '../../common/http/response-headers';
import { AuthKeys, challengeValue, ChallengeOutcome, CONSUME_CHALLENGE_SCRIPT, ISSUE_CHALLENGE_SCRIPT } from './auth.scripts';
import { formatSiweMessage, nonceOfMessage } from './siwe-message';

/** At the bound, a flood would otherwise log a line per refused login. */
const FULL_WARNING_INTERVAL_MS = 60_000;

/** A login challenge as contract 2.8 answers it. */
export interface LoginChallenge {
  message: string;
  nonce: string;
}

/**
 * The Sign-In with Ethereum challenges: issued with a fresh nonce and kept, exact text and all, in the KV
 * store for their lifetime; consumed once, by a sign-in that presents exactly that text. At most
 * AUTH_CHALLENGES_MAX are outstanding at once; past that login answers 503 with Retry-After.
 */
@Injectable()
export class LoginChallenges {
  private readonly logger = new Logger(LoginChallenges.name);
  private readonly settings: AppConfig['auth'];
  private lastFullWarningAt = -Infinity;

  constructor(
    @Inject(KV_STORE) private readonly kv: KvStore,
    private readonly clock: AuthClock,
    config: ConfigService<AppConfig, true>,
  ) {
    this.settings = config.get('auth', { infer: true });
  }

  /** `address` is lower case; the message names it EIP-55 checksummed, as the standard requires. */
  async issue(address: string): Promise<LoginChallenge> {
    const issuedAtMs = this.clock.now();
    const expiresAtMs = issuedAtMs + this.settings.challengeTtlMs;
    // 128 random bits in hex: alphanumeric as EIP-4361 requires, and past guessing.
    const nonce = randomBytes(16).toString('hex');
    const { domain, uri, chainId, statement } = this.settings.siwe;
    const message = formatSiweMessage({
      domain,
      address: getAddress(address),
      statement,
      uri,
      chainId,
      nonce,
      issuedAt: new Date(issuedAtMs),
      expiresAt: new Date(expiresAtMs),
    });
    const { challengeTtlMs, maxOutstanding } = this.settings;
    const reply = await this.kv.run(
      ISSUE_CHALLENGE_SCRIPT,
      [AuthKeys.challenge(nonce), AuthKeys.outstandingChallenges()],
      [nonce, challengeValue(expiresAtMs, address, message), issuedAtMs, expiresAtMs, challengeTtlMs, maxOutstanding],
    );
    if (reply[0] === 'full') throw this.atTheBound(issuedAtMs, Number(reply[1]));
    // 128 random bits do not collide; should they, the caller asks again rather than share a nonce.
    if (reply[0] === 'taken') throw new AppError(ErrorCode.SERVICE_UNAVAILABLE, 'nonce: could not issue a challenge; try again');
    return { message, nonce };
  }

  /** 503 until the oldest outstanding challenge expires: the bound is the service's, not this caller's window. */
  private atTheBound(nowMs: number, oldestExpiresAtMs: number): AppError {
    if (nowMs - this.lastFullWarningAt >= FULL_WARNING_INTERVAL_MS) {
      this.lastFullWarningAt = nowMs;
      this.logger.warn(`login refused: ${this.settings.maxOutstanding} challenges outstanding (AUTH_CHALLENGES_MAX) until some are used or expire`);
    }
    const retryAfterS = Math.max(1, Math.ceil((oldestExpiresAtMs - nowMs) / 1000));
    return new AppError(ErrorCode.SERVICE_UNAVAILABLE, `nonce: too many sign-ins are in progress; try again in ${retryAfterS} s`, {
      [HEADER.retryAfter]: String(retryAfterS),
    });
  }

  /** Uses up the challenge `message` names for `address`; 401 INVALID_CHALLENGE when there is none to use. */
  async consume(address: string, message: string): Promise<void> {
    const nonce = nonceOfMessage(message);
    if (!nonce) throw new AppError(ErrorCode.INVALID_CHALLENGE, 'message: names no nonce; sign the message login returned');
    const outcome = await this.kv.run(
      CONSUME_CHALLENGE_SCRIPT,
      [AuthKeys.challenge(nonce), AuthKeys.outstandingChallenges()],
      [address, message, this.clock.now(), nonce],
    );
    if (outcome === ChallengeOutcome.UNKNOWN) {
      throw new AppError(ErrorCode.INVALID_CHALLENGE, 'message: its nonce is unknown, expired or already used; log in again');
    }
    if (outcome === ChallengeOutcome.MISMATCH) {
      throw new AppError(ErrorCode.INVALID_CHALLENGE, 'message: differs from the challenge issued for this nonce and address');
    }
  }
}
