import { DynamicModule, Module, ModuleMetadata } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { ENTITIES } from './app-entities';
import { AccessModule } from './modules/access/access.module';
import { BillingModule } from './modules/billing/billing.module';
import { ErrorEnvelopeFilter } from './common/filters/error-envelope.filter';
import { PublicApiGuard } from './modules/access/public-api.guard';
import { AppConfig } from './config/app.config';
import { DatabaseModule } from './infra/database/database.module';
import { HttpShutdownService } from './infra/http/http-shutdown.service';
import { KvModule } from './infra/kv/kv.module';
import { AccountModule } from './modules/account/account.module';
import { HealthModule } from './modules/health/health.module';
import { HlModule } from './modules/hl/hl.module';
import { MarketsModule } from './modules/markets/markets.module';
import { StocksModule } from './modules/stocks/stocks.module';
import { NewsModule } from './modules/news/news.module';
import { UsageModule } from './modules/usage/usage.module';
import { AuthModule } from './modules/auth/auth.module';
import { DeveloperModule } from './modules/developer/developer.module';
import { JobsModule } from './jobs/jobs.module';
import { HlJobsModule } from './modules/hl/jobs/hl-jobs.module';
import { OpsModule } from './modules/ops/ops.module';
import { MetricsModule } from './modules/metrics/metrics.module';
import { PortalModule } from './modules/portal/portal.module';
import { CohortsModule } from './modules/cohorts/cohorts.module';
import { WatchlistModule } from './modules/watchlist/watchlist.module';
import { NotificationsModule } from './modules/notifications/notifications.module';
import { BuilderFillsJobsModule } from './modules/builder-fills/builder-fills-jobs.module';
import { FeesModule } from './modules/fees/fees.module';
import { PointsModule } from './modules/points/points.module';
import { OpcModule } from './modules/opc/opc.module';
import { ReferralsModule } from './modules/referrals/referrals.module';
import { RewardsModule } from './modules/rewards/rewards.module';

export type ModuleImport = NonNullable<ModuleMetadata['imports']>[number];

/**
 * The modular monolith. Global providers are listed in pipeline order: key auth, then admission
 * (rate limit + credit hold); the envelope and success settlement wrap each handler (@Enveloped, part of
 * @PublicApiController); one filter answers every error and refunds failed calls. Request ids are
 * assigned by an adapter hook (app.factory.ts) before anything else runs.
 */
@Module({})
export class AppModule {
  static register(config: AppConfig, extraImports: ModuleImport[] = []): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot({ isGlobal: true, ignoreEnvFile: true, load: [() => config] }),
        DatabaseModule.forRoot(ENTITIES),
        AccessModule,
        KvModule,
        BillingModule,
        HealthModule,
        AccountModule,
        UsageModule,
        AuthModule,
        DeveloperModule,
        HlModule,
        MarketsModule,
        StocksModule,
        NewsModule,
        JobsModule,
        HlJobsModule,
        OpsModule,
        PortalModule,
        WatchlistModule,
        NotificationsModule,
        CohortsModule,
        FeesModule,
        PointsModule,
        ReferralsModule,
        OpcModule,
        RewardsModule,
        BuilderFillsJobsModule,
        ...(config.metrics.enabled ? [MetricsModule] : []),
        ...extraImports,
      ],
      providers: [
        { provide: APP_GUARD, useClass: PublicApiGuard },
        { provide: APP_FILTER, useClass: ErrorEnvelopeFilter },
        // Here, in the root module: its stop hook runs before every imported module's (see the class).
        HttpShutdownService,
      ],
    };
  }
}
