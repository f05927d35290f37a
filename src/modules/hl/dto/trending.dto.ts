import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { DATA_AGE } from '../hl-openapi';

/** The smart set of the trending SQL (snapshot/trending.sql.ts), not only the `smart` tag. */
const SMART_MONEY = 'in the period that are smart money: tagged `smart`, or in the top 500 by all-time PnL of the current leaderboard';

export class TrendingItemDto {
  @ApiProperty({ example: 'HYPE' })
  coin: string;

  @ApiProperty({ example: '25.01', description: 'Price at the snapshot (decimal string)' })
  price: string;

  @ApiProperty({ example: '-3.25', description: 'Signed price change over the period, in percent (decimal string)' })
  priceChange: string;

  @ApiProperty({ type: 'integer', example: 120, description: 'Distinct buying addresses in the period' })
  buyAddresses: number;

  @ApiProperty({ type: 'integer', example: 98, description: 'Distinct selling addresses in the period' })
  sellAddresses: number;

  @ApiProperty({ type: 'integer', example: 7, description: `Buying addresses ${SMART_MONEY}` })
  smartBuy: number;

  @ApiProperty({ type: 'integer', example: 3, description: `Selling addresses ${SMART_MONEY}` })
  smartSell: number;

  @ApiProperty({ example: '15000.5', description: 'Change of the buy-side amount over the period (decimal string)' })
  buyOrderAmountChange: string;

  @ApiProperty({ example: '-2000', description: 'Change of the sell-side amount over the period (decimal string)' })
  sellOrderAmountChange: string;
}

export class TrendingPaginationDto {
  @ApiProperty({ type: 'integer', example: 1 })
  page: number;

  @ApiProperty({ type: 'integer', example: 50 })
  limit: number;

  @ApiProperty({ type: 'integer', example: 120, description: 'Ranked coins in this list' })
  total: number;

  @ApiProperty({ example: true })
  hasMore: boolean;
}

export class TrendingListDto {
  @ApiProperty({ type: [TrendingItemDto], description: 'In rank order (1 = most trending)' })
  items: TrendingItemDto[];

  @ApiProperty({ type: TrendingPaginationDto })
  pagination: TrendingPaginationDto;
}

export class TrendingDto {
  @ApiProperty({ enum: ['15m', '1h', '4h', '24h'], example: '1h' })
  period: string;

  @ApiProperty({
    type: 'integer',
    example: 18234,
    description: "Id of the market snapshot served: increases with every published snapshot (this service's snapshot sequence, not a chain block height)",
  })
  snapshot_height: number;

  @ApiProperty({
    example: '2026-11-21T12:00:00.000Z',
    description:
      'When the trades and mids of this answer were read from the exchange (ISO-8601 UTC): the start of the newest read of each, ' +
      'whichever is older; every period is counted back from it. ' +
      DATA_AGE +
      ' snapshot_height still grows with every publication.',
  })
  snapshot_time: string;

  @ApiPropertyOptional({ type: TrendingListDto, description: 'Present when market is `all` or `spot`' })
  spot?: TrendingListDto;

  @ApiPropertyOptional({ type: TrendingListDto, description: 'Present when market is `all` or `perp`' })
  perp?: TrendingListDto;
}
