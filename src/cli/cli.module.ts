import { DynamicModule, Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { AppConfig } from '../config/app.config';
import { DatabaseModule } from '../infra/database/database.module';
import { AccountModule } from '../modules/account/account.module';

/**
 * The slice of the application the ops commands need. No KV store: operator changes are written to
 * PostgreSQL only and bump credit_epoch, which every replica picks up when it re-reads the caller.
 */
@Module({})
export class CliModule {
  static register(config: AppConfig): DynamicModule {
    return {
      module: CliModule,
      imports: [ConfigModule.forRoot({ isGlobal: true, ignoreEnvFile: true, load: [() => config] }), DatabaseModule, AccountModule],
    };
  }
}
