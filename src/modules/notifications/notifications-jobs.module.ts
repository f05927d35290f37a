import { Module, OnModuleInit } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { AppConfig } from '../../config/app.config';
import { ReadNotificationsPruneJob } from '../../jobs/housekeeping/read-notifications-prune.job';
import { JobRegistry } from '../../jobs/job-registry';
import { HlJobsModule } from '../hl/jobs/hl-jobs.module';
import { NotificationConditionsRepository } from './jobs/notification-conditions.repository';
import { NotificationsGenerateJob } from './jobs/notifications-generate.job';

const GENERATE_LEASE_MS = 5 * 60_000;
const PRUNE_LEASE_MS = 5 * 60_000;

/** The notifications' jobs: notifications.generate and housekeeping.notifications; the API and the ops CLI both use it. */
@Module({
  imports: [HlJobsModule],
  providers: [NotificationConditionsRepository, NotificationsGenerateJob, ReadNotificationsPruneJob],
})
export class NotificationsJobsModule implements OnModuleInit {
  constructor(
    private readonly registry: JobRegistry,
    private readonly config: ConfigService<AppConfig, true>,
    private readonly generate: NotificationsGenerateJob,
    private readonly prune: ReadNotificationsPruneJob,
  ) {}

  onModuleInit() {
    const schedules = this.config.get('jobs.schedules', { infer: true });
    this.registry.register({
      name: 'notifications.generate',
      ...schedules['notifications.generate'],
      leaseMs: GENERATE_LEASE_MS,
      run: (signal) => this.generate.run(signal),
    });
    this.registry.register({
      name: 'housekeeping.notifications',
      ...schedules['housekeeping.notifications'],
      leaseMs: PRUNE_LEASE_MS,
      run: (signal) => this.prune.run(signal),
    });
  }
}
