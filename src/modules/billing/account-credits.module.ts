import { Module } from '@nestjs/common';
import { AccountCreditsRepository } from './account-credits.repository';

/** The account's credits without the billing runtime (no timers, no outbox): what the ops CLI and the account area need. */
@Module({
  providers: [AccountCreditsRepository],
  exports: [AccountCreditsRepository],
})
export class AccountCreditsModule {}
