import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsOptional, IsString, Length } from 'class-validator';
import { PageQuery } from '../../../common/pagination/page-query.dto';
import { SortOrder } from '../../../common/pagination/sort-order';
import { IntegerParam } from '../../../common/validation/integer-param.decorator';
import { EnumParam, OrderParam } from '../../../common/validation/query-fields';
import { RequiredParam } from '../../../common/validation/required-param.decorator';
import { ASSET_TYPES, STOCK_MARKETS, StockMarket } from '../asset-types';
import { CategoryParam } from './category-param.decorator';
import { ASSET_SORTS, AssetSort } from '../assets.repository';

/** `type` of the Markets lists: one class or ALL. */
export const ASSET_TYPE_FILTERS = ['ALL', ...ASSET_TYPES] as const;
export type AssetTypeFilter = (typeof ASSET_TYPE_FILTERS)[number];
export const KLINE_INTERVALS = ['H1', 'D1'] as const;
export const TICKER_VENUES = ['all', 'cex', 'dex'] as const;
export const TICKER_MARKET_TYPES = ['all', 'spot', 'perp', 'futures'] as const;
export const SEARCH_Q_LENGTH = { min: 2, max: 64 } as const;

const TYPE_VALUES = `ALL or one class (${ASSET_TYPES.join(', ')}), exactly as spelled`;

function RequiredTypeParam() {
  return applyDecorators(
    ApiProperty({ enum: [...ASSET_TYPE_FILTERS], description: `Asset class: ${TYPE_VALUES}.` }),
    RequiredParam(),
    IsIn([...ASSET_TYPE_FILTERS]),
  );
}

export class AssetsQueryDto extends PageQuery({ defaultLimit: 20, maxLimit: 100 }) {
  @RequiredTypeParam()
  type!: AssetTypeFilter;

  @EnumParam(
    ASSET_SORTS,
    'marketCap',
    'Sort key. marketCap and volume24h compare USD values (converted at the refresh), so classes and currencies mix correctly; ' +
      'price and the changes compare the figures as served; symbol is alphabetical. Assets without the figure come last either way.',
  )
  sort: AssetSort = 'marketCap';

  @OrderParam('Sort direction.')
  order: SortOrder = 'desc';

  @ApiPropertyOptional({ enum: [...STOCK_MARKETS], description: 'Stocks and ETFs listed on this market only (other classes have none, so they drop out).' })
  @IsOptional()
  @IsIn([...STOCK_MARKETS])
  market?: StockMarket;

  @CategoryParam('Sector or tag slug: lowercase words joined by hyphens (`consumer-cyclical`, `layer-1`).')
  category?: string;
}

export class SearchQueryDto extends PageQuery({ defaultLimit: 10, maxLimit: 100 }) {
  @ApiProperty({
    minLength: SEARCH_Q_LENGTH.min,
    maxLength: SEARCH_Q_LENGTH.max,
    example: 'apple',
    description: 'Text to find in symbols, stock codes and names: 2-64 characters after surrounding spaces are trimmed.',
  })
  // Trimmed first: the bounds are on what is searched for, so `q=%20a` is one character.
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value))
  @RequiredParam()
  @IsString()
  @Length(SEARCH_Q_LENGTH.min, SEARCH_Q_LENGTH.max)
  q!: string;

  @EnumParam(ASSET_TYPE_FILTERS, 'ALL', `Asset class: ${TYPE_VALUES}.`)
  type: AssetTypeFilter = 'ALL';
}

export class GainersQueryDto extends PageQuery({ defaultLimit: 20, maxLimit: 100 }) {
  @EnumParam(ASSET_TYPE_FILTERS, 'ALL', `Asset class: ${TYPE_VALUES}.`)
  type: AssetTypeFilter = 'ALL';
}

export class KlinesQueryDto {
  @EnumParam(KLINE_INTERVALS, 'H1', 'Bar length: H1 (one hour) or D1 (one day).')
  interval: (typeof KLINE_INTERVALS)[number] = 'H1';

  @IntegerParam({ min: 1, max: 500, default: 100, description: 'Number of most recent bars (1-500, default 100).' })
  limit: number = 100;
}

export class TickersQueryDto extends PageQuery({ defaultLimit: 20, maxLimit: 100 }) {
  @EnumParam(TICKER_VENUES, 'all', 'all, cex (centralised exchanges) or dex (decentralised: on-chain pools and Hyperliquid).')
  venue: (typeof TICKER_VENUES)[number] = 'all';

  @EnumParam(TICKER_MARKET_TYPES, 'all', 'all, spot, perp (perpetual swaps) or futures (dated contracts).')
  marketType: (typeof TICKER_MARKET_TYPES)[number] = 'all';
}
