import { Injectable } from '@nestjs/common';
import { AccountAdminService } from '../account/account-admin.service';
import { AuthRateLimiter } from './auth-rate-limiter';
import { LoginChallenge, LoginChallenges } from './login-challenges';
import { IssuedToken, SessionClaims } from './session-tokens';
import { WalletSessions } from './wallet-sessions';
import { WalletSignatures } from './wallet-signatures';

/**
 * The backend's sign-in (contract 4.7 and 5.2): a challenge, a signed challenge for a session token, a
 * refresh that replaces the token, a logout. Addresses arrive lower case (the DTOs normalise them).
 */
@Injectable()
export class AuthService {
  constructor(
    private readonly challenges: LoginChallenges,
    private readonly signatures: WalletSignatures,
    private readonly sessions: WalletSessions,
    private readonly accounts: AccountAdminService,
    private readonly limiter: AuthRateLimiter,
  ) {}

  login(address: string): Promise<LoginChallenge> {
    return this.challenges.issue(address);
  }

  /**
   * In the contract's order: the signer is recovered and must be `address`; then the challenge is consumed,
   * which checks it was issued, is unexpired and unused, and is this very text. A bad signature therefore
   * never uses up the challenge: only the wallet itself can spend its nonce.
   */
  async signIn({ address, message, signature }: { address: string; message: string; signature: string }): Promise<IssuedToken> {
    await this.signatures.assertSigned(address, message, signature);
    await this.limiter.takeForWallet(address);
    await this.challenges.consume(address, message);
    const account = await this.accounts.ensureAccount(address);
    return this.sessions.start({ accountId: account.id, walletAddress: address });
  }

  async refresh(claims: SessionClaims): Promise<IssuedToken> {
    await this.limiter.takeForWallet(claims.sub);
    return this.sessions.rotate(claims);
  }

  /** Only the session's current token ends it: a replaced one is refused like on any other route. */
  async logout(claims: SessionClaims): Promise<void> {
    await this.sessions.current(claims);
    await this.sessions.end(claims);
  }
}
