import { Module } from '@nestjs/common';
import { HlJobsModule } from '../hl/jobs/hl-jobs.module';
import { HlSnapshotModule } from '../hl/snapshot/hl-snapshot.module';
import { CohortPositionsService } from './cohort-positions.service';
import { CohortsController } from './cohorts.controller';
import { CohortsRepository } from './cohorts.repository';
import { CohortsService } from './cohorts.service';

/** Cohorts (backend API only): named address sets a wallet tracks, fed into the polled address universe. */
@Module({
  imports: [HlJobsModule, HlSnapshotModule],
  controllers: [CohortsController],
  providers: [CohortsRepository, CohortsService, CohortPositionsService],
})
export class CohortsModule {}
