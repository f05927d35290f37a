import { Module } from '@nestjs/common';
import { AccountModule } from '../account/account.module';
import { AuthRateLimitGuard } from './auth-rate-limit.guard';
import { AuthRateLimiter } from './auth-rate-limiter';
import { AuthController } from './auth.controller';
import { AuthService } from './auth.service';
import { LoginChallenges } from './login-challenges';
import { WalletSessionModule } from './wallet-session.module';
import { WalletSignatures } from './wallet-signatures';

/** The backend's wallet sign-in (/api/v1/auth): challenges, signatures, sessions and their rate limits. */
@Module({
  imports: [AccountModule, WalletSessionModule],
  controllers: [AuthController],
  providers: [AuthService, LoginChallenges, WalletSignatures, AuthRateLimiter, AuthRateLimitGuard],
})
export class AuthModule {}
