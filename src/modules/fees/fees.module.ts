import { Module } from '@nestjs/common';
import { FeesController } from './fees.controller';
import { FeesRepository } from './fees.repository';
import { FeesService } from './fees.service';

/** Fee records (contract 2.7, 4.6), from the builder fills the economy.builder-fills job stores. */
@Module({
  controllers: [FeesController],
  providers: [FeesRepository, FeesService],
})
export class FeesModule {}
