import { Module } from '@nestjs/common';
import { UsageSyncService } from './usage-sync.service';
import { UsageController } from './usage.controller';
import { UsageRepository } from './usage.repository';
import { UsageService } from './usage.service';

@Module({
  controllers: [UsageController],
  providers: [UsageRepository, UsageService, UsageSyncService],
  exports: [UsageSyncService],
})
export class UsageModule {}
