import { Module } from '@nestjs/common';
import { RewardLedgerModule } from '../rewards/reward-ledger.module';
import { ReferralsBackendController } from './referrals-backend.controller';
import { ReferralsController } from './referrals.controller';
import { ReferralsRepository } from './referrals.repository';
import { ReferralsService } from './referrals.service';

/** Referrals (contract 2.7, 4.6, 4.7): bound through the wallet session, read with the key; rebates paid in claim rounds. */
@Module({
  imports: [RewardLedgerModule],
  controllers: [ReferralsController, ReferralsBackendController],
  providers: [ReferralsRepository, ReferralsService],
  exports: [ReferralsRepository],
})
export class ReferralsModule {}
