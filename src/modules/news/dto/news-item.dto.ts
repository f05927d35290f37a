import { ApiProperty } from '@nestjs/swagger';
import { ApiNullableRefProperty } from '../../../common/dto/nullable-ref';
import { DIRECTIONS, NEWS_LOCALES, TIME_HORIZONS } from '../../../providers/analysis-provider';
import { ASSET_TYPES } from '../../markets/asset-types';

export const PENDING_ANALYSIS =
  'An item whose analysis is still pending (written off the request path, usually within a minute or two of ingestion) has `sentiment` ' +
  'null and `analysis` null; one whose analysis failed for good (after 8 attempts) stays so.';

export class NewsAssetDto {
  @ApiProperty({ type: 'integer', example: 1, description: 'The Markets asset id' }) id: number;
  @ApiProperty({ example: 'BTC' }) symbol: string;
  @ApiProperty({ example: 'Bitcoin' }) name: string;
  @ApiProperty({ enum: [...ASSET_TYPES], example: 'CRYPTO' }) type: string;
}

/**
 * Provenance (provider, model, time) is stored with every analysis and not part of this body, which is the
 * contract's; operators read it in news_analyses.
 */
export class NewsAnalysisDto {
  @ApiProperty({ enum: [...NEWS_LOCALES], example: 'en', description: 'The locale this analysis is in: the requested one, or en as its fallback' })
  locale: string;
  @ApiProperty({ example: 'Bitcoin ETF inflows lift BTC' }) title: string;
  @ApiProperty({ example: 'Spot bitcoin ETFs took in 500 million USD on Monday.' }) coreSummary: string;
  @ApiProperty({ enum: [...DIRECTIONS], example: 'bullish', description: 'Always the English word, whatever the locale' }) direction: string;
  @ApiProperty({ example: 'BTC (Bitcoin)', description: 'The assets it bears on, as one string' }) affectedAssets: string;
  @ApiProperty({ example: 'Sustained inflows add spot demand.' }) impactLogic: string;
  @ApiProperty({
    example: 'short_term',
    description: `In en one of ${TIME_HORIZONS.join(', ')}; in the other locales its translation`,
  })
  timeHorizon: string;
  @ApiProperty({ example: 'Watch for outflows reversing the trend.' }) risksAndWatchlist: string;
}

export class NewsItemDto {
  @ApiProperty({ type: 'integer', example: 1042 }) id: number;
  @ApiProperty({ example: 'coindesk', description: 'The feed the item was read from (its configured name)' }) source: string;
  @ApiProperty({ example: 'Bitcoin ETFs log record inflows' }) title: string;
  @ApiProperty({ example: 'Spot bitcoin ETFs took in ...', description: "The feed's summary as plain text (never the full article); may be empty" })
  summary: string;
  @ApiProperty({ example: 'https://www.coindesk.com/markets/2026/11/24/...', description: 'Canonical: tracking parameters removed' }) url: string;
  @ApiProperty({ type: 'string', nullable: true, example: 'https://cdn.example.com/a.jpg', description: 'null when the feed gives no image' })
  imageUrl: string | null;
  @ApiProperty({ example: 'Jane Doe', description: "The item's author or outlet as the feed names it; the source when it names none" })
  publisher: string;
  @ApiProperty({ example: '2026-11-24T12:00:00.000Z' }) publishedAt: string;
  @ApiProperty({ type: [String], example: ['Markets', 'ETFs'], description: "The feed's categories" }) tags: string[];
  @ApiProperty({ type: [String], example: ['etf'], description: 'Topics found in the text (see the feed description for the set)' }) concepts: string[];
  @ApiProperty({ type: 'number', nullable: true, minimum: -1, maximum: 1, example: 0.42, description: `-1 bearish to 1 bullish. ${PENDING_ANALYSIS}` })
  sentiment: number | null;
  @ApiProperty({ example: 'normal', description: 'Always normal for now: feeds carry news, not ads' }) contentClass: string;
  @ApiProperty({ description: 'Whether the item is linked to at least one catalogue asset' }) assetLinked: boolean;
  @ApiProperty({ description: 'Whether `analysis` is in the requested locale (true for en once analysed)' }) translationReady: boolean;
  @ApiProperty({ type: [NewsAssetDto], description: 'Linked assets, largest first' }) assets: NewsAssetDto[];
  @ApiNullableRefProperty(NewsAnalysisDto, { description: PENDING_ANALYSIS })
  analysis: NewsAnalysisDto | null;
}

export class StockNewsItemDto {
  @ApiProperty({ type: 'integer', example: 1042 }) id: number;
  @ApiProperty({ example: 'yahoo-finance' }) source: string;
  @ApiProperty({ example: 'Apple beats on services revenue' }) title: string;
  @ApiProperty({ example: 'Apple reported ...' }) summary: string;
  @ApiProperty({ type: [String], example: ['Earnings'] }) tags: string[];
  @ApiProperty({ type: [String], example: ['earnings'] }) concepts: string[];
  @ApiProperty({ example: 'https://finance.yahoo.com/news/...' }) url: string;
  @ApiProperty({ example: '2026-11-24T12:00:00.000Z' }) publishedAt: string;
  @ApiProperty({ example: 'Reuters' }) publisher: string;
  @ApiProperty({ type: [NewsAssetDto] }) assets: NewsAssetDto[];
  @ApiProperty({ description: 'Whether the analysis exists in every locale (see translationStatus)' }) translationReady: boolean;
  @ApiProperty({
    enum: ['ready', 'pending', 'missing'],
    example: 'missing',
    description:
      'ready: the analysis exists in all eight locales. pending: it (or some translations) is still being written. missing: translations ' +
      'will not come (the configured analyser writes English only, translations are off, or analysis gave up).',
  })
  translationStatus: string;
  @ApiProperty({ description: 'Whether the item is linked to at least one catalogue asset (always true here)' }) assetLinked: boolean;
}
