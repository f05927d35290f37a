import { Module } from '@nestjs/common';
import { RewardLedgerModule } from '../rewards/reward-ledger.module';
import { OpcBackendController } from './opc-backend.controller';
import { OpcRevenueRepository } from './opc-revenue.repository';
import { OpcController } from './opc.controller';
import { OpcRepository } from './opc.repository';
import { OpcService } from './opc.service';

/** OPCs (contract 2.7, 4.6): configured through the wallet session, read with the key; revenue from their builders' fills. */
@Module({
  imports: [RewardLedgerModule],
  controllers: [OpcController, OpcBackendController],
  providers: [OpcRepository, OpcRevenueRepository, OpcService],
  exports: [OpcRepository, OpcRevenueRepository],
})
export class OpcModule {}
