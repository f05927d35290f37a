import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ASSET_COLUMNS, AssetPage, AssetQuoteInput, AssetRow, CatalogueAsset, toAssetRow } from './asset-row';
import type { AssetType, StockMarket } from './asset-types';
import type { SortOrder } from '../../common/pagination/sort-order';
import { escapeLike, TrigramSchema } from '../../infra/database/sql-text';

/** `/assets` sort keys and the only SQL each one may put into ORDER BY. */
export const ASSET_SORT_COLUMNS = {
  marketCap: 'q.market_cap_usd',
  volume24h: 'q.volume24h_usd',
  price: 'q.price',
  change24h: 'q.change24h',
  change7d: 'q.change7d',
  symbol: 'lower(a.symbol)',
} as const;
export type AssetSort = keyof typeof ASSET_SORT_COLUMNS;
export const ASSET_SORTS = Object.keys(ASSET_SORT_COLUMNS) as AssetSort[];

export interface PageWindow {
  limit: number;
  offset: number;
}

export interface ListAssetsParams extends PageWindow {
  /** Undefined lists every class (the contract's `ALL`). */
  type?: AssetType;
  market?: StockMarket;
  category?: string;
  sort: AssetSort;
  order: SortOrder;
}

export interface SearchAssetsParams extends PageWindow {
  /** 2 to 64 characters; the query DTO enforces the bounds. */
  q: string;
  type?: AssetType;
}

export interface TopGainersParams extends PageWindow {
  type?: AssetType;
  /** Assets with less 24 h volume (in USD) are left out, so illiquid junk does not top the list. */
  minVolume24hUsd: string;
}

export interface SearchHit {
  id: number;
  type: AssetType;
  symbol: string;
  name: string;
  market: StockMarket | null;
  stockCode: string | null;
  /** When the asset's quote was last refreshed; null before the first refresh. */
  refreshedAt: Date | null;
}

/** A coin's asset id and latest USD figures (null before its first quote). */
export interface CoinFigures {
  id: number;
  price: string | null;
  volume24h: string | null;
  marketCap: string | null;
}

export interface RefreshTarget {
  id: number;
  type: AssetType;
  coingeckoId: string | null;
  yahooSymbol: string | null;
  /** Quote currency; null means USD. */
  currency: string | null;
}

// A symbol is compared with the whole query (pg_trgm's default threshold for %); the query with the closest
// stretch of a name, looser than pg_trgm's 0.6 so one dropped letter still matches ("tencnt": 0.57 against
// "tencent holdings"). Fuzzy hits rank after exact, prefix and substring ones anyway.
const SYMBOL_SIMILARITY = 0.3;
const NAME_WORD_SIMILARITY = 0.5;
const LISTED_ASSETS = 'FROM assets a LEFT JOIN asset_quotes q ON q.asset_id = a.id WHERE a.listed';

/**
 * All SQL of the Markets catalogue: vendor-keyed upserts for the refresh jobs, and the reads behind
 * `/assets`, `/assets/{symbol}`, `/search` and `/trending-gainers`. Reads see listed assets only, except
 * symbol resolution, which still finds a delisted asset when nothing listed matches.
 */
@Injectable()
export class AssetsRepository {
  private readonly trigram: TrigramSchema;

  constructor(@InjectDataSource() private readonly db: DataSource) {
    this.trigram = new TrigramSchema(db);
  }

  /**
   * Inserts or updates catalogue entries by vendor id: coingeckoId when set, else yahooSymbol. An existing
   * asset keeps its id and is listed again; metadata an entry leaves empty (sector, industry, currency,
   * Binance pair, categories) keeps its stored value.
   */
  async upsertCatalogue(entries: CatalogueAsset[]): Promise<RefreshTarget[]> {
    const byCoingecko = new Map<string, CatalogueAsset>();
    const byYahoo = new Map<string, CatalogueAsset>();
    for (const entry of entries) {
      if (entry.coingeckoId) byCoingecko.set(entry.coingeckoId, { ...entry, yahooSymbol: null });
      else if (entry.yahooSymbol) byYahoo.set(entry.yahooSymbol, entry);
      else throw new Error(`catalogue entry ${entry.symbol} has no vendor id`);
    }
    const crypto = await this.upsertKeyedBy('coingecko_id', [...byCoingecko.values()]);
    const others = await this.upsertKeyedBy('yahoo_symbol', [...byYahoo.values()]);
    return [...crypto, ...others];
  }

  /** Marks crypto assets that left the top-N universe as delisted; their ids stay reserved. */
  async delistCryptoExcept(coingeckoIds: string[]): Promise<number> {
    // Counted in SQL: the driver answers a bare UPDATE ... RETURNING as [rows, rowCount], not as rows.
    const [{ n }]: Array<{ n: number }> = await this.db.query(
      `WITH delisted AS (
         UPDATE assets SET listed = false, updated_at = now()
          WHERE type = 'CRYPTO' AND listed AND NOT (coingecko_id = ANY($1::text[])) RETURNING id)
       SELECT count(*)::int AS n FROM delisted`,
      [coingeckoIds],
    );
    return Number(n);
  }

  /** Listed assets of the given classes with their vendor ids, for the quote refresh jobs. */
  async listRefreshTargets(types: AssetType[]): Promise<RefreshTarget[]> {
    const rows: Array<Record<string, unknown>> = await this.db.query(
      `SELECT id, type, coingecko_id, yahoo_symbol, currency FROM assets WHERE listed AND type = ANY($1::text[]) ORDER BY id`,
      [types],
    );
    return rows.map(toRefreshTarget);
  }

  /** The stored latest price of each asset of these Yahoo symbols that has one. */
  async latestPricesByYahooSymbol(yahooSymbols: string[]): Promise<Map<string, string>> {
    if (yahooSymbols.length === 0) return new Map();
    const rows: Array<{ yahoo_symbol: string; price: string }> = await this.db.query(
      `SELECT a.yahoo_symbol, q.price::text AS price FROM assets a JOIN asset_quotes q ON q.asset_id = a.id
        WHERE a.yahoo_symbol = ANY($1::text[]) AND q.price IS NOT NULL`,
      [yahooSymbols],
    );
    return new Map(rows.map((r) => [r.yahoo_symbol, r.price]));
  }

  /** Our asset id and latest figures of these CoinGecko coins, listed or not (ids are never reused). */
  async coinsByCoingeckoId(coingeckoIds: string[]): Promise<Map<string, CoinFigures>> {
    if (coingeckoIds.length === 0) return new Map();
    const rows: Array<Record<string, unknown>> = await this.db.query(
      `SELECT a.coingecko_id, a.id, q.price::text AS price, q.volume24h::text AS volume, q.market_cap::text AS market_cap
         FROM assets a LEFT JOIN asset_quotes q ON q.asset_id = a.id WHERE a.coingecko_id = ANY($1::text[])`,
      [coingeckoIds],
    );
    return new Map(
      rows.map((r) => [
        String(r.coingecko_id),
        { id: Number(r.id), price: textOrNull(r.price), volume24h: textOrNull(r.volume), marketCap: textOrNull(r.market_cap) },
      ]),
    );
  }

  /** Listed assets per class (classes with none are absent). */
  async countListedByType(): Promise<Partial<Record<AssetType, number>>> {
    const rows: Array<{ type: AssetType; n: number }> = await this.db.query(`SELECT type, count(*)::int AS n FROM assets WHERE listed GROUP BY type`);
    return Object.fromEntries(rows.map((r) => [r.type, Number(r.n)]));
  }

  /** Replaces the latest quote of every given asset in one statement. */
  async upsertQuotes(quotes: AssetQuoteInput[]): Promise<void> {
    if (quotes.length === 0) return;
    await this.db.query(
      `INSERT INTO asset_quotes (asset_id, price, change1h, change24h, change7d, volume24h, market_cap, high24h, low24h,
                                 market_cap_usd, volume24h_usd, sparkline_7d, source_updated_at, refreshed_at)
       SELECT x."assetId", x.price, x.change1h, x.change24h, x.change7d, x.volume24h, x."marketCap", x.high24h, x.low24h,
              x."marketCapUsd", x."volume24hUsd", COALESCE(x."sparkline7d", '{}')::numeric[], x."sourceUpdatedAt", now()
         FROM jsonb_to_recordset($1::jsonb) AS x("assetId" integer, price numeric, change1h numeric, change24h numeric,
              change7d numeric, volume24h numeric, "marketCap" numeric, high24h numeric, low24h numeric,
              "marketCapUsd" numeric, "volume24hUsd" numeric, "sparkline7d" text[], "sourceUpdatedAt" timestamptz)
       ON CONFLICT (asset_id) DO UPDATE SET
         price = EXCLUDED.price, change1h = EXCLUDED.change1h, change24h = EXCLUDED.change24h, change7d = EXCLUDED.change7d,
         volume24h = EXCLUDED.volume24h, market_cap = EXCLUDED.market_cap, high24h = EXCLUDED.high24h, low24h = EXCLUDED.low24h,
         market_cap_usd = EXCLUDED.market_cap_usd, volume24h_usd = EXCLUDED.volume24h_usd, sparkline_7d = EXCLUDED.sparkline_7d,
         source_updated_at = EXCLUDED.source_updated_at, refreshed_at = EXCLUDED.refreshed_at`,
      [JSON.stringify(dedupeByAssetId(quotes))],
    );
  }

  /** The category slugs listed assets (of `types`, or any) carry, sorted: what the `category` filters accept. */
  async listedCategories(types?: readonly AssetType[]): Promise<string[]> {
    const rows: Array<{ slug: string }> = await this.db.query(
      `SELECT DISTINCT slug FROM assets a, unnest(a.categories) AS slug WHERE a.listed AND ($1::text[] IS NULL OR a.type = ANY($1)) ORDER BY slug`,
      [types ?? null],
    );
    return rows.map((r) => r.slug);
  }

  /** One page of listed assets; the sort key always comes from ASSET_SORT_COLUMNS, nulls last, then by id. */
  async listAssets({ type, market, category, sort, order, limit, offset }: ListAssetsParams): Promise<AssetPage> {
    const where = `${LISTED_ASSETS} AND ($1::text IS NULL OR a.type = $1) AND ($2::text IS NULL OR a.market = $2)
      AND ($3::text IS NULL OR a.categories @> ARRAY[$3::text])`;
    const filters = [type ?? null, market ?? null, category ?? null];
    const direction = order === 'asc' ? 'ASC' : 'DESC';
    const orderBy = `${ASSET_SORT_COLUMNS[sort]} ${direction} NULLS LAST, a.id ASC`;
    return this.page(where, orderBy, filters, { limit, offset });
  }

  /**
   * Resolves a path symbol by the contract's rules: case-insensitive; a stock by its bare ticker or its
   * `<TICKER>-<MARKET>` code. Among several matches: listed first; then by class, crypto before stocks
   * before ETFs, commodities and FX (a bare crypto ticker is never taken by a same-symbol ETF); then a
   * stock's primary listing, by market in the order US, HK, JP, KR (market caps of different markets are
   * in different currencies, and a company listed in the US as well is best known by that line); then
   * the largest market cap in USD (coins that share a ticker), then the best market-cap rank, then the
   * oldest id. `types` narrows the candidates (the stock routes ask for stocks only).
   */
  async resolveSymbol(symbol: string, types?: readonly AssetType[]): Promise<AssetRow | undefined> {
    const rows: Array<Record<string, unknown>> = await this.db.query(
      `SELECT ${ASSET_COLUMNS}
         FROM assets a LEFT JOIN asset_quotes q ON q.asset_id = a.id
        WHERE (lower(a.symbol) = $1 OR lower(a.stock_code) = $1) AND ($2::text[] IS NULL OR a.type = ANY($2::text[]))
        ORDER BY a.listed DESC,
                 CASE a.type WHEN 'CRYPTO' THEN 0 WHEN 'STOCK' THEN 1 WHEN 'ETF' THEN 2 WHEN 'COMMODITY' THEN 3 ELSE 4 END,
                 CASE a.market WHEN 'US' THEN 0 WHEN 'HK' THEN 1 WHEN 'JP' THEN 2 WHEN 'KR' THEN 3 ELSE 4 END,
                 q.market_cap_usd DESC NULLS LAST, a.market_cap_rank ASC NULLS LAST, a.id ASC
        LIMIT 1`,
      [symbol.trim().toLowerCase(), types ?? null],
    );
    return rows.length === 0 ? undefined : toAssetRow(rows[0]);
  }

  /**
   * Search over symbols, stock codes and names: exact symbol first, then prefix matches, then fuzzy ones
   * (substring, and trigram similarity where pg_trgm is installed); within each tier by market cap in USD.
   */
  async searchAssets({ q, type, limit, offset }: SearchAssetsParams): Promise<{ hits: SearchHit[]; total: number }> {
    const term = q.trim().toLowerCase();
    const trigram = await this.trigram.get();
    const fuzzy = trigram
      ? `OR ${trigram}.word_similarity($1, lower(a.name)) >= ${NAME_WORD_SIMILARITY} OR ${trigram}.similarity(lower(a.symbol), $1) >= ${SYMBOL_SIMILARITY}`
      : '';
    const where = `${LISTED_ASSETS} AND ($4::text IS NULL OR a.type = $4) AND (
        lower(a.symbol) = $1 OR lower(a.stock_code) = $1 OR lower(a.symbol) LIKE $2 OR lower(a.name) LIKE $2
        OR lower(a.symbol) LIKE $3 OR lower(a.name) LIKE $3 ${fuzzy})`;
    const tier = `CASE WHEN lower(a.symbol) = $1 OR lower(a.stock_code) = $1 THEN 0
                       WHEN lower(a.symbol) LIKE $2 OR lower(a.name) LIKE $2 THEN 1 ELSE 2 END`;
    const params = [term, `${escapeLike(term)}%`, `%${escapeLike(term)}%`, type ?? null];
    const [{ total }]: Array<{ total: number }> = await this.db.query(`SELECT count(*)::int AS total ${where}`, params);
    const rows: Array<Record<string, unknown>> = await this.db.query(
      `SELECT a.id, a.type, a.symbol, a.name, a.market, a.stock_code, q.refreshed_at ${where}
        ORDER BY ${tier}, q.market_cap_usd DESC NULLS LAST, a.id ASC LIMIT $5 OFFSET $6`,
      [...params, limit, offset],
    );
    const hits = rows.map((r) => ({
      id: Number(r.id),
      type: r.type as AssetType,
      symbol: String(r.symbol),
      name: String(r.name),
      market: (r.market ?? null) as StockMarket | null,
      stockCode: r.stock_code === null ? null : String(r.stock_code),
      refreshedAt: r.refreshed_at === null || r.refreshed_at === undefined ? null : new Date(r.refreshed_at as string),
    }));
    return { hits, total };
  }

  /**
   * Largest 24 h change first, among assets with at least `minVolume24hUsd` of 24 h volume. FX pairs are
   * exempt from the floor: Yahoo reports no volume for them, and a major currency pair is never illiquid.
   */
  async topGainers({ type, minVolume24hUsd, limit, offset }: TopGainersParams): Promise<AssetPage> {
    const where = `${LISTED_ASSETS} AND ($1::text IS NULL OR a.type = $1) AND q.change24h IS NOT NULL
      AND (a.type = 'FOREX' OR q.volume24h_usd >= $2::numeric)`;
    return this.page(where, 'q.change24h DESC, q.volume24h_usd DESC NULLS LAST, a.id ASC', [type ?? null, minVolume24hUsd], { limit, offset });
  }

  private async page(where: string, orderBy: string, params: unknown[], { limit, offset }: PageWindow): Promise<AssetPage> {
    const [{ total }]: Array<{ total: number }> = await this.db.query(`SELECT count(*)::int AS total ${where}`, params);
    const n = params.length;
    const rows: Array<Record<string, unknown>> = await this.db.query(`SELECT ${ASSET_COLUMNS} ${where} ORDER BY ${orderBy} LIMIT $${n + 1} OFFSET $${n + 2}`, [
      ...params,
      limit,
      offset,
    ]);
    return { rows: rows.map(toAssetRow), total };
  }

  private async upsertKeyedBy(key: 'coingecko_id' | 'yahoo_symbol', entries: CatalogueAsset[]): Promise<RefreshTarget[]> {
    if (entries.length === 0) return [];
    const rows: Array<Record<string, unknown>> = await this.db.query(
      `INSERT INTO assets (type, symbol, name, market, stock_code, currency, sector, industry, categories,
                           coingecko_id, yahoo_symbol, binance_pair, market_cap_rank)
       SELECT x.type, x.symbol, x.name, x.market, x."stockCode", x.currency, x.sector, x.industry, COALESCE(x.categories, '{}'),
              x."coingeckoId", x."yahooSymbol", x."binancePair", x."marketCapRank"
         FROM jsonb_to_recordset($1::jsonb) AS x(type text, symbol text, name text, market text, "stockCode" text,
              currency text, sector text, industry text, categories text[], "coingeckoId" text, "yahooSymbol" text,
              "binancePair" text, "marketCapRank" integer)
       ON CONFLICT (${key}) DO UPDATE SET
         type = EXCLUDED.type, symbol = EXCLUDED.symbol, name = EXCLUDED.name, market = EXCLUDED.market,
         stock_code = EXCLUDED.stock_code, currency = COALESCE(EXCLUDED.currency, assets.currency),
         sector = COALESCE(EXCLUDED.sector, assets.sector), industry = COALESCE(EXCLUDED.industry, assets.industry),
         categories = CASE WHEN cardinality(EXCLUDED.categories) > 0 THEN EXCLUDED.categories ELSE assets.categories END,
         binance_pair = COALESCE(EXCLUDED.binance_pair, assets.binance_pair), market_cap_rank = EXCLUDED.market_cap_rank,
         listed = true, updated_at = now()
       RETURNING id, type, coingecko_id, yahoo_symbol, currency`,
      [JSON.stringify(entries)],
    );
    return rows.map(toRefreshTarget);
  }
}

function toRefreshTarget(r: Record<string, unknown>): RefreshTarget {
  return {
    id: Number(r.id),
    type: r.type as AssetType,
    coingeckoId: r.coingecko_id === null ? null : String(r.coingecko_id),
    yahooSymbol: r.yahoo_symbol === null ? null : String(r.yahoo_symbol),
    currency: r.currency === null || r.currency === undefined ? null : String(r.currency),
  };
}

// A statement may not update one row twice; the last quote given for an asset wins.
function dedupeByAssetId(quotes: AssetQuoteInput[]): AssetQuoteInput[] {
  return [...new Map(quotes.map((quote) => [quote.assetId, quote])).values()];
}

function textOrNull(value: unknown): string | null {
  return value === null || value === undefined ? null : String(value);
}
