import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * News: the feeds read (with their conditional-GET validators and last good read), the items (summaries only,
 * deduplicated on source + guid and on the canonical URL), their links to catalogue assets, and one analysis
 * row per item and locale with its provenance (provider, model, time).
 *
 * `search` is a stored, weighted tsvector (title above summary) with a GIN index: `sort=latest` reads it with
 * the publish-time index, never ranking. The trigram index (CJK text, typos) exists where pg_trgm does (see
 * the Markets catalogue migration). `news_item_assets` repeats the publish time so a per-asset feed is one
 * index range in publish order.
 */
export class News1764900000000 implements MigrationInterface {
  name = 'News1764900000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE news_feeds (
        name varchar(64) PRIMARY KEY,
        url text NOT NULL,
        kind varchar(8) NOT NULL CHECK (kind IN ('outlet', 'stock')),
        source varchar(64) NOT NULL,
        asset_id integer REFERENCES assets(id) ON DELETE CASCADE,
        source_symbol text,
        etag text,
        last_modified text,
        ttl_ms integer,
        next_read_at timestamptz NOT NULL DEFAULT now(),
        last_attempt_at timestamptz,
        last_success_at timestamptz,
        last_error text,
        failures integer NOT NULL DEFAULT 0,
        oldest_item_at timestamptz,
        CONSTRAINT news_feeds_stock_ck CHECK ((kind = 'stock') = (asset_id IS NOT NULL))
      )`);
    await q.query(`CREATE INDEX news_feeds_due_idx ON news_feeds (next_read_at)`);
    await q.query(`CREATE INDEX news_feeds_asset_idx ON news_feeds (asset_id) WHERE asset_id IS NOT NULL`);
    await q.query(`
      CREATE TABLE news_items (
        id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        source varchar(64) NOT NULL,
        guid text NOT NULL,
        url text NOT NULL,
        title text NOT NULL,
        summary text NOT NULL DEFAULT '',
        image_url text,
        publisher text,
        published_at timestamptz NOT NULL,
        tags text[] NOT NULL DEFAULT '{}',
        concepts text[] NOT NULL DEFAULT '{}',
        asset_types varchar(16)[] NOT NULL DEFAULT '{}',
        content_class varchar(16) NOT NULL DEFAULT 'normal',
        sentiment real,
        story_id integer,
        coverage smallint NOT NULL DEFAULT 1,
        hot_score real NOT NULL DEFAULT 0,
        analysis_state varchar(12) NOT NULL DEFAULT 'pending' CHECK (analysis_state IN ('pending', 'translating', 'ready', 'failed')),
        locales varchar(5)[] NOT NULL DEFAULT '{}',
        analysis_attempts smallint NOT NULL DEFAULT 0,
        analysis_due_at timestamptz NOT NULL DEFAULT now(),
        ingested_at timestamptz NOT NULL DEFAULT now(),
        search tsvector GENERATED ALWAYS AS (
          setweight(to_tsvector('english', title), 'A') || setweight(to_tsvector('english', summary), 'B')
        ) STORED,
        CONSTRAINT news_items_source_guid_uq UNIQUE (source, guid)
      )`);
    await q.query(`CREATE UNIQUE INDEX news_items_url_uq ON news_items (url)`);
    await q.query(`CREATE INDEX news_items_published_idx ON news_items (published_at DESC, id DESC)`);
    await q.query(`CREATE INDEX news_items_search_idx ON news_items USING gin (search)`);
    await q.query(`CREATE INDEX news_items_asset_types_idx ON news_items USING gin (asset_types)`);
    await q.query(`CREATE INDEX news_items_story_idx ON news_items (story_id) WHERE story_id IS NOT NULL`);
    await q.query(`CREATE INDEX news_items_unjoined_idx ON news_items (id) WHERE story_id IS NULL`);
    await q.query(`CREATE INDEX news_items_analysis_due_idx ON news_items (analysis_due_at) WHERE analysis_state IN ('pending', 'translating')`);
    await q.query(`
      DO $$
      DECLARE trgm_schema text;
      BEGIN
        SELECT n.nspname INTO trgm_schema
          FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'pg_trgm';
        IF trgm_schema IS NOT NULL THEN
          EXECUTE format('CREATE INDEX news_items_text_trgm_idx ON news_items USING gin (title %1$I.gin_trgm_ops, summary %1$I.gin_trgm_ops)', trgm_schema);
        END IF;
      END $$`);
    await q.query(`
      CREATE TABLE news_item_assets (
        news_id integer NOT NULL REFERENCES news_items(id) ON DELETE CASCADE,
        asset_id integer NOT NULL REFERENCES assets(id) ON DELETE CASCADE,
        published_at timestamptz NOT NULL,
        PRIMARY KEY (news_id, asset_id)
      )`);
    await q.query(`CREATE INDEX news_item_assets_feed_idx ON news_item_assets (asset_id, published_at DESC, news_id DESC)`);
    await q.query(`
      CREATE TABLE news_analyses (
        news_id integer NOT NULL REFERENCES news_items(id) ON DELETE CASCADE,
        locale varchar(5) NOT NULL,
        title text NOT NULL,
        core_summary text NOT NULL,
        direction varchar(8) NOT NULL CHECK (direction IN ('bullish', 'bearish', 'neutral')),
        affected_assets text NOT NULL,
        impact_logic text NOT NULL,
        time_horizon text NOT NULL,
        risks_and_watchlist text NOT NULL,
        provider varchar(32) NOT NULL,
        model text NOT NULL,
        generated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (news_id, locale)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE news_analyses`);
    await q.query(`DROP TABLE news_item_assets`);
    await q.query(`DROP TABLE news_items`);
    await q.query(`DROP TABLE news_feeds`);
  }
}
