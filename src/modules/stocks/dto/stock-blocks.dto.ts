import { ApiProperty } from '@nestjs/swagger';
import { STOCK_MARKETS } from '../../markets/asset-types';

/** The stock asset block of fundamentals and company (contract 2.4). */
export class StockAssetDto {
  @ApiProperty({ example: 301 }) id: number;
  @ApiProperty({ example: 'AAPL', description: 'The ticker' }) symbol: string;
  @ApiProperty({ example: 'AAPL-US', description: '`<TICKER>-<MARKET>`' }) stockCode: string;
  @ApiProperty({ example: 'AAPL', description: "The listing as its exchange's quotes show it (`0700.HK`, `7203.T`)" }) displaySymbol: string;
  @ApiProperty({ example: 'Apple Inc.' }) name: string;
  @ApiProperty({ enum: [...STOCK_MARKETS], example: 'US' }) market: string;
  @ApiProperty({ example: 'USD' }) currency: string;
  @ApiProperty({ example: 'Technology', description: 'Empty when unknown' }) sector: string;
  @ApiProperty({ example: 'Consumer Electronics', description: 'Empty when unknown' }) industry: string;
  @ApiProperty({ example: 'United States' }) country: string;
}

/** Where the data came from and how fresh it is (contract 2.4). */
export class StockSourceDto {
  @ApiProperty({ example: 'yahoo', description: 'The vendor configured for this data' }) provider: string;
  @ApiProperty({ example: 'AAPL', description: "The vendor's own symbol" }) symbol: string;
  @ApiProperty({ example: '2026-11-24T12:00:00.000Z', description: 'When the data was read from the vendor' }) updatedAt: string;

  @ApiProperty({
    enum: ['fresh', 'stale'],
    example: 'fresh',
    description: 'fresh: read within the cache TTL; stale: the last value, served while the vendor fails (up to about an hour)',
  })
  freshness: string;
}

/** A part of the answer the vendor could not give (contract 2.4 `errors`). */
export class SectionErrorDto {
  @ApiProperty({ example: 'financials', description: 'The emptied part: quote, overview (metrics and ratings) or financials' }) section: string;
  @ApiProperty({ example: 'timeseries', description: 'The vendor call that failed, named without host or parameters' }) endpoint: string;
  @ApiProperty({ example: 'upstream unavailable', description: 'Never an upstream host, status or secret' }) message: string;
}
