import type { AnalysisText, Direction, NewsLocale } from '../../providers/analysis-provider';

/** Where an item's analysis stands: English pending, English stored and translations pending, done, or given up. */
export type AnalysisState = 'pending' | 'translating' | 'ready' | 'failed';

/** One stored item as the read paths need it (news_items). */
export interface NewsItemRow {
  id: number;
  source: string;
  title: string;
  summary: string;
  url: string;
  imageUrl: string | null;
  publisher: string | null;
  publishedAt: Date;
  tags: string[];
  concepts: string[];
  contentClass: string;
  sentiment: number | null;
  analysisState: AnalysisState;
  /** Locales with a stored analysis. */
  locales: NewsLocale[];
}

export interface NewsAssetRow {
  newsId: number;
  id: number;
  symbol: string;
  name: string;
  type: string;
}

/** One stored analysis (news_analyses), with its provenance. */
export interface NewsAnalysisRow extends AnalysisText {
  newsId: number;
  locale: NewsLocale;
  provider: string;
  model: string;
  generatedAt: Date;
}

/** The read state of a stock's headline feed (news_feeds, kind stock). */
export interface StockFeedState {
  source: string;
  sourceSymbol: string | null;
  lastSuccessAt: Date | null;
  oldestItemAt: Date | null;
  lastError: string | null;
}

export const NEWS_ITEM_COLUMNS = `i.id, i.source, i.title, i.summary, i.url, i.image_url, i.publisher, i.published_at, i.tags, i.concepts,
  i.content_class, i.sentiment, i.analysis_state, i.locales`;

export function toNewsItemRow(r: Record<string, unknown>): NewsItemRow {
  return {
    id: Number(r.id),
    source: String(r.source),
    title: String(r.title),
    summary: String(r.summary),
    url: String(r.url),
    imageUrl: (r.image_url as string | null) ?? null,
    publisher: (r.publisher as string | null) ?? null,
    publishedAt: new Date(r.published_at as string | Date),
    tags: (r.tags as string[]) ?? [],
    concepts: (r.concepts as string[]) ?? [],
    contentClass: String(r.content_class),
    sentiment: r.sentiment === null || r.sentiment === undefined ? null : Number(r.sentiment),
    analysisState: r.analysis_state as AnalysisState,
    locales: (r.locales as NewsLocale[]) ?? [],
  };
}

export function toNewsAnalysisRow(r: Record<string, unknown>): NewsAnalysisRow {
  return {
    newsId: Number(r.news_id),
    locale: r.locale as NewsLocale,
    title: String(r.title),
    coreSummary: String(r.core_summary),
    direction: r.direction as Direction,
    affectedAssets: String(r.affected_assets),
    impactLogic: String(r.impact_logic),
    timeHorizon: String(r.time_horizon),
    risksAndWatchlist: String(r.risks_and_watchlist),
    provider: String(r.provider),
    model: String(r.model),
    generatedAt: new Date(r.generated_at as string | Date),
  };
}
