import { Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { JwtModule } from '@nestjs/jwt';
import { AppConfig } from '../../config/app.config';
import { AuthClock } from './auth-clock';
import { JwtWalletSessionVerifier } from './jwt-wallet-session.verifier';
import { SessionTokens, TOKEN_ALGORITHM } from './session-tokens';
import { WalletSessions } from './wallet-sessions';

/** Session tokens and records: what the access guard needs to admit a `wallet-session` route, and sign-in to issue one. */
@Module({
  imports: [
    JwtModule.registerAsync({
      inject: [ConfigService],
      useFactory: (config: ConfigService<AppConfig, true>) => ({
        secret: config.get('security.jwtSecret', { infer: true }),
        signOptions: { algorithm: TOKEN_ALGORITHM },
        verifyOptions: { algorithms: [TOKEN_ALGORITHM] },
      }),
    }),
  ],
  providers: [AuthClock, SessionTokens, WalletSessions, JwtWalletSessionVerifier],
  exports: [AuthClock, WalletSessions, JwtWalletSessionVerifier],
})
export class WalletSessionModule {}
