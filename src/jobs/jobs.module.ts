import { Global, Module, OnModuleInit } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { ScheduleModule } from '@nestjs/schedule';
import { AppConfig } from '../config/app.config';
import { JobRunsPruneJob } from './housekeeping/job-runs-prune.job';
import { JobRegistry } from './job-registry';
import { JobRunner } from './job-runner';
import { JobRunsRepository } from './job-runs.repository';
import { JobsSchedule } from './jobs.schedule';

const HOUSEKEEPING_LEASE_MS = 5 * 60_000;

/** The registry, runner and schedule every area's jobs go through, and the jobs' own housekeeping. */
@Global()
@Module({
  imports: [ScheduleModule.forRoot()],
  providers: [JobRegistry, JobRunner, JobRunsRepository, JobsSchedule, JobRunsPruneJob],
  exports: [JobRegistry, JobRunner, JobRunsRepository],
})
export class JobsModule implements OnModuleInit {
  constructor(
    private readonly registry: JobRegistry,
    private readonly config: ConfigService<AppConfig, true>,
    private readonly runsPrune: JobRunsPruneJob,
  ) {}

  onModuleInit() {
    this.registry.register({
      name: 'housekeeping.job-runs',
      ...this.config.get('jobs.schedules', { infer: true })['housekeeping.job-runs'],
      leaseMs: HOUSEKEEPING_LEASE_MS,
      run: (signal) => this.runsPrune.run(signal),
    });
  }
}
