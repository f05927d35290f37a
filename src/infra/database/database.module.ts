import { DynamicModule, Logger, Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppConfig } from '../../config/app.config';
import { buildDataSourceOptions, databaseKind, EntityList } from './data-source';
import { runMigrationsLocked } from './run-migrations';

/** PostgreSQL when DATABASE_URL is set, embedded PGlite otherwise; pending migrations run at start unless disabled. */
@Module({})
export class DatabaseModule {
  /** The entities come from the caller (src/app-entities.ts): infra does not know the areas. */
  static forRoot(entities: EntityList): DynamicModule {
    return {
      module: DatabaseModule,
      imports: [
        TypeOrmModule.forRootAsync({
          inject: [ConfigService],
          useFactory: (config: ConfigService<AppConfig, true>) => {
            const database = config.get('database', { infer: true });
            if (databaseKind({ database }) === 'embedded') {
              new Logger('DatabaseModule').warn(`DATABASE_URL not set: embedded PostgreSQL under ${database.dataDir}`);
            }
            return { ...buildDataSourceOptions({ database }, entities), migrationsRun: database.migrationsRun, retryAttempts: 3 };
          },
          // Migrations run here rather than through TypeORM's migrationsRun, under a lock replicas share.
          dataSourceFactory: async (options) => {
            const { migrationsRun, ...rest } = options as typeof options & { migrationsRun: boolean };
            const dataSource = await new DataSource({ ...rest, migrationsRun: false }).initialize();
            if (migrationsRun) await runMigrationsLocked(dataSource);
            return dataSource;
          },
        }),
      ],
    };
  }
}
