import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { AnalysisText, EnglishAnalysis, NewsLocale } from '../../providers/analysis-provider';
import { NEWS_ITEM_COLUMNS, NewsItemRow, toNewsItemRow } from './news-rows';

/** Who wrote an analysis: stored beside it. */
export interface Provenance {
  provider: string;
  model: string;
}

/** The analysis job's queue and writes (news_items.analysis_state, news_analyses). */
@Injectable()
export class NewsAnalysisRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Items due for their English analysis (newest first), then those due for translations (newest first). */
  async due(now: Date, limit: number): Promise<Array<NewsItemRow & { attempts: number }>> {
    const rows: Array<Record<string, unknown>> = await this.db.query(
      `SELECT ${NEWS_ITEM_COLUMNS}, i.analysis_attempts FROM news_items i
        WHERE i.analysis_state IN ('pending', 'translating') AND i.analysis_due_at <= $1
        ORDER BY i.analysis_state = 'pending' DESC, i.published_at DESC, i.id DESC LIMIT $2`,
      [now, limit],
    );
    return rows.map((r) => ({ ...toNewsItemRow(r), attempts: Number(r.analysis_attempts) }));
  }

  /** The English analysis and the item's sentiment, in one transaction; `translate` queues the other locales. */
  async storeEnglish(newsId: number, analysis: EnglishAnalysis, by: Provenance, translate: boolean): Promise<void> {
    await this.db.transaction(async (tx) => {
      await upsertAnalysis(tx, newsId, 'en', analysis, by);
      await tx.query(
        `UPDATE news_items SET sentiment = $2, locales = ARRAY['en']::varchar[], analysis_state = $3, analysis_attempts = 0, analysis_due_at = now()
          WHERE id = $1`,
        [newsId, analysis.sentiment, translate ? 'translating' : 'ready'],
      );
    });
  }

  /** One translation; `complete` when it was the last locale missing. */
  async storeTranslation(newsId: number, locale: NewsLocale, text: AnalysisText, by: Provenance, complete: boolean): Promise<void> {
    await this.db.transaction(async (tx) => {
      await upsertAnalysis(tx, newsId, locale, text, by);
      await tx.query(
        `UPDATE news_items SET locales = array_append(array_remove(locales, $2::varchar), $2::varchar), analysis_attempts = 0,
           analysis_state = CASE WHEN $3 THEN 'ready' ELSE analysis_state END
          WHERE id = $1`,
        [newsId, locale, complete],
      );
    });
  }

  /** Every locale is stored already (a run stopped between the last translation and its state change). */
  async markReady(newsId: number): Promise<void> {
    await this.db.query(`UPDATE news_items SET analysis_state = 'ready', analysis_attempts = 0 WHERE id = $1 AND analysis_state = 'translating'`, [newsId]);
  }

  /** A failed attempt: tried again at `dueAt`, or given up (`failed`), the item served without (more) analysis. */
  async recordFailure(newsId: number, { dueAt, giveUp }: { dueAt: Date; giveUp: boolean }): Promise<void> {
    await this.db.query(
      `UPDATE news_items SET analysis_attempts = analysis_attempts + 1, analysis_due_at = $2,
         analysis_state = CASE WHEN NOT $3 THEN analysis_state WHEN analysis_state = 'translating' THEN 'ready' ELSE 'failed' END
        WHERE id = $1`,
      [newsId, dueAt, giveUp],
    );
  }
}

function upsertAnalysis(tx: EntityManager, newsId: number, locale: NewsLocale, text: AnalysisText, by: Provenance): Promise<unknown> {
  return tx.query(
    `INSERT INTO news_analyses (news_id, locale, title, core_summary, direction, affected_assets, impact_logic, time_horizon, risks_and_watchlist, provider, model)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
     ON CONFLICT (news_id, locale) DO UPDATE SET title = EXCLUDED.title, core_summary = EXCLUDED.core_summary, direction = EXCLUDED.direction,
       affected_assets = EXCLUDED.affected_assets, impact_logic = EXCLUDED.impact_logic, time_horizon = EXCLUDED.time_horizon,
       risks_and_watchlist = EXCLUDED.risks_and_watchlist, provider = EXCLUDED.provider, model = EXCLUDED.model, generated_at = now()`,
    [
      newsId,
      locale,
      text.title,
      text.coreSummary,
      text.direction,
      text.affectedAssets,
      text.impactLogic,
      text.timeHorizon,
      text.risksAndWatchlist,
      by.provider,
      by.model,
    ],
  );
}
