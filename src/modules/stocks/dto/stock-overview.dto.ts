import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { STOCK_MARKETS, StockMarket } from '../../markets/asset-types';
import { CategoryParam } from '../../markets/dto/category-param.decorator';

const NUMBER_OR_NULL = (example: number, description: string) => ({ type: 'number', nullable: true, example, description }) as const;

export class StockOverviewQueryDto {
  @ApiPropertyOptional({ enum: [...STOCK_MARKETS], description: 'One market; absent, every market, grouped by market and sector.' })
  @IsOptional()
  @IsIn([...STOCK_MARKETS])
  market?: StockMarket;

  @CategoryParam('One sector, by slug (`technology`, `financial-services`); absent, every sector.')
  category?: string;
}

export class StockOverviewItemDto {
  @ApiProperty({ example: 301 }) assetId: number;
  @ApiProperty({ example: 'AAPL' }) symbol: string;
  @ApiProperty({ example: 'Apple Inc.' }) name: string;
  @ApiProperty({ enum: [...STOCK_MARKETS], example: 'US' }) market: string;
  @ApiProperty({ example: 'AAPL-US' }) stockCode: string;
  @ApiProperty(NUMBER_OR_NULL(266.2, 'Last price in the listing currency; null before the first quote refresh')) price: number | null;
  @ApiProperty(NUMBER_OR_NULL(266.2, 'The price in USD at the latest FX quote of the catalogue')) priceUsd: number | null;
  @ApiProperty(NUMBER_OR_NULL(-0.41, 'Percent change since the previous close')) change24h: number | null;
  @ApiProperty(NUMBER_OR_NULL(3950408000000, 'Market capitalisation in the listing currency')) marketCap: number | null;
  @ApiProperty(NUMBER_OR_NULL(179396662, 'Shares traded in the session')) volume24h: number | null;
  @ApiProperty({ type: 'string', nullable: true, example: 'Technology' }) sector: string | null;
  @ApiProperty({ type: 'string', nullable: true, example: 'Consumer Electronics' }) industry: string | null;
  @ApiProperty({ type: 'string', nullable: true, example: '2026-11-24T21:00:00.000Z', description: 'When the vendor last priced it' })
  priceUpdatedAt: string | null;
}

export class StockOverviewCategoryDto {
  @ApiProperty({ type: 'string', nullable: true, example: 'technology', description: 'Sector slug; null for stocks without a sector' })
  category: string | null;

  @ApiProperty({ type: 'string', nullable: true, example: 'Technology', description: 'Sector name' })
  label: string | null;

  @ApiProperty({ type: 'string', nullable: true, example: 'US' })
  market: string | null;

  @ApiProperty({ type: [StockOverviewItemDto], description: 'Largest market cap (in USD) first' })
  items: StockOverviewItemDto[];
}

export class StockOverviewDto {
  @ApiProperty({ example: 'US', description: 'The market asked for, or `ALL` when none was' })
  market: string;

  @ApiProperty({ example: 20, description: 'Most items per category (sector and market)' })
  limitPerCategory: number;

  @ApiProperty({ type: [StockOverviewCategoryDto] })
  categories: StockOverviewCategoryDto[];
}
