import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The Markets asset catalogue and one latest quote per asset. Assets are keyed by their vendor id
 * (coingecko_id for crypto, yahoo_symbol for the rest), never by symbol: several coins share a ticker.
 * `id` is the contract's asset id, so it is an identity column that is never reused; an asset that leaves
 * the universe is kept with listed = false rather than deleted.
 *
 * Search uses pg_trgm where the server can load it (PostgreSQL; PGlite only when the extension is handed
 * to PGlite at start-up). It goes into `public`, not the current schema, so a schema-scoped test suite that
 * drops its schema does not drop the extension under another one. Without it, prefix btree indexes serve
 * the exact and prefix tiers and the fuzzy tier falls back to a substring scan (the catalogue is small).
 */
export class MarketsCatalogue1764800000000 implements MigrationInterface {
  name = 'MarketsCatalogue1764800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE assets (
        id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        type varchar(16) NOT NULL CHECK (type IN ('CRYPTO', 'STOCK', 'ETF', 'FOREX', 'COMMODITY')),
        symbol varchar(32) NOT NULL,
        name text NOT NULL,
        market varchar(2) CHECK (market IN ('US', 'HK', 'JP', 'KR')),
        stock_code varchar(40),
        currency varchar(8),
        sector text,
        industry text,
        categories text[] NOT NULL DEFAULT '{}',
        coingecko_id text UNIQUE,
        yahoo_symbol text UNIQUE,
        binance_pair text,
        market_cap_rank integer,
        listed boolean NOT NULL DEFAULT true,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT assets_vendor_id_ck CHECK (coingecko_id IS NOT NULL OR yahoo_symbol IS NOT NULL),
        CONSTRAINT assets_stock_code_ck CHECK ((type = 'STOCK') = (stock_code IS NOT NULL AND market IS NOT NULL))
      )`);
    await q.query(`CREATE INDEX assets_symbol_idx ON assets (lower(symbol))`);
    await q.query(`CREATE UNIQUE INDEX assets_stock_code_uq ON assets (lower(stock_code)) WHERE stock_code IS NOT NULL`);
    await q.query(`CREATE INDEX assets_type_idx ON assets (type)`);
    await q.query(`CREATE INDEX assets_market_idx ON assets (market) WHERE market IS NOT NULL`);
    await q.query(`CREATE INDEX assets_categories_idx ON assets USING gin (categories)`);
    await q.query(`
      DO $$
      BEGIN
        CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public;
      EXCEPTION WHEN OTHERS THEN
        RAISE NOTICE 'pg_trgm unavailable (%); search falls back to prefix and substring matching', SQLERRM;
      END $$`);
    await q.query(`
      DO $$
      DECLARE trgm_schema text;
      BEGIN
        SELECT n.nspname INTO trgm_schema
          FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'pg_trgm';
        IF trgm_schema IS NOT NULL THEN
          EXECUTE format('CREATE INDEX assets_search_trgm_idx ON assets USING gin (lower(symbol) %1$I.gin_trgm_ops, lower(name) %1$I.gin_trgm_ops)', trgm_schema);
        END IF;
      END $$`);
    await q.query(`CREATE INDEX assets_symbol_prefix_idx ON assets (lower(symbol) text_pattern_ops)`);
    await q.query(`CREATE INDEX assets_name_prefix_idx ON assets (lower(name) text_pattern_ops)`);
    await q.query(`
      CREATE TABLE asset_quotes (
        asset_id integer PRIMARY KEY REFERENCES assets(id),
        price numeric,
        change1h numeric,
        change24h numeric,
        change7d numeric,
        volume24h numeric,
        market_cap numeric,
        high24h numeric,
        low24h numeric,
        market_cap_usd numeric,
        volume24h_usd numeric,
        sparkline_7d numeric[] NOT NULL DEFAULT '{}',
        source_updated_at timestamptz,
        refreshed_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX asset_quotes_change24h_idx ON asset_quotes (change24h DESC NULLS LAST)`);
  }

  async down(q: QueryRunner): Promise<void> {
    // pg_trgm stays: it is database-wide and other objects may use it.
    await q.query(`DROP TABLE asset_quotes`);
    await q.query(`DROP TABLE assets`);
  }
}
