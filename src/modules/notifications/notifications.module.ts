import { Module } from '@nestjs/common';
import { NotificationsBackendController } from './notifications-backend.controller';
import { NotificationsJobsModule } from './notifications-jobs.module';
import { NotificationsController } from './notifications.controller';
import { NotificationsRepository } from './notifications.repository';
import { NotificationsService } from './notifications.service';

/** An account's notifications: the public reads (contract 4.6), the wallet's marks and alert settings, and their generator. */
@Module({
  imports: [NotificationsJobsModule],
  controllers: [NotificationsController, NotificationsBackendController],
  providers: [NotificationsRepository, NotificationsService],
  exports: [NotificationsRepository],
})
export class NotificationsModule {}
