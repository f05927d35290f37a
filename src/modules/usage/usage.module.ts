import { Module } from '@nestjs/common';
import { UsageController } from './usage.controller';
import { UsageService } from './usage.service';

/** The /usage route; the meters behind it are billing's (UsageTotalsService). */
@Module({
  controllers: [UsageController],
  providers: [UsageService],
})
export class UsageModule {}
