import { Module } from '@nestjs/common';
import { FAILED_CALL_SETTLER } from '../../common/filters/failed-call-settler';
import { AccountModule } from '../account/account.module';
import { PublicApiFailureSettler } from './public-api-failure.settler';

/**
 * The public key pipeline's module. Its guard (PublicApiGuard) is registered by AppModule as APP_GUARD,
 * in pipeline order with the filter; here the filter's billing part, behind common's token.
 */
@Module({
  imports: [AccountModule],
  providers: [PublicApiFailureSettler, { provide: FAILED_CALL_SETTLER, useExisting: PublicApiFailureSettler }],
  exports: [FAILED_CALL_SETTLER],
})
export class AccessModule {}
