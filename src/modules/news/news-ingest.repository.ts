import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { TrigramSchema } from '../../infra/database/sql-text';
import type { FeedValidators, SourceNewsItem } from '../../providers/news-source-provider';

export type FeedKind = 'outlet' | 'stock';

/** A feed as configuration (outlets) or the catalogue (one per listed stock) has it. */
export interface FeedSetting {
  name: string;
  url: string;
  kind: FeedKind;
  /** What its items are stored under: the outlet's name, or the stock headline vendor's. */
  source: string;
  assetId: number | null;
  sourceSymbol: string | null;
}

/** A feed due for a read, with what its last read left. */
export interface DueFeed extends FeedSetting {
  validators: FeedValidators;
  ttlMs: number | null;
  failures: number;
}

export type FeedReadOutcome =
  { ok: true; validators: FeedValidators; ttlMs: number | null; nextReadAt: Date; oldestItemAt: Date | null } | { ok: false; error: string; nextReadAt: Date };

/** A listed asset: what the linker matches and, for a stock, whose headline feed is read. */
export interface CatalogueEntry {
  id: number;
  symbol: string;
  name: string;
  type: string;
  yahooSymbol: string | null;
  /** For ranking only (which of two same-ticker assets an item means), so a float is fine. */
  marketCapUsd: number | null;
}

/** An item ready to store: the source's fields plus the linker's topics. */
export interface NewItem extends SourceNewsItem {
  source: string;
  concepts: string[];
}

/** Items of two sources whose titles are at least this similar (pg_trgm), within STORY_WINDOW, are one story. */
const STORY_SIMILARITY = 0.45;
const STORY_WINDOW = '48 hours';
/** Items joined per run at most; more wait for the next run. */
const STORY_BATCH = 5_000;

/** The ingestion job's writes: feed state, items, their asset links, and story coverage (hotness). */
@Injectable()
export class NewsIngestRepository {
  private readonly trigram: TrigramSchema;

  constructor(@InjectDataSource() private readonly db: DataSource) {
    this.trigram = new TrigramSchema(db);
  }

  /** The listed catalogue, as the linker and the stock feeds need it: largest market cap first. */
  async linkableAssets(): Promise<CatalogueEntry[]> {
    const rows: Array<Record<string, unknown>> = await this.db.query(
      `SELECT a.id, a.symbol, a.name, a.type, a.yahoo_symbol, q.market_cap_usd
         FROM assets a LEFT JOIN asset_quotes q ON q.asset_id = a.id
        WHERE a.listed ORDER BY q.market_cap_usd DESC NULLS LAST, a.id`,
    );
    return rows.map((r) => ({
      id: Number(r.id),
      symbol: String(r.symbol),
      name: String(r.name),
      type: String(r.type),
      yahooSymbol: (r.yahoo_symbol as string | null) ?? null,
      marketCapUsd: r.market_cap_usd === null ? null : Number(r.market_cap_usd),
    }));
  }

  /** Makes news_feeds hold exactly these feeds: new ones due at once, changed URLs updated, the others removed. */
  async syncFeeds(feeds: readonly FeedSetting[]): Promise<void> {
    const entries = feeds.map((f) => ({ name: f.name, url: f.url, kind: f.kind, source: f.source, asset_id: f.assetId, source_symbol: f.sourceSymbol }));
    await this.db.transaction(async (tx) => {
      await tx.query(
        `INSERT INTO news_feeds (name, url, kind, source, asset_id, source_symbol)
         SELECT name, url, kind, source, asset_id, source_symbol
           FROM jsonb_to_recordset($1::jsonb) AS f(name text, url text, kind text, source text, asset_id integer, source_symbol text)
         ON CONFLICT (name) DO UPDATE SET url = EXCLUDED.url, kind = EXCLUDED.kind, source = EXCLUDED.source,
           asset_id = EXCLUDED.asset_id, source_symbol = EXCLUDED.source_symbol`,
        [JSON.stringify(entries)],
      );
      await tx.query(`DELETE FROM news_feeds WHERE NOT (name = ANY($1::text[]))`, [feeds.map((f) => f.name)]);
    });
  }

  async dueFeeds(now: Date, limit: number): Promise<DueFeed[]> {
    // Of feeds due at once (all of them, the first time), outlets first, then the largest stocks.
    const rows: Array<Record<string, unknown>> = await this.db.query(
      `SELECT f.* FROM news_feeds f LEFT JOIN asset_quotes q ON q.asset_id = f.asset_id
        WHERE f.next_read_at <= $1
        ORDER BY f.next_read_at, f.kind = 'stock', q.market_cap_usd DESC NULLS LAST, f.name LIMIT $2`,
      [now, limit],
    );
    return rows.map((r) => ({
      name: String(r.name),
      url: String(r.url),
      kind: r.kind as FeedKind,
      source: String(r.source),
      assetId: r.asset_id === null ? null : Number(r.asset_id),
      sourceSymbol: (r.source_symbol as string | null) ?? null,
      validators: { etag: (r.etag as string | null) ?? null, lastModified: (r.last_modified as string | null) ?? null },
      ttlMs: r.ttl_ms === null ? null : Number(r.ttl_ms),
      failures: Number(r.failures),
    }));
  }

  /** A read's outcome; a failure keeps the last success time and validators (the feed was not read). */
  async recordRead(name: string, outcome: FeedReadOutcome): Promise<void> {
    if (outcome.ok) {
      await this.db.query(
        `UPDATE news_feeds SET etag = $2, last_modified = $3, ttl_ms = $4, next_read_at = $5, last_attempt_at = now(), last_success_at = now(),
           last_error = NULL, failures = 0, oldest_item_at = LEAST(oldest_item_at, $6)
         WHERE name = $1`,
        [name, outcome.validators.etag, outcome.validators.lastModified, outcome.ttlMs, outcome.nextReadAt, outcome.oldestItemAt],
      );
      return;
    }
    await this.db.query(`UPDATE news_feeds SET next_read_at = $2, last_attempt_at = now(), last_error = $3, failures = failures + 1 WHERE name = $1`, [
      name,
      outcome.nextReadAt,
      outcome.error,
    ]);
  }

  /**
   * Stores the items not stored yet (a second copy by source + guid or by canonical URL is dropped) and returns
   * the id of every item given, new or already there, by guid; `created` lists the new ones.
   */
  async insertItems(items: readonly NewItem[]): Promise<{ idsByGuid: Map<string, number>; created: number[] }> {
    if (items.length === 0) return { idsByGuid: new Map(), created: [] };
    const entries = items.map((item) => ({
      source: item.source,
      guid: item.guid,
      url: item.url,
      title: item.title,
      summary: item.summary,
      image_url: item.imageUrl,
      publisher: item.publisher,
      published_at: item.publishedAt,
      tags: item.categories,
      concepts: item.concepts,
    }));
    const created: Array<{ id: number }> = await this.db.query(
      `INSERT INTO news_items (source, guid, url, title, summary, image_url, publisher, published_at, tags, concepts)
       SELECT source, guid, url, title, summary, image_url, publisher, published_at, tags, concepts
         FROM jsonb_to_recordset($1::jsonb) AS n(source text, guid text, url text, title text, summary text, image_url text,
              publisher text, published_at timestamptz, tags text[], concepts text[])
       ON CONFLICT DO NOTHING
       RETURNING id`,
      [JSON.stringify(entries)],
    );
    const rows: Array<{ id: number; guid: string }> = await this.db.query(
      `SELECT i.id, n.guid FROM jsonb_to_recordset($1::jsonb) AS n(source text, guid text, url text)
         JOIN news_items i ON (i.source = n.source AND i.guid = n.guid) OR i.url = n.url`,
      [JSON.stringify(entries.map(({ source, guid, url }) => ({ source, guid, url })))],
    );
    return { idsByGuid: new Map(rows.map((r) => [r.guid, Number(r.id)])), created: created.map((r) => Number(r.id)) };
  }

  /** Adds links (existing ones stay) and refreshes the linked items' asset classes, the `type` filter's column. */
  async linkAssets(links: ReadonlyArray<{ newsId: number; assetId: number }>): Promise<void> {
    if (links.length === 0) return;
    const ids = [...new Set(links.map((link) => link.newsId))];
    await this.db.transaction(async (tx) => {
      await tx.query(
        `INSERT INTO news_item_assets (news_id, asset_id, published_at)
         SELECT l.news_id, l.asset_id, i.published_at
           FROM jsonb_to_recordset($1::jsonb) AS l(news_id integer, asset_id integer) JOIN news_items i ON i.id = l.news_id
         ON CONFLICT DO NOTHING`,
        [JSON.stringify(links.map((link) => ({ news_id: link.newsId, asset_id: link.assetId })))],
      );
      await tx.query(
        `UPDATE news_items i SET asset_types = COALESCE(
           (SELECT array_agg(DISTINCT s.type ORDER BY s.type) FROM news_item_assets l JOIN assets s ON s.id = l.asset_id WHERE l.news_id = i.id), '{}')
         WHERE i.id = ANY($1::int[])`,
        [ids],
      );
    });
  }

  /**
   * Puts each item not in a story yet (oldest first) into one: the story of the most similar title of another
   * source within STORY_WINDOW, or its own. Then sets coverage (distinct sources of the story) and hot_score
   * (coverage plus up to 1 for the size of the largest linked asset: 0 at 1M USD market cap, 1 at 1T) on every
   * item of the stories touched. One caller at a time (the ingestion job's lock): two joining at once could
   * each join the other's copy.
   */
  async joinStories(): Promise<number> {
    const unjoined: Array<{ id: number }> = await this.db.query(`SELECT id FROM news_items WHERE story_id IS NULL ORDER BY id LIMIT $1`, [STORY_BATCH]);
    if (unjoined.length === 0) return 0;
    const sorted = unjoined.map((row) => Number(row.id));
    const trgm = await this.trigram.get();
    if (trgm !== null) {
      // One at a time, oldest first, so two copies of a story arriving together join the same one.
      for (const id of sorted) {
        await this.db.query(
          `UPDATE news_items n SET story_id = COALESCE((
             SELECT COALESCE(o.story_id, o.id) FROM news_items o
              WHERE o.id <> n.id AND o.source <> n.source
                AND o.published_at BETWEEN n.published_at - interval '${STORY_WINDOW}' AND n.published_at + interval '${STORY_WINDOW}'
                AND ${trgm}.similarity(o.title, n.title) >= $2
              ORDER BY ${trgm}.similarity(o.title, n.title) DESC, o.id LIMIT 1), n.id)
           WHERE n.id = $1`,
          [id, STORY_SIMILARITY],
        );
      }
    } else {
      await this.db.query(`UPDATE news_items SET story_id = id WHERE id = ANY($1::int[])`, [sorted]);
    }
    await this.db.query(
      `WITH stories AS (SELECT DISTINCT story_id FROM news_items WHERE id = ANY($1::int[])),
       coverage AS (
         SELECT i.story_id, count(DISTINCT i.source)::int AS sources FROM news_items i JOIN stories s ON s.story_id = i.story_id GROUP BY i.story_id
       )
       UPDATE news_items i SET coverage = c.sources, hot_score = c.sources + COALESCE((
           SELECT max(LEAST(GREATEST((log(q.market_cap_usd) - 6) / 6, 0), 1))::real
             FROM news_item_assets l JOIN asset_quotes q ON q.asset_id = l.asset_id
            WHERE l.news_id = i.id AND q.market_cap_usd > 0), 0)
         FROM coverage c WHERE i.story_id = c.story_id`,
      [sorted],
    );
    return sorted.length;
  }
}
