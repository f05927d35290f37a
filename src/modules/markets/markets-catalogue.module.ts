import { Module, OnModuleInit } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { AppConfig } from '../../config/app.config';
import { JobRegistry } from '../../jobs/job-registry';
import { AssetCatalogueService } from './asset-catalogue.service';
import { AssetsRepository } from './assets.repository';
import { CryptoQuotesJob } from './jobs/crypto-quotes.job';
import { TradfiQuotesJob } from './jobs/tradfi-quotes.job';
import { MarketsProvidersModule } from './providers/markets-providers.module';

const MINUTE = 60_000;

/**
 * The Markets catalogue and what keeps it: the vendors, the asset tables, the refresh jobs (registered under
 * markets.crypto and markets.tradfi) and operator additions. The read API and the ops CLI both build on it.
 */
@Module({
  imports: [MarketsProvidersModule.register()],
  providers: [AssetsRepository, CryptoQuotesJob, TradfiQuotesJob, AssetCatalogueService],
  exports: [AssetsRepository, AssetCatalogueService, MarketsProvidersModule],
})
export class MarketsCatalogueModule implements OnModuleInit {
  constructor(
    private readonly registry: JobRegistry,
    private readonly config: ConfigService<AppConfig, true>,
    private readonly crypto: CryptoQuotesJob,
    private readonly tradfi: TradfiQuotesJob,
  ) {}

  onModuleInit() {
    const schedules = this.config.get('jobs.schedules', { infer: true });
    this.registry.register({
      name: 'markets.crypto',
      ...schedules['markets.crypto'],
      leaseMs: 5 * MINUTE,
      run: (signal, progress) => this.crypto.run(signal, progress),
    });
    this.registry.register({
      name: 'markets.tradfi',
      ...schedules['markets.tradfi'],
      leaseMs: 5 * MINUTE,
      run: (signal, progress) => this.tradfi.run(signal, progress),
    });
  }
}
