import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { escapeLike, TrigramSchema } from '../../infra/database/sql-text';
import type { NewsLocale } from '../../providers/analysis-provider';
import type { AssetType } from '../markets/asset-types';
import { NEWS_ITEM_COLUMNS, NewsAnalysisRow, NewsAssetRow, NewsItemRow, StockFeedState, toNewsAnalysisRow, toNewsItemRow } from './news-rows';

/** The feed's filters, shared by the feed and search. */
export interface NewsFilter {
  /** Only items linked to this catalogue asset. */
  assetId?: number;
  /** Only items linked to an asset of this class; undefined is the contract's ALL. */
  type?: AssetType;
  /** Only items published since then, ordered by hotness (the hot-24h and hot-7d categories). */
  hotSince?: Date;
}

export interface RowWindow {
  /** Rows to read: the page size plus one probe row that proves a next page. */
  take: number;
  offset: number;
}

export type SearchSort = 'latest' | 'relevance';

/**
 * `sort=relevance` ranks this many of the newest matches, not every match: ranking reads each match's
 * tsvector, which for a broad term is most of the table. Pages past it are empty.
 */
export const RELEVANCE_WINDOW = 1_000;
/** Text with any Han, Kana or Hangul character is searched by substring: no stemmer splits it into words. */
const CJK = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]/;
/** word_similarity a title word needs to count as a misspelt match of a Latin query. */
const TYPO_SIMILARITY = 0.6;

/** Every read behind `/news`, `/news/search`, `/news/{id}` and `/stock/{symbol}/news`. */
@Injectable()
export class NewsRepository {
  private readonly trigram: TrigramSchema;

  constructor(@InjectDataSource() private readonly db: DataSource) {
    this.trigram = new TrigramSchema(db);
  }

  /** Newest first (hot categories: hottest first), `take` rows from `offset`. */
  async feed(filter: NewsFilter, window: RowWindow): Promise<NewsItemRow[]> {
    const { where, params } = filterSql(filter, []);
    const order = filter.hotSince ? 'i.hot_score DESC, i.published_at DESC, i.id DESC' : 'i.published_at DESC, i.id DESC';
    const from = fromOf(filter);
    // Through the link table's (asset, time) index when filtered by asset: the order is the index's.
    const assetOrder = filter.assetId !== undefined && !filter.hotSince ? 'a.published_at DESC, a.news_id DESC' : order;
    params.push(window.take, window.offset);
    const rows = await this.db.query(
      `SELECT ${NEWS_ITEM_COLUMNS} FROM ${from} ${where} ORDER BY ${assetOrder} LIMIT $${params.length - 1} OFFSET $${params.length}`,
      params,
    );
    return rows.map(toNewsItemRow);
  }

  /**
   * Full-text search: `websearch_to_tsquery` over the weighted tsvector (quotes, OR and minus work; no input
   * is a syntax error). CJK text is matched as a substring; a Latin query with no match at all tries the
   * title words it is a misspelling of (pg_trgm). `latest` orders by time through the index; `relevance`
   * ranks the newest RELEVANCE_WINDOW matches with ts_rank_cd.
   */
  async search(q: string, sort: SearchSort, filter: NewsFilter, window: RowWindow): Promise<NewsItemRow[]> {
    if (CJK.test(q)) return this.searchSubstring(q, filter, window);
    const found = await this.searchWords(q, sort, filter, window);
    if (found.length > 0 || (window.offset > 0 && (await this.anyWordMatch(q, filter)))) return found;
    return this.searchMisspelt(q, filter, window);
  }

  async byId(id: number): Promise<NewsItemRow | null> {
    const rows = await this.db.query(`SELECT ${NEWS_ITEM_COLUMNS} FROM news_items i WHERE i.id = $1`, [id]);
    return rows.length === 0 ? null : toNewsItemRow(rows[0]);
  }

  async assetsOf(newsIds: readonly number[]): Promise<NewsAssetRow[]> {
    if (newsIds.length === 0) return [];
    const rows: Array<Record<string, unknown>> = await this.db.query(
      `SELECT l.news_id, s.id, s.symbol, s.name, s.type
         FROM news_item_assets l JOIN assets s ON s.id = l.asset_id
        WHERE l.news_id = ANY($1::int[])
        ORDER BY l.news_id, s.market_cap_rank NULLS LAST, s.id`,
      [newsIds],
    );
    return rows.map((r) => ({ newsId: Number(r.news_id), id: Number(r.id), symbol: String(r.symbol), name: String(r.name), type: String(r.type) }));
  }

  /** The analyses of these items in these locales (the requested one and English, its fallback). */
  async analysesOf(newsIds: readonly number[], locales: readonly NewsLocale[]): Promise<NewsAnalysisRow[]> {
    if (newsIds.length === 0) return [];
    const rows = await this.db.query(`SELECT * FROM news_analyses WHERE news_id = ANY($1::int[]) AND locale = ANY($2::text[])`, [newsIds, locales]);
    return rows.map(toNewsAnalysisRow);
  }

  /** The stock's headline feed, or null when none is kept for it (stock feeds off, or the stock is new). */
  async stockFeedOf(assetId: number): Promise<StockFeedState | null> {
    const rows: Array<Record<string, unknown>> = await this.db.query(
      `SELECT source, source_symbol, last_success_at, oldest_item_at, last_error FROM news_feeds WHERE asset_id = $1 ORDER BY name LIMIT 1`,
      [assetId],
    );
    if (rows.length === 0) return null;
    const r = rows[0];
    const date = (value: unknown) => (value === null ? null : new Date(value as string | Date));
    return {
      source: String(r.source),
      sourceSymbol: (r.source_symbol as string | null) ?? null,
      lastSuccessAt: date(r.last_success_at),
      oldestItemAt: date(r.oldest_item_at),
      lastError: (r.last_error as string | null) ?? null,
    };
  }

  private async searchWords(q: string, sort: SearchSort, filter: NewsFilter, window: RowWindow): Promise<NewsItemRow[]> {
    const params: unknown[] = [q];
    const { where, params: all } = filterSql(filter, params, [`i.search @@ websearch_to_tsquery('english', $1)`]);
    const from = fromOf(filter);
    if (sort === 'latest') {
      all.push(window.take, window.offset);
      const rows = await this.db.query(
        `SELECT ${NEWS_ITEM_COLUMNS} FROM ${from} ${where}
          ORDER BY i.published_at DESC, i.id DESC LIMIT $${all.length - 1} OFFSET $${all.length}`,
        all,
      );
      return rows.map(toNewsItemRow);
    }
    all.push(RELEVANCE_WINDOW, window.take, window.offset);
    const n = all.length;
    const rows = await this.db.query(
      `WITH recent AS (
         SELECT i.id, i.published_at, i.search FROM ${from} ${where}
          ORDER BY i.published_at DESC, i.id DESC LIMIT $${n - 2}
       ), ranked AS (
         SELECT id, ts_rank_cd(search, websearch_to_tsquery('english', $1), 32) AS rank, published_at FROM recent
          ORDER BY rank DESC, published_at DESC, id DESC LIMIT $${n - 1} OFFSET $${n}
       )
       SELECT ${NEWS_ITEM_COLUMNS} FROM ranked r JOIN news_items i ON i.id = r.id
        ORDER BY r.rank DESC, r.published_at DESC, r.id DESC`,
      all,
    );
    return rows.map(toNewsItemRow);
  }

  /** Title or summary containing the text; newest first (no ranking: the text is matched whole). */
  private async searchSubstring(q: string, filter: NewsFilter, window: RowWindow): Promise<NewsItemRow[]> {
    const { where, params } = filterSql(filter, [`%${escapeLike(q)}%`], ['(i.title ILIKE $1 OR i.summary ILIKE $1)']);
    const from = fromOf(filter);
    params.push(window.take, window.offset);
    const rows = await this.db.query(
      `SELECT ${NEWS_ITEM_COLUMNS} FROM ${from} ${where} ORDER BY i.published_at DESC, i.id DESC LIMIT $${params.length - 1} OFFSET $${params.length}`,
      params,
    );
    return rows.map(toNewsItemRow);
  }

  /** Whether the query matches any item as words: a page past the last of them is empty, not a cue to try typos. */
  private async anyWordMatch(q: string, filter: NewsFilter): Promise<boolean> {
    const { where, params } = filterSql(filter, [q], [`i.search @@ websearch_to_tsquery('english', $1)`]);
    const rows = await this.db.query(`SELECT 1 FROM ${fromOf(filter)} ${where} LIMIT 1`, params);
    return rows.length > 0;
  }

  /** Titles with a word close to the query (a typo of it), closest first; none where pg_trgm is missing. */
  private async searchMisspelt(q: string, filter: NewsFilter, window: RowWindow): Promise<NewsItemRow[]> {
    const trgm = await this.trigram.get();
    if (trgm === null) return [];
    const { where, params } = filterSql(filter, [q, TYPO_SIMILARITY], [`${trgm}.word_similarity($1, i.title) >= $2`]);
    const from = fromOf(filter);
    params.push(window.take, window.offset);
    const rows = await this.db.query(
      `SELECT ${NEWS_ITEM_COLUMNS} FROM ${from} ${where}
        ORDER BY ${trgm}.word_similarity($1, i.title) DESC, i.published_at DESC, i.id DESC LIMIT $${params.length - 1} OFFSET $${params.length}`,
      params,
    );
    return rows.map(toNewsItemRow);
  }
}

/** The items, through the link table when filtered by asset. */
function fromOf(filter: NewsFilter): string {
  return filter.assetId === undefined ? 'news_items i' : 'news_item_assets a JOIN news_items i ON i.id = a.news_id';
}

/** The WHERE clause of a filter, its parameters appended after `params`. */
function filterSql(filter: NewsFilter, params: unknown[], conditions: string[] = []): { where: string; params: unknown[] } {
  const all = [...params];
  const clauses = [...conditions];
  if (filter.assetId !== undefined) {
    all.push(filter.assetId);
    clauses.push(`a.asset_id = $${all.length}`);
  }
  if (filter.type !== undefined) {
    all.push([filter.type]);
    clauses.push(`i.asset_types @> $${all.length}::varchar[]`);
  }
  if (filter.hotSince !== undefined) {
    all.push(filter.hotSince);
    clauses.push(`i.published_at >= $${all.length}`);
  }
  return { where: clauses.length === 0 ? '' : `WHERE ${clauses.join(' AND ')}`, params: all };
}
