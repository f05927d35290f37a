import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { FAILED_CALL_SETTLER } from '../../common/filters/failed-call-settler';
import { AccountModule } from '../account/account.module';
import { AudienceCheck } from './audience.check';
import { PublicApiFailureSettler } from './public-api-failure.settler';
import { JwtWalletSessionVerifier } from '../auth/jwt-wallet-session.verifier';
import { WalletSessionModule } from '../auth/wallet-session.module';
import { WALLET_SESSION_VERIFIER } from './wallet-session.verifier';

/**
 * Access to every route. Its guard (PublicApiGuard) is registered by AppModule as APP_GUARD, in pipeline
 * order with the filter; here the start-up audience check, the filter's billing part behind common's
 * token, and the wallet-session verifier the guard asks (the session module's).
 */
@Module({
  imports: [AccountModule, DiscoveryModule, WalletSessionModule],
  providers: [
    AudienceCheck,
    PublicApiFailureSettler,
    { provide: FAILED_CALL_SETTLER, useExisting: PublicApiFailureSettler },
    { provide: WALLET_SESSION_VERIFIER, useExisting: JwtWalletSessionVerifier },
  ],
  exports: [FAILED_CALL_SETTLER, WALLET_SESSION_VERIFIER],
})
export class AccessModule {}
