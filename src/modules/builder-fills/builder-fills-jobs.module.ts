import { Module, OnModuleInit } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { AppConfig } from '../../config/app.config';
import { JobRegistry } from '../../jobs/job-registry';
import { HyperliquidModule } from '../../providers/hyperliquid/hyperliquid.module';
import { OpcModule } from '../opc/opc.module';
import { PointsModule } from '../points/points.module';
import { BuilderFillsRepository } from './builder-fills.repository';
import { BuilderFillsJob } from './builder-fills.job';

/** A day's files of several builders and every account wallet's own fills: minutes on a busy deployment. */
const BUILDER_FILLS_LEASE_MS = 15 * 60_000;

/** economy.builder-fills, for the API's schedule and the ops CLI alike. */
@Module({
  imports: [HyperliquidModule, PointsModule, OpcModule],
  providers: [BuilderFillsRepository, BuilderFillsJob],
})
export class BuilderFillsJobsModule implements OnModuleInit {
  constructor(
    private readonly registry: JobRegistry,
    private readonly config: ConfigService<AppConfig, true>,
    private readonly job: BuilderFillsJob,
  ) {}

  onModuleInit() {
    this.registry.register({
      name: 'economy.builder-fills',
      ...this.config.get('jobs.schedules', { infer: true })['economy.builder-fills'],
      leaseMs: BUILDER_FILLS_LEASE_MS,
      run: (signal, progress) => this.job.run(signal, progress),
    });
  }
}
