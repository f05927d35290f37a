import { Module } from '@nestjs/common';
import { UpstreamCacheModule } from '../../providers/kit/upstream-cache.module';
import { MarketsModule } from '../markets/markets.module';
import { stocksProviderSlots } from './providers/stocks-providers.module';
import { RwaService } from './rwa.service';
import { SecFilingsService } from './sec-filings.service';
import { StockOverviewRepository } from './stock-overview.repository';
import { StockOverviewService } from './stock-overview.service';
import { StockProfilesService } from './stock-profiles.service';
import { RwaController, StocksController } from './stocks.controller';

/** Stocks (contract 2.4, 4.3) on the Markets catalogue: its symbols, quotes and FX rates. */
@Module({
  imports: [MarketsModule, ...stocksProviderSlots(), UpstreamCacheModule],
  controllers: [StocksController, RwaController],
  providers: [StockOverviewRepository, StockOverviewService, StockProfilesService, SecFilingsService, RwaService],
})
export class StocksModule {}
