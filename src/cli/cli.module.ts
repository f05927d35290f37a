import { DynamicModule, Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { AppConfig } from '../config/app.config';
import { ENTITIES } from '../app-entities';
import { DatabaseModule } from '../infra/database/database.module';
import { KvModule } from '../infra/kv/kv.module';
import { JobsModule } from '../jobs/jobs.module';
import { AccountModule } from '../modules/account/account.module';
import { HlJobsModule } from '../modules/hl/jobs/hl-jobs.module';
import { MarketsCatalogueModule } from '../modules/markets/markets-catalogue.module';
import { NewsJobsModule } from '../modules/news/news-jobs.module';
import { NotificationsJobsModule } from '../modules/notifications/notifications-jobs.module';
import { BuilderFillsJobsModule } from '../modules/builder-fills/builder-fills-jobs.module';
import { RewardsModule } from '../modules/rewards/rewards.module';

/**
 * The slice of the application the ops commands need: accounts and keys (operator changes go to
 * PostgreSQL and bump credit_epoch, which every replica picks up when it re-reads the caller), and the
 * jobs with the KV store their locks and the upstream weight budget live in, the Markets catalogue and the news jobs.
 */
@Module({})
export class CliModule {
  static register(config: AppConfig): DynamicModule {
    return {
      module: CliModule,
      imports: [
        ConfigModule.forRoot({ isGlobal: true, ignoreEnvFile: true, load: [() => config] }),
        DatabaseModule.forRoot(ENTITIES),
        KvModule,
        AccountModule,
        JobsModule,
        HlJobsModule,
        MarketsCatalogueModule,
        NewsJobsModule,
        NotificationsJobsModule,
        BuilderFillsJobsModule,
        RewardsModule,
      ],
    };
  }
}
