import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AttributedFill } from './fill-attribution';

/** Rows per INSERT: a day's file of a busy builder is written in a few statements, each well under PostgreSQL's limits. */
const INSERT_BATCH = 5_000;
const MINUTE_MS = 60_000;

/** builder_fills and the record of which daily files were read. */
@Injectable()
export class BuilderFillsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * Stores fills, idempotently by fill_key: a fill seen again changes nothing, except that the daily file
   * confirms one first read from userFills (source), and userFills gives one read from the file its hash.
   * Answers how many fills were new.
   */
  async store(fills: readonly AttributedFill[]): Promise<number> {
    let inserted = 0;
    for (let i = 0; i < fills.length; i += INSERT_BATCH) {
      const batch = fills.slice(i, i + INSERT_BATCH).map(toRow);
      const rows: Array<{ inserted: boolean }> = await this.db.query(
        `INSERT INTO builder_fills (fill_key, builder, user_address, coin, market, side, px, sz, volume_usd, builder_fee, crossed,
                                    self_matched, tx_hash, fill_time, source)
         SELECT fill_key, builder, user_address, coin, market, side, px, sz, COALESCE(volume_usd, 0), builder_fee, crossed,
                self_matched, tx_hash, to_timestamp(time_ms / 1000.0), source
           FROM jsonb_to_recordset($1::jsonb) AS r(fill_key text, builder text, user_address text, coin text, market text, side text,
                px numeric, sz numeric, volume_usd numeric, builder_fee numeric, crossed boolean, self_matched boolean, tx_hash text,
                time_ms bigint, source text)
         ON CONFLICT (fill_key) DO UPDATE SET
           tx_hash = COALESCE(builder_fills.tx_hash, EXCLUDED.tx_hash),
           source = CASE WHEN EXCLUDED.source = 'daily_file' THEN EXCLUDED.source ELSE builder_fills.source END,
           self_matched = builder_fills.self_matched OR EXCLUDED.self_matched
         WHERE (builder_fills.tx_hash IS NULL AND EXCLUDED.tx_hash IS NOT NULL)
            OR (builder_fills.source <> 'daily_file' AND EXCLUDED.source = 'daily_file')
         RETURNING (xmax = 0) AS inserted`,
        [JSON.stringify(batch)],
      );
      inserted += rows.filter((row) => row.inserted).length;
    }
    return inserted;
  }

  /** The days (YYYY-MM-DD) of `builder` whose file has been read, from `fromDay` on. */
  async ingestedDays(builder: string, fromDay: string): Promise<Set<string>> {
    const rows: Array<{ day: string }> = await this.db.query(
      `SELECT to_char(day, 'YYYY-MM-DD') AS day FROM builder_fill_days WHERE builder = $1 AND day >= $2::date`,
      [builder, fromDay],
    );
    return new Set(rows.map((row) => row.day));
  }

  async markDayIngested(builder: string, day: string, fills: number): Promise<void> {
    await this.db.query(
      `INSERT INTO builder_fill_days (builder, day, fills) VALUES ($1, $2::date, $3)
       ON CONFLICT (builder, day) DO UPDATE SET fills = EXCLUDED.fills, ingested_at = now()`,
      [builder, day, fills],
    );
  }

  /**
   * Wallets of the accounts whose own fills of today are read before the day's files exist: those that traded
   * through a tracked builder within `days`, or signed up within it. Reading every account's fills every run
   * would spend the upstream's request weight on wallets that do not trade through us.
   */
  async activeAccountWallets(days: number, now: Date): Promise<string[]> {
    const rows: Array<{ wallet: string }> = await this.db.query(
      `SELECT a.wallet_address AS wallet FROM accounts a
        WHERE a.created_at > $2::timestamptz - make_interval(days => $1::int)
           OR EXISTS (SELECT 1 FROM builder_fills f WHERE f.user_address = a.wallet_address AND f.fill_time > $2::timestamptz - make_interval(days => $1::int))
        ORDER BY a.wallet_address`,
      [days, now],
    );
    return rows.map((row) => row.wallet);
  }

  /** Which of `addresses` are account wallets (lower-case, as both tables store them). */
  async accountWalletsAmong(addresses: readonly string[]): Promise<string[]> {
    const rows: Array<{ wallet: string }> = await this.db.query(
      `SELECT wallet_address AS wallet FROM accounts WHERE wallet_address = ANY($1::text[]) ORDER BY wallet_address`,
      [[...new Set(addresses)]],
    );
    return rows.map((row) => row.wallet);
  }

  /**
   * The USD price of a spot quote token at `time`: its newest per-minute mid sample of the hour before (the
   * mids job samples spot tokens as `spot:NAME` where a perp shares the name), else its current mid.
   */
  async tokenUsdAt(token: string, time: number): Promise<string | undefined> {
    const minute = Math.floor(time / MINUTE_MS);
    const rows: Array<{ px: string }> = await this.db.query(
      `SELECT px FROM (
         (SELECT px::text AS px, 0 AS pref FROM hl_mid_samples
           WHERE coin IN ($1, 'spot:' || $1) AND minute <= $2::bigint AND minute > $2::bigint - 60
           ORDER BY minute DESC LIMIT 1)
         UNION ALL
         (SELECT mid::text, 1 FROM hl_mids WHERE coin = $1)
       ) q ORDER BY pref LIMIT 1`,
      [token, minute],
    );
    return rows[0]?.px;
  }
}

function toRow(fill: AttributedFill) {
  return {
    fill_key: fill.fillKey,
    builder: fill.builder,
    user_address: fill.user,
    coin: fill.coin,
    market: fill.market,
    side: fill.side,
    px: fill.px,
    sz: fill.sz,
    volume_usd: fill.volumeUsd,
    builder_fee: fill.builderFee,
    crossed: fill.crossed,
    self_matched: fill.selfMatched,
    tx_hash: fill.txHash,
    time_ms: fill.time,
    source: fill.source,
  };
}
