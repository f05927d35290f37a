import { Global, Module } from '@nestjs/common';
import { ScheduleModule } from '@nestjs/schedule';
import { JobRegistry } from './job-registry';
import { JobRunner } from './job-runner';
import { JobRunsRepository } from './job-runs.repository';
import { JobsSchedule } from './jobs.schedule';

@Global()
@Module({
  imports: [ScheduleModule.forRoot()],
  providers: [JobRegistry, JobRunner, JobRunsRepository, JobsSchedule],
  exports: [JobRegistry, JobRunner, JobRunsRepository],
})
export class JobsModule {}
