import { ApiProperty } from '@nestjs/swagger';
import { STOCK_MARKETS } from '../../markets/asset-types';
import { SectionErrorDto } from '../../stocks/dto/stock-blocks.dto';
import { StockNewsItemDto } from './news-item.dto';

export class StockNewsAssetDto {
  @ApiProperty({ type: 'integer', example: 301 }) id: number;
  @ApiProperty({ example: 'AAPL' }) symbol: string;
  @ApiProperty({ example: 'AAPL-US' }) stockCode: string;
  @ApiProperty({ example: 'Apple Inc.' }) name: string;
  @ApiProperty({ enum: [...STOCK_MARKETS], example: 'US' }) market: string;
}

export class StockNewsSourceDto {
  @ApiProperty({ example: 'yahoo-finance', description: "The per-stock headline feed's vendor (NEWS_STOCK_FEED_SOURCE)" }) provider: string;
  @ApiProperty({ enum: ['db'], example: 'db', description: 'Always db: items are read from our store, never from the vendor on the request path' })
  readSource: string;
  @ApiProperty({
    enum: ['fresh', 'stale'],
    example: 'fresh',
    description: "fresh while the stock's feed was read successfully within NEWS_STOCK_FRESH_MS (default 1 hour)",
  })
  freshness: string;
  @ApiProperty({
    type: 'string',
    nullable: true,
    example: 'AAPL',
    description: 'The symbol the feed is read for (the Yahoo symbol); null when no feed is kept',
  })
  sourceSymbol: string | null;
  @ApiProperty({
    type: 'string',
    nullable: true,
    example: '2026-11-24T12:00:00.000Z',
    description: 'The last successful read of the feed; null before the first',
  })
  lastSuccessAt: string | null;
  @ApiProperty({
    type: 'string',
    nullable: true,
    example: '2026-11-20T08:00:00.000Z',
    description: 'The oldest item ever read from the feed: news is held back to here',
  })
  lastBackfilledTo: string | null;
}

export class StockNewsDto {
  @ApiProperty({ type: StockNewsAssetDto }) asset: StockNewsAssetDto;
  @ApiProperty({ type: StockNewsSourceDto }) source: StockNewsSourceDto;
  @ApiProperty({ type: [StockNewsItemDto], description: 'Items linked to the stock, from any feed, newest first' }) items: StockNewsItemDto[];
  @ApiProperty({ type: 'integer', example: 1 }) page: number;
  @ApiProperty({ type: 'integer', example: 20 }) limit: number;
  @ApiProperty() hasMore: boolean;
  @ApiProperty({ type: [SectionErrorDto], description: "One entry when the stock's last feed read failed (its items may be stale)" }) errors: SectionErrorDto[];
}
