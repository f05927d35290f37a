import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

export interface MarketRow {
  market: 'perp' | 'spot' | 'hip4';
  coin: string;
  dex: string;
  upstreamCoin: string;
  markPx: string | null;
  midPx: string | null;
  prevDayPx: string | null;
  openInterest: string | null;
  circulatingSupply: string | null;
  dayNtlVlm: string | null;
  /** Hourly funding rate of a perp; null for spot and outcomes. */
  funding: string | null;
  szDecimals: number | null;
  maxLeverage: number | null;
  outcomeId: number | null;
  outcomeSide: number | null;
  outcomeName: string | null;
}

export interface PositionRow {
  address: string;
  coin: string;
  dex: string;
  szi: string;
  entryPx: string;
  leverageType: string;
  leverage: string;
  positionValue: string;
  unrealizedPnl: string;
  marginUsed: string;
  liquidationPx: string | null;
  cumFunding: string | null;
}

export interface SpotBalanceRow {
  address: string;
  coin: string;
  token: number;
  total: string;
  hold: string;
  entryNtl: string | null;
}

export interface TradeRow {
  coin: string;
  tid: number;
  timeMs: number;
  px: string;
  sz: string;
  side: string;
  buyer: string;
  seller: string;
}

export interface FillRow {
  address: string;
  fillKey: string;
  coin: string;
  timeMs: number;
  px: string;
  sz: string;
  side: string;
  dir: string;
  closedPnl: string;
  fee: string;
}

/** All SQL the pollers write with: set-based, one statement per batch (jsonb_to_recordset). */
@Injectable()
export class HlStateRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** The catalogue becomes exactly `rows`: listed markets are upserted, delisted ones removed. */
  async replaceMarkets(rows: MarketRow[]): Promise<void> {
    if (rows.length === 0) return;
    await this.db.query(
      `DELETE FROM hl_markets m WHERE NOT EXISTS (
         SELECT 1 FROM jsonb_to_recordset($1::jsonb) AS r(market text, coin text) WHERE r.market = m.market AND r.coin = m.coin)`,
      [JSON.stringify(rows.map((r) => ({ market: r.market, coin: r.coin })))],
    );
    await this.db.query(
      `INSERT INTO hl_markets (market, coin, dex, upstream_coin, mark_px, mid_px, prev_day_px, open_interest, circulating_supply,
                               day_ntl_vlm, funding, sz_decimals, max_leverage, outcome_id, outcome_side, outcome_name, updated_at)
       SELECT market, coin, dex, upstream_coin, mark_px, mid_px, prev_day_px, open_interest, circulating_supply, day_ntl_vlm,
              funding, sz_decimals, max_leverage, outcome_id, outcome_side, outcome_name, now()
         FROM jsonb_to_recordset($1::jsonb) AS r(market text, coin text, dex text, upstream_coin text, mark_px numeric, mid_px numeric,
              prev_day_px numeric, open_interest numeric, circulating_supply numeric, day_ntl_vlm numeric, funding numeric, sz_decimals int,
              max_leverage int, outcome_id int, outcome_side int, outcome_name text)
       ON CONFLICT (market, coin) DO UPDATE SET
         dex = EXCLUDED.dex, upstream_coin = EXCLUDED.upstream_coin, mark_px = EXCLUDED.mark_px,
         mid_px = COALESCE(EXCLUDED.mid_px, hl_markets.mid_px), prev_day_px = EXCLUDED.prev_day_px,
         open_interest = EXCLUDED.open_interest, circulating_supply = EXCLUDED.circulating_supply, day_ntl_vlm = EXCLUDED.day_ntl_vlm,
         funding = EXCLUDED.funding,
         sz_decimals = EXCLUDED.sz_decimals, max_leverage = EXCLUDED.max_leverage, outcome_id = EXCLUDED.outcome_id,
         outcome_side = EXCLUDED.outcome_side, outcome_name = EXCLUDED.outcome_name, updated_at = now()`,
      [JSON.stringify(rows.map(snakeMarket))],
    );
  }

  /** Upstream mids keyed by upstream coin -> mid_px of every market listing that coin. */
  async updateMids(mids: Record<string, string>): Promise<void> {
    await this.db.query(
      `UPDATE hl_markets m SET mid_px = v.mid::numeric, updated_at = now()
         FROM jsonb_each_text($1::jsonb) AS v(coin, mid) WHERE m.upstream_coin = v.coin`,
      [JSON.stringify(mids)],
    );
  }

  /**
   * Publishes the contract's mids map from hl_markets: perp and HIP-3 symbols, then spot token symbols
   * that no perp already names (a perp's mid wins the shared key), and records one sample per coin per
   * minute for trending. Outcome sides are not coins of the other endpoints, so they are not listed.
   */
  async publishMids(minute: number): Promise<number> {
    const [{ count }] = await this.db.query(
      `WITH listed AS (
         SELECT DISTINCT ON (coin) coin, COALESCE(mid_px, mark_px) AS mid
           FROM hl_markets WHERE market IN ('perp', 'spot') AND COALESCE(mid_px, mark_px) IS NOT NULL
          ORDER BY coin, market
       ), replaced AS (
         DELETE FROM hl_mids WHERE coin NOT IN (SELECT coin FROM listed) RETURNING 1
       ), upserted AS (
         INSERT INTO hl_mids (coin, mid, updated_at) SELECT coin, mid, now() FROM listed
         ON CONFLICT (coin) DO UPDATE SET mid = EXCLUDED.mid, updated_at = now() RETURNING 1
       ), sampled AS (
         INSERT INTO hl_mid_samples (coin, minute, px)
         SELECT CASE market WHEN 'spot' THEN 'spot:' || coin ELSE coin END, $1, COALESCE(mid_px, mark_px)
           FROM hl_markets WHERE COALESCE(mid_px, mark_px) IS NOT NULL
         ON CONFLICT (coin, minute) DO UPDATE SET px = EXCLUDED.px RETURNING 1
       )
       SELECT (SELECT count(*) FROM upserted)::int AS count, (SELECT count(*) FROM replaced) AS r, (SELECT count(*) FROM sampled) AS s`,
      [minute],
    );
    await this.db.query(`DELETE FROM hl_mid_samples WHERE minute < $1`, [minute - 26 * 60]);
    return Number(count);
  }

  /** The HIP-3 dexes each of `addresses` held positions on at its last read (addresses holding none are left out). */
  async heldDexes(addresses: string[]): Promise<Map<string, string[]>> {
    if (addresses.length === 0) return new Map();
    const rows: Array<{ address: string; dexes: string[] }> = await this.db.query(
      `SELECT address, array_agg(DISTINCT dex::text) AS dexes FROM hl_positions
        WHERE address = ANY($1::text[]) AND dex <> '' GROUP BY address`,
      [addresses],
    );
    return new Map(rows.map((r) => [r.address, r.dexes]));
  }

  /**
   * Replaces the latest known positions and balances of the polled addresses, and schedules their next read.
   * An address in `partialReads` was read on those perp dexes only ('' is the native one): its positions on
   * the others stay as they were. Any other address was read on every dex, and all its positions are replaced
   * (so a delisted dex's positions go too). Spot is read every time and always replaced.
   */
  async saveAccountStates({
    addresses,
    positions,
    balances,
    accountValues,
    errors,
    partialReads,
    baseIntervalMs,
  }: {
    addresses: string[];
    positions: PositionRow[];
    balances: SpotBalanceRow[];
    accountValues: Map<string, string>;
    errors: Map<string, string>;
    partialReads: Map<string, string[]>;
    baseIntervalMs: number;
  }): Promise<void> {
    const ok = addresses.filter((a) => !errors.has(a));
    const fullyRead = ok.filter((a) => !partialReads.has(a));
    const partlyRead = ok.flatMap((address) => (partialReads.get(address) ?? []).map((dex) => ({ address, dex })));
    await this.db.transaction(async (tx) => {
      // Address rows locked first, in address order, the order upsertAddresses writes them in: two jobs
      // touching the same wallets then queue instead of deadlocking.
      await tx.query(`SELECT 1 FROM hl_addresses WHERE address = ANY($1::text[]) ORDER BY address FOR UPDATE`, [addresses]);
      await tx.query(`DELETE FROM hl_positions WHERE address = ANY($1::text[])`, [fullyRead]);
      if (partlyRead.length > 0) {
        await tx.query(
          `DELETE FROM hl_positions p USING unnest($1::text[], $2::text[]) AS r(address, dex)
            WHERE p.address = r.address AND p.dex = r.dex`,
          [partlyRead.map((r) => r.address), partlyRead.map((r) => r.dex)],
        );
      }
      await tx.query(`DELETE FROM hl_spot_balances WHERE address = ANY($1::text[])`, [ok]);
      if (positions.length > 0) {
        await tx.query(
          `INSERT INTO hl_positions (address, coin, dex, szi, entry_px, leverage_type, leverage, position_value, unrealized_pnl,
                                     margin_used, liquidation_px, cum_funding, read_at)
           SELECT address, coin, dex, szi, entry_px, leverage_type, leverage, position_value, unrealized_pnl, margin_used,
                  liquidation_px, cum_funding, now()
             FROM jsonb_to_recordset($1::jsonb) AS r(address text, coin text, dex text, szi numeric, entry_px numeric,
                  leverage_type text, leverage numeric, position_value numeric, unrealized_pnl numeric, margin_used numeric,
                  liquidation_px numeric, cum_funding numeric)`,
          [JSON.stringify(positions.map(snakePosition))],
        );
      }
      if (balances.length > 0) {
        await tx.query(
          `INSERT INTO hl_spot_balances (address, coin, token, total, hold, entry_ntl, read_at)
           SELECT address, coin, token, total, hold, entry_ntl, now()
             FROM jsonb_to_recordset($1::jsonb) AS r(address text, coin text, token int, total numeric, hold numeric, entry_ntl numeric)`,
          [JSON.stringify(balances.map((b) => ({ address: b.address, coin: b.coin, token: b.token, total: b.total, hold: b.hold, entry_ntl: b.entryNtl })))],
        );
      }
      // Re-read cadence by size: whales every base interval, the long tail up to 30x less often.
      await tx.query(
        `UPDATE hl_addresses a SET
           polled_at = now(),
           full_read_at = CASE WHEN v.full_read THEN now() ELSE a.full_read_at END,
           poll_error = v.error,
           account_value = COALESCE(v.account_value, a.account_value),
           next_poll_at = now() + ($2::bigint * CASE
             WHEN v.error IS NOT NULL THEN 10
             WHEN COALESCE(v.account_value, a.account_value) >= 1000000 THEN 1
             WHEN COALESCE(v.account_value, a.account_value) >= 100000 THEN 3
             WHEN COALESCE(v.account_value, a.account_value) >= 10000 THEN 10
             ELSE 30 END) * interval '1 millisecond'
         FROM jsonb_to_recordset($1::jsonb) AS v(address text, account_value numeric, error text, full_read boolean)
         WHERE a.address = v.address`,
        [
          JSON.stringify(
            addresses.map((address) => ({
              address,
              account_value: accountValues.get(address) ?? null,
              error: errors.get(address) ?? null,
              full_read: !errors.has(address) && !partialReads.has(address),
            })),
          ),
          baseIntervalMs,
        ],
      );
    });
  }

  async insertTrades(trades: TradeRow[]): Promise<number> {
    if (trades.length === 0) return 0;
    const rows: Array<{ n: number }> = await this.db.query(
      `WITH ins AS (
         INSERT INTO hl_trades (coin, tid, time, px, sz, side, buyer, seller)
         SELECT coin, tid, to_timestamp(time_ms / 1000.0), px, sz, side, buyer, seller
           FROM jsonb_to_recordset($1::jsonb) AS r(coin text, tid bigint, time_ms bigint, px numeric, sz numeric, side text, buyer text, seller text)
         ON CONFLICT (coin, tid) DO NOTHING RETURNING 1)
       SELECT count(*)::int AS n FROM ins`,
      [
        JSON.stringify(
          trades.map((t) => ({ coin: t.coin, tid: t.tid, time_ms: t.timeMs, px: t.px, sz: t.sz, side: t.side, buyer: t.buyer, seller: t.seller })),
        ),
      ],
    );
    await this.db.query(`DELETE FROM hl_trades WHERE time < now() - interval '49 hours'`);
    return rows[0].n;
  }

  async listMarkets(): Promise<MarketRow[]> {
    const rows: Array<Record<string, unknown>> = await this.db.query(`SELECT * FROM hl_markets ORDER BY market, coin`);
    return rows.map((r) => ({
      market: r.market as MarketRow['market'],
      coin: String(r.coin),
      dex: String(r.dex),
      upstreamCoin: String(r.upstream_coin),
      markPx: (r.mark_px as string) ?? null,
      midPx: (r.mid_px as string) ?? null,
      prevDayPx: (r.prev_day_px as string) ?? null,
      openInterest: (r.open_interest as string) ?? null,
      circulatingSupply: (r.circulating_supply as string) ?? null,
      dayNtlVlm: (r.day_ntl_vlm as string) ?? null,
      funding: (r.funding as string) ?? null,
      szDecimals: r.sz_decimals === null ? null : Number(r.sz_decimals),
      maxLeverage: r.max_leverage === null ? null : Number(r.max_leverage),
      outcomeId: r.outcome_id === null ? null : Number(r.outcome_id),
      outcomeSide: r.outcome_side === null ? null : Number(r.outcome_side),
      outcomeName: (r.outcome_name as string) ?? null,
    }));
  }
}

function snakeMarket(m: MarketRow) {
  return {
    market: m.market,
    coin: m.coin,
    dex: m.dex,
    upstream_coin: m.upstreamCoin,
    mark_px: m.markPx,
    mid_px: m.midPx,
    prev_day_px: m.prevDayPx,
    open_interest: m.openInterest,
    circulating_supply: m.circulatingSupply,
    day_ntl_vlm: m.dayNtlVlm,
    funding: m.funding,
    sz_decimals: m.szDecimals,
    max_leverage: m.maxLeverage,
    outcome_id: m.outcomeId,
    outcome_side: m.outcomeSide,
    outcome_name: m.outcomeName,
  };
}

function snakePosition(p: PositionRow) {
  return {
    address: p.address,
    coin: p.coin,
    dex: p.dex,
    szi: p.szi,
    entry_px: p.entryPx,
    leverage_type: p.leverageType,
    leverage: p.leverage,
    position_value: p.positionValue,
    unrealized_pnl: p.unrealizedPnl,
    margin_used: p.marginUsed,
    liquidation_px: p.liquidationPx,
    cum_funding: p.cumFunding,
  };
}
