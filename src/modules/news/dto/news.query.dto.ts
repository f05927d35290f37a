import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsOptional, IsString, Length, MaxLength } from 'class-validator';
import { PageQuery } from '../../../common/pagination/page-query.dto';
import { EnumParam } from '../../../common/validation/query-fields';
import { RequiredParam } from '../../../common/validation/required-param.decorator';
import { NEWS_LOCALES, NewsLocale } from '../../../providers/analysis-provider';
import { ASSET_TYPES } from '../../markets/asset-types';
import { ASSET_TYPE_FILTERS, AssetTypeFilter } from '../../markets/dto/markets.query.dto';

export const NEWS_CATEGORIES = ['all', 'hot-24h', 'hot-7d'] as const;
export type NewsCategory = (typeof NEWS_CATEGORIES)[number];
export const SEARCH_SORTS = ['latest', 'relevance'] as const;
export const NEWS_SEARCH_Q_LENGTH = { min: 2, max: 120 } as const;

export const HOTNESS =
  'hot-24h and hot-7d: items published in the last 24 hours or 7 days, hottest first (then newest). An item is as hot as the number of ' +
  'distinct sources that covered its story (titles of different sources within 48 hours that read alike, by trigram similarity) plus up ' +
  'to 1 for the size of its largest linked asset (0 at 1 million USD market cap, 1 at 1 trillion).';
const LOCALE = `Language of the analysis: ${NEWS_LOCALES.join(', ')}. An item whose analysis in this locale is not ready yet carries the English one, with translationReady false.`;
const TYPE = `Only items linked to an asset of this class: ALL or one of ${ASSET_TYPES.join(', ')}.`;

/** The filters `/news` and `/news/search` share. */
function NewsFilters(options: { defaultLimit: number; maxLimit: number }) {
  class NewsFiltersQueryDto extends PageQuery(options) {
    @EnumParam(ASSET_TYPE_FILTERS, 'ALL', TYPE)
    type: AssetTypeFilter = 'ALL';

    @EnumParam(NEWS_CATEGORIES, 'all', `all: every item. ${HOTNESS}`)
    category: NewsCategory = 'all';

    @EnumParam(NEWS_LOCALES, 'en', LOCALE)
    locale: NewsLocale = 'en';
  }
  return NewsFiltersQueryDto;
}

export class NewsFeedQueryDto extends NewsFilters({ defaultLimit: 100, maxLimit: 100 }) {
  @ApiPropertyOptional({
    maxLength: 64,
    description: 'Only items linked to this asset, named as on the Markets endpoints (symbol or stock code); an unknown one is 404 MARKET_ASSET_NOT_FOUND.',
  })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  assetSymbol?: string;
}

export class NewsSearchQueryDto extends NewsFilters({ defaultLimit: 20, maxLimit: 50 }) {
  @ApiProperty({
    minLength: NEWS_SEARCH_Q_LENGTH.min,
    maxLength: NEWS_SEARCH_Q_LENGTH.max,
    example: 'bitcoin',
    description:
      'Words to find in titles (weighted above summaries), 2-120 characters after trimming. Web-search syntax: "a phrase", a OR b, -word. ' +
      'Chinese, Japanese or Korean text is matched as a substring; a word with no match at all is looked up as a misspelling of a title word.',
  })
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value))
  @RequiredParam()
  @IsString()
  @Length(NEWS_SEARCH_Q_LENGTH.min, NEWS_SEARCH_Q_LENGTH.max)
  q!: string;

  @EnumParam(
    SEARCH_SORTS,
    'latest',
    'latest: newest first, straight from the index. relevance: by match quality (ts_rank_cd: title words above summary words, close words ' +
      'above scattered ones) among the 1,000 newest matches, so a broad query answers as fast as a narrow one; pages past them are empty.',
  )
  sort: (typeof SEARCH_SORTS)[number] = 'latest';
}

export class NewsDetailQueryDto {
  @EnumParam(NEWS_LOCALES, 'en', LOCALE)
  locale: NewsLocale = 'en';

  @ApiPropertyOptional({
    maxLength: 64,
    description:
      'Scope the item to one of its linked assets: `assets` lists only it and `affectedAssets` names only it. An unknown asset is 404 ' +
      'MARKET_ASSET_NOT_FOUND; one the item is not linked to is 404 NOT_FOUND.',
  })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  assetSymbol?: string;
}

export class StockNewsQueryDto extends PageQuery({ defaultLimit: 20, maxLimit: 100, minLimit: 1 }) {}
