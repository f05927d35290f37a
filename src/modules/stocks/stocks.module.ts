import { Module } from '@nestjs/common';
import { MarketsModule } from '../markets/markets.module';
import { StockOverviewRepository } from './stock-overview.repository';
import { StockOverviewService } from './stock-overview.service';
import { StocksController } from './stocks.controller';

/** Stocks (contract 2.4, 4.3) on the Markets catalogue: its symbols, quotes and FX rates. */
@Module({
  imports: [MarketsModule],
  controllers: [StocksController],
  providers: [StockOverviewRepository, StockOverviewService],
})
export class StocksModule {}
