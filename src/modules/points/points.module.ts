import { Module } from '@nestjs/common';
import { PointsLedgerRepository } from './points-ledger.repository';
import { PointsController } from './points.controller';
import { PointsRepository } from './points.repository';
import { PointsService } from './points.service';

/** Points (contract 2.7, 4.6): read with the key; credited by the builder-fills job through PointsLedgerRepository. */
@Module({
  controllers: [PointsController],
  providers: [PointsRepository, PointsService, PointsLedgerRepository],
  exports: [PointsLedgerRepository],
})
export class PointsModule {}
