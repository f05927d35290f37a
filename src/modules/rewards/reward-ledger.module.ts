import { Module } from '@nestjs/common';
import { RewardClaimsService } from './reward-claims.service';
import { RewardRoundsRepository } from './reward-rounds.repository';

/** The claim rounds' storage, shared by the programmes that read it (referrals, OPC) and the publisher. */
@Module({
  providers: [RewardRoundsRepository, RewardClaimsService],
  exports: [RewardRoundsRepository, RewardClaimsService],
})
export class RewardLedgerModule {}
