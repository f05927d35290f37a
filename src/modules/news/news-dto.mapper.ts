import { NEWS_LOCALES, NewsLocale } from '../../providers/analysis-provider';
import { NewsAnalysisDto, NewsAssetDto, NewsItemDto, StockNewsItemDto } from './dto/news-item.dto';
import { NewsAnalysisRow, NewsAssetRow, NewsItemRow } from './news-rows';

/** An item's links and analyses, read in two queries for a whole page. */
export interface ItemExtras {
  assets: ReadonlyMap<number, NewsAssetDto[]>;
  /** By item, then locale. */
  analyses: ReadonlyMap<number, ReadonlyMap<NewsLocale, NewsAnalysisRow>>;
}

export function groupExtras(assets: readonly NewsAssetRow[], analyses: readonly NewsAnalysisRow[]): ItemExtras {
  const byItem = new Map<number, NewsAssetDto[]>();
  for (const { newsId, id, symbol, name, type } of assets) {
    const list = byItem.get(newsId) ?? [];
    list.push({ id, symbol, name, type });
    byItem.set(newsId, list);
  }
  const byLocale = new Map<number, Map<NewsLocale, NewsAnalysisRow>>();
  for (const row of analyses) {
    const locales = byLocale.get(row.newsId) ?? new Map<NewsLocale, NewsAnalysisRow>();
    locales.set(row.locale, row);
    byLocale.set(row.newsId, locales);
  }
  return { assets: byItem, analyses: byLocale };
}

/** The contract's NewsItem: the requested locale's analysis, else the English one (translationReady false). */
export function toNewsItemDto(row: NewsItemRow, extras: ItemExtras, locale: NewsLocale): NewsItemDto {
  const assets = extras.assets.get(row.id) ?? [];
  const analyses = extras.analyses.get(row.id);
  const analysis = analyses?.get(locale) ?? analyses?.get('en') ?? null;
  return {
    id: row.id,
    source: row.source,
    title: row.title,
    summary: row.summary,
    url: row.url,
    imageUrl: row.imageUrl,
    publisher: row.publisher ?? row.source,
    publishedAt: row.publishedAt.toISOString(),
    tags: row.tags,
    concepts: row.concepts,
    sentiment: row.sentiment,
    contentClass: row.contentClass,
    assetLinked: assets.length > 0,
    translationReady: analyses?.has(locale) ?? false,
    assets,
    analysis: analysis === null ? null : toAnalysisDto(analysis),
  };
}

export function toStockNewsItemDto(row: NewsItemRow, extras: ItemExtras): StockNewsItemDto {
  const assets = extras.assets.get(row.id) ?? [];
  const status = translationStatusOf(row);
  return {
    id: row.id,
    source: row.source,
    title: row.title,
    summary: row.summary,
    tags: row.tags,
    concepts: row.concepts,
    url: row.url,
    publishedAt: row.publishedAt.toISOString(),
    publisher: row.publisher ?? row.source,
    assets,
    translationReady: status === 'ready',
    translationStatus: status,
    assetLinked: assets.length > 0,
  };
}

/** ready: all eight locales; pending: still being written; missing: translations will not come. */
export function translationStatusOf(row: Pick<NewsItemRow, 'locales' | 'analysisState'>): 'ready' | 'pending' | 'missing' {
  if (NEWS_LOCALES.every((locale) => row.locales.includes(locale))) return 'ready';
  return row.analysisState === 'pending' || row.analysisState === 'translating' ? 'pending' : 'missing';
}

function toAnalysisDto(row: NewsAnalysisRow): NewsAnalysisDto {
  return {
    locale: row.locale,
    title: row.title,
    coreSummary: row.coreSummary,
    direction: row.direction,
    affectedAssets: row.affectedAssets,
    impactLogic: row.impactLogic,
    timeHorizon: row.timeHorizon,
    risksAndWatchlist: row.risksAndWatchlist,
  };
}
