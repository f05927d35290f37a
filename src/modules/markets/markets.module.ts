import { Module } from '@nestjs/common';
import { UpstreamCacheModule } from '../../providers/kit/upstream-cache.module';
import { HlModule } from '../hl/hl.module';
import { AssetsService } from './assets.service';
import { DataAgeHeader } from './data-age';
import { GlobalStatsService } from './global-stats.service';
import { MarketFeedsService } from './market-feeds.service';
import { MarketsCatalogueModule } from './markets-catalogue.module';
import { MarketsController } from './markets.controller';

/** Cross-asset market data (contract 4.2, 4.8): catalogue reads from PostgreSQL, on-demand vendor reads through the kit's cache. */
@Module({
  imports: [MarketsCatalogueModule, HlModule, UpstreamCacheModule],
  controllers: [MarketsController],
  providers: [AssetsService, MarketFeedsService, GlobalStatsService, DataAgeHeader],
  exports: [AssetsService, DataAgeHeader, MarketsCatalogueModule],
})
export class MarketsModule {}
