import { Module } from '@nestjs/common';
import { MarketsModule } from '../markets/markets.module';
import { NewsJobsModule } from './news-jobs.module';
import { NewsController, StockNewsController } from './news.controller';
import { NewsService } from './news.service';
import { StockNewsService } from './stock-news.service';

/** News (contract 4.4) and a stock's news (4.3): reads of what NewsJobsModule keeps; symbols resolve through Markets. */
@Module({
  imports: [NewsJobsModule, MarketsModule],
  controllers: [NewsController, StockNewsController],
  providers: [NewsService, StockNewsService],
})
export class NewsModule {}
