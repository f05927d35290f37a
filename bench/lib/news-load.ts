import { Logger } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { Client } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { Writable } from 'node:stream';
import { createDataSource } from '../../src/infra/database/data-source';
import { News1764900000000 } from '../../src/infra/database/migrations/1764900000000-news';
import { runMigrationsLocked } from '../../src/infra/database/run-migrations';
import { ensureDatabase } from './database';
import { NewsCorpus } from './news-corpus';

/**
 * The bench's database: migrated by the app's own migrations, then the corpus loaded by COPY with the news
 * tables' secondary indexes and foreign keys dropped first and rebuilt after (building an index once is
 * several times cheaper than maintaining it per row; the definitions are read back from the catalog, so
 * the rebuilt schema is the migration's), then VACUUM ANALYZE, which also sets the visibility map that
 * autovacuum would have set in production. A marker table written last says the load completed; without
 * it, or with another news migration than the one loaded, the database is dropped and loaded again.
 */
const NEWS_TABLES = ['news_items', 'news_item_assets', 'news_analyses'];
const ITEM_COLUMNS =
  'id, source, guid, url, title, summary, image_url, publisher, published_at, tags, concepts, asset_types, content_class, sentiment, ' +
  'story_id, coverage, hot_score, analysis_state, locales, analysis_attempts, analysis_due_at, ingested_at';
const ANALYSIS_COLUMNS =
  'news_id, locale, title, core_summary, direction, affected_assets, impact_logic, time_horizon, risks_and_watchlist, provider, model, generated_at';
const BATCH_ITEMS = 5_000;
/** Per index build; two builds run at once on this 2-core machine. */
const INDEX_BUILD_MEMORY = '1GB';

export interface LoadReport {
  /** False when the database already held a complete load and it was kept. */
  loaded: boolean;
  reason: string;
  items: number;
  links: number;
  analyses: number;
  /** Phases of this run's load, or of the kept load (as recorded then), in ms. */
  phases: Record<string, number>;
}

/** Fingerprint of the news migration the data was loaded under: a changed schema means a new load. */
function schemaFingerprint(): string {
  return createHash('sha256').update(News1764900000000.prototype.up.toString()).digest('hex').slice(0, 16);
}

export async function ensureNewsData({
  adminUrl,
  databaseName,
  target,
  reload,
}: {
  adminUrl: string;
  databaseName: string;
  target: number;
  reload: boolean;
}): Promise<{ databaseUrl: string; report: LoadReport }> {
  let databaseUrl = await ensureDatabase(adminUrl, databaseName);
  const kept = await keptLoad(databaseUrl, target);
  if (kept.report && !reload) return { databaseUrl, report: kept.report };
  const reason = reload ? 'BENCH_NEWS_RELOAD=1' : kept.reason;
  process.stdout.write(`loading ${target.toLocaleString('en-US')} news items into ${databaseName} (${reason})...\n`);
  databaseUrl = await recreate(adminUrl, databaseName);
  return { databaseUrl, report: { ...(await load(databaseUrl, target)), loaded: true, reason } };
}

async function keptLoad(url: string, target: number): Promise<{ report?: LoadReport; reason: string }> {
  const db = await connect(url);
  try {
    const marker = await db.query(`SELECT to_regclass('bench_news_load') AS t`);
    if (marker.rows[0].t === null) return { reason: 'no complete load in the database' };
    const { rows } = await db.query(`SELECT * FROM bench_news_load`);
    if (rows[0]?.schema !== schemaFingerprint()) return { reason: 'the news migration changed since the last load' };
    const count = Number((await db.query(`SELECT count(*) AS n FROM news_items`)).rows[0].n);
    if (count !== target) return { reason: `news_items holds ${count} rows, not ${target}` };
    return {
      reason: 'kept',
      report: { loaded: false, reason: 'kept from an earlier run', items: count, links: rows[0].links, analyses: rows[0].analyses, phases: rows[0].phases },
    };
  } finally {
    await db.end();
  }
}

async function recreate(adminUrl: string, name: string): Promise<string> {
  const admin = await connect(adminUrl);
  try {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await admin.end();
  }
  const url = await ensureDatabase(adminUrl, name);
  // TypeORM's migration log goes through Nest's logger at debug level: one line per migration, not wanted here.
  Logger.overrideLogger(['error', 'warn']);
  const dataSource = await createDataSource({ database: { url, dataDir: '', migrationsRun: true } }, []).initialize();
  try {
    await runMigrationsLocked(dataSource);
  } finally {
    await dataSource.destroy();
  }
  return url;
}

async function load(url: string, target: number): Promise<Omit<LoadReport, 'loaded' | 'reason'>> {
  const phases: Record<string, number> = {};
  const timed = async <T>(phase: string, work: () => Promise<T>): Promise<T> => {
    const started = Date.now();
    const result = await work();
    phases[phase] = Date.now() - started;
    process.stdout.write(`  ${phase}: ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
    return result;
  };
  const corpus = new NewsCorpus();
  const db = await connect(url);
  try {
    const assetIds = await timed('catalogue', () => insertAssets(db, corpus));
    const deferred = await timed('drop indexes', () => dropDeferred(db));
    const counts = await timed('copy', () => copyCorpus(url, corpus, target, assetIds));
    await db.query(`SELECT setval(pg_get_serial_sequence('news_items', 'id'), (SELECT max(id) FROM news_items))`);
    await timed('indexes', () => rebuild(url, deferred));
    await timed('vacuum analyze', () => db.query(`VACUUM (ANALYZE) assets, ${NEWS_TABLES.join(', ')}`));
    await db.query(
      `CREATE TABLE bench_news_load (schema text, items integer, links integer, analyses integer, phases jsonb, loaded_at timestamptz DEFAULT now())`,
    );
    await db.query(`INSERT INTO bench_news_load (schema, items, links, analyses, phases) VALUES ($1, $2, $3, $4, $5)`, [
      schemaFingerprint(),
      counts.items,
      counts.links,
      counts.analyses,
      JSON.stringify(phases),
    ]);
    return { ...counts, phases };
  } finally {
    await db.end();
  }
}

/** The corpus's coins and stocks, as the catalogue jobs would list them; returns their ids by vendor id. */
async function insertAssets(db: Client, corpus: NewsCorpus): Promise<Map<string, number>> {
  const { rows } = await db.query(
    `INSERT INTO assets (type, symbol, name, market, stock_code, coingecko_id, yahoo_symbol, market_cap_rank)
     SELECT type, symbol, name, market, stock_code, coingecko_id, yahoo_symbol, market_cap_rank
       FROM jsonb_to_recordset($1::jsonb) AS a(type text, symbol text, name text, market text, stock_code text, coingecko_id text,
            yahoo_symbol text, market_cap_rank integer)
     RETURNING id, COALESCE(coingecko_id, yahoo_symbol) AS key`,
    [
      JSON.stringify(
        corpus.assets.map((a) => ({
          type: a.type,
          symbol: a.symbol,
          name: a.name,
          market: a.market,
          stock_code: a.stockCode,
          coingecko_id: a.coingeckoId,
          yahoo_symbol: a.yahooSymbol,
          market_cap_rank: a.marketCapRank,
        })),
      ),
    ],
  );
  return new Map(rows.map((r: { id: number; key: string }) => [r.key, Number(r.id)]));
}

/** Drops the news tables' indexes other than primary keys and unique constraints, and their foreign keys; returns the DDL that restores them. */
async function dropDeferred(db: Client): Promise<{ indexes: string[]; foreignKeys: string[] }> {
  const indexes = await db.query(
    `SELECT i.indexrelid::regclass::text AS name, pg_get_indexdef(i.indexrelid) AS ddl, pg_relation_size(i.indrelid) AS size
       FROM pg_index i
      WHERE i.indrelid = ANY($1::regclass[]) AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid)`,
    [NEWS_TABLES],
  );
  const foreignKeys = await db.query(
    `SELECT conrelid::regclass::text AS tbl, conname, pg_get_constraintdef(oid) AS def FROM pg_constraint
      WHERE contype = 'f' AND conrelid = ANY($1::regclass[])`,
    [NEWS_TABLES],
  );
  for (const fk of foreignKeys.rows) await db.query(`ALTER TABLE ${fk.tbl} DROP CONSTRAINT "${fk.conname}"`);
  for (const index of indexes.rows) await db.query(`DROP INDEX ${index.name}`);
  return {
    indexes: indexes.rows.map((r: { ddl: string }) => r.ddl),
    foreignKeys: foreignKeys.rows.map((r: { tbl: string; conname: string; def: string }) => `ALTER TABLE ${r.tbl} ADD CONSTRAINT "${r.conname}" ${r.def}`),
  };
}

/** Three COPY streams on three connections, fed from one pass over the corpus, so PostgreSQL works on both cores. */
async function copyCorpus(
  url: string,
  corpus: NewsCorpus,
  target: number,
  assetIds: Map<string, number>,
): Promise<{ items: number; links: number; analyses: number }> {
  const streams = await Promise.all([
    openCopy(url, `COPY news_items (${ITEM_COLUMNS}) FROM STDIN`),
    openCopy(url, `COPY news_item_assets (news_id, asset_id, published_at) FROM STDIN`),
    openCopy(url, `COPY news_analyses (${ANALYSIS_COLUMNS}) FROM STDIN`),
  ]);
  const counts = { items: 0, links: 0, analyses: 0 };
  let nextReport = 100_000;
  const started = Date.now();
  for await (const batch of corpus.batches({ target, batchItems: BATCH_ITEMS, assetIds })) {
    await Promise.all([write(streams[0].stream, batch.items), write(streams[1].stream, batch.links), write(streams[2].stream, batch.analyses)]);
    counts.items += batch.count;
    counts.links += batch.linkCount;
    counts.analyses += batch.analysisCount;
    if (counts.items >= nextReport) {
      process.stdout.write(`    ${counts.items.toLocaleString('en-US')} items after ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
      nextReport += 100_000;
    }
  }
  await Promise.all(streams.map(closeCopy));
  return counts;
}

/** The deferred indexes in two lanes (the largest first, so the lanes end together), then the foreign keys. */
async function rebuild(url: string, deferred: { indexes: string[]; foreignKeys: string[] }): Promise<void> {
  const cost = (ddl: string) => (/gin_trgm_ops/.test(ddl) ? 3 : / USING gin /.test(ddl) && /search/.test(ddl) ? 2 : 1);
  const queue = [...deferred.indexes].sort((a, b) => cost(b) - cost(a));
  const lane = async () => {
    const db = await connect(url);
    try {
      await db.query(`SET maintenance_work_mem = '${INDEX_BUILD_MEMORY}'`);
      for (let ddl = queue.shift(); ddl !== undefined; ddl = queue.shift()) {
        const started = Date.now();
        await db.query(ddl);
        process.stdout.write(`    ${((Date.now() - started) / 1000).toFixed(1)} s ${ddl.replace(/^CREATE (UNIQUE )?INDEX (\S+) ON .*$/, '$2')}\n`);
      }
    } finally {
      await db.end();
    }
  };
  await Promise.all([lane(), lane()]);
  const db = await connect(url);
  try {
    for (const ddl of deferred.foreignKeys) await db.query(ddl);
  } finally {
    await db.end();
  }
}

async function connect(url: string): Promise<Client> {
  const client = new Client({ connectionString: url });
  await client.connect();
  return client;
}

async function openCopy(url: string, sql: string): Promise<{ client: Client; stream: Writable }> {
  const client = await connect(url);
  // A bench load needs no durability per commit.
  await client.query('SET synchronous_commit = off');
  return { client, stream: client.query(copyFrom(sql)) };
}

async function write(stream: Writable, text: string): Promise<void> {
  if (text.length > 0 && !stream.write(text)) await once(stream, 'drain');
}

async function closeCopy({ client, stream }: { client: Client; stream: Writable }): Promise<void> {
  stream.end();
  await once(stream, 'finish');
  await client.end();
}
