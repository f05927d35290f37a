import { DynamicModule, MiddlewareConsumer, Module, NestModule, RequestMethod } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR } from '@nestjs/core';
import { BillingModule } from './common/billing/billing.module';
import { ErrorEnvelopeFilter } from './common/filters/error-envelope.filter';
import { AdmissionGuard } from './common/guards/admission.guard';
import { ApiKeyGuard } from './common/guards/api-key.guard';
import { CreditSettlementInterceptor } from './common/interceptors/credit-settlement.interceptor';
import { EnvelopeInterceptor } from './common/interceptors/envelope.interceptor';
import { RequestIdMiddleware } from './common/middleware/request-id.middleware';
import { AppConfig } from './config/app.config';
import { DatabaseModule } from './infra/database/database.module';
import { KvModule } from './infra/kv/kv.module';
import { AccountModule } from './modules/account/account.module';
import { HealthModule } from './modules/health/health.module';
import { HlModule } from './modules/hl/hl.module';
import { UsageModule } from './modules/usage/usage.module';
import { JobsModule } from './jobs/jobs.module';
import { HlJobsModule } from './modules/hl/jobs/hl-jobs.module';

/**
 * The modular monolith. Global providers are listed in pipeline order: key auth, then admission
 * (rate limit + credit hold); settlement outside the envelope; one filter for every error.
 */
@Module({})
export class AppModule implements NestModule {
  static register(config: AppConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot({ isGlobal: true, ignoreEnvFile: true, load: [() => config] }),
        DatabaseModule,
        KvModule,
        BillingModule,
        HealthModule,
        AccountModule,
        UsageModule,
        HlModule,
        JobsModule,
        HlJobsModule,
      ],
      providers: [
        { provide: APP_GUARD, useClass: ApiKeyGuard },
        { provide: APP_GUARD, useClass: AdmissionGuard },
        { provide: APP_INTERCEPTOR, useClass: CreditSettlementInterceptor },
        { provide: APP_INTERCEPTOR, useClass: EnvelopeInterceptor },
        { provide: APP_FILTER, useClass: ErrorEnvelopeFilter },
      ],
    };
  }

  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(RequestIdMiddleware).forRoutes({ path: '{*path}', method: RequestMethod.ALL });
  }
}
