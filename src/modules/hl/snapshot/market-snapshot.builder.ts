import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { toDecimalString } from '../../../common/decimal/decimal';
import { partitionName } from './snapshot-tables';
import { TRENDING_SQL } from './trending.sql';
import { HIP3_SMART_TRADERS_SQL, HIP4_SMART_TRADERS_SQL } from './smart-traders.sql';

export interface MarketSnapshotResult {
  rows: number;
  /** coin -> share of its open interest (perp) or circulating supply (spot) that the snapshot saw. */
  coverage: Record<string, number>;
}

/**
 * The snapshot's marks, stored first in its hl_snapshot_coins rows (the mid when known, else the mark): the
 * mids job moves hl_markets every few seconds while a build runs, so every step reads these instead.
 */
const snapshotMarks = (market: 'perp' | 'spot') =>
  `SELECT coin, mark_px AS px, reference_total FROM hl_snapshot_coins WHERE snapshot_id = $1 AND market = '${market}'`;

/**
 * The few addresses a holder row needs to know about: tagged ones (tags are copied into the snapshot) and
 * vaults, which are never listed (a vault read before it was flagged may still have a state row).
 */
const TAGGED_OR_VAULT = `(SELECT address, tags, is_vault FROM hl_addresses WHERE tags <> '{}' OR is_vault)`;

/**
 * Materialises one market snapshot from the latest polled states and the current marks, set-based:
 * ranked holders per coin (value and PnL recomputed at today's mark, ranks with an address tie-breaker),
 * per-coin coverage, smart-trader aggregates and trending. The marks are read once, into the snapshot's
 * hl_snapshot_coins rows, so every table of one snapshot agrees on them. Writes only into the snapshot's
 * standalone partitions and its hl_snapshot_coins rows; SnapshotStore.publish makes it visible.
 */
@Injectable()
export class MarketSnapshotBuilder {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * `trendingAsOf` is what trending's periods are counted back from: when its trades and mids were read
   * (answerTime), so a snapshot republished from the same reads ranks the same trades instead of letting them age out.
   */
  async build({
    snapshotId,
    leaderboardSnapshotId,
    trendingAsOf,
  }: {
    snapshotId: number;
    leaderboardSnapshotId: number | null;
    trendingAsOf: Date;
  }): Promise<MarketSnapshotResult> {
    await this.storeMarks(snapshotId);
    const perp = await this.buildPerpHolders(snapshotId);
    const spot = await this.buildSpotHolders(snapshotId);
    await this.countHolders(snapshotId);
    await this.db.query(`INSERT INTO ${partitionName('hl_smart_traders', snapshotId)} ${HIP3_SMART_TRADERS_SQL}`, [snapshotId]);
    await this.db.query(`INSERT INTO ${partitionName('hl_smart_traders', snapshotId)} ${HIP4_SMART_TRADERS_SQL}`, [snapshotId]);
    await this.db.query(`INSERT INTO ${partitionName('hl_trending', snapshotId)} ${TRENDING_SQL}`, [
      snapshotId,
      Math.floor(trendingAsOf.getTime() / 60_000),
      leaderboardSnapshotId ?? 0,
      trendingAsOf,
    ]);
    return { rows: perp + spot, coverage: await this.coverage(snapshotId) };
  }

  private buildPerpHolders(snapshotId: number): Promise<number> {
    return this.insertCounted(
      `marks AS (${snapshotMarks('perp')}),
       valued AS (
         SELECT p.coin, p.address, p.szi, p.entry_px, p.leverage, p.leverage_type, p.margin_used, p.liquidation_px, p.cum_funding,
                m.px, m.reference_total AS open_interest, abs(p.szi) * m.px AS value, p.szi * (m.px - p.entry_px) AS upnl,
                COALESCE(a.tags, '{}') AS tags
           FROM hl_positions p JOIN marks m ON m.coin = p.coin
           LEFT JOIN ${TAGGED_OR_VAULT} a ON a.address = p.address
          WHERE p.szi <> 0 AND m.px IS NOT NULL AND a.is_vault IS NOT TRUE
       )`,
      `INSERT INTO ${partitionName('hl_perp_holders', snapshotId)}
         SELECT $1::bigint, coin, address, CASE WHEN szi > 0 THEN 'long' ELSE 'short' END, abs(szi), round(value, 6), entry_px, leverage,
                round(upnl, 6),
                CASE WHEN entry_px * abs(szi) = 0 THEN 0 ELSE round(upnl * leverage / (abs(szi) * entry_px), 8) END,
                CASE WHEN leverage_type = 'isolated' OR leverage = 0 THEN margin_used ELSE round(value / leverage, 6) END,
                liquidation_px, px, cum_funding,
                CASE WHEN open_interest > 0 THEN round(abs(szi) / open_interest * 100, 8) ELSE 0 END,
                row_number() OVER (PARTITION BY coin ORDER BY value DESC, address DESC),
                row_number() OVER (PARTITION BY coin ORDER BY upnl DESC, address DESC),
                tags
           FROM valued`,
      [snapshotId],
    );
  }

  private buildSpotHolders(snapshotId: number): Promise<number> {
    // Upstream reports USDC with entryNtl "0.0": a zero entry notional is an unknown cost basis, as NULL is,
    // so the holder gets no entry price, uPnL or ROE instead of a zero price and its whole balance as profit.
    return this.insertCounted(
      `marks AS (${snapshotMarks('spot')}),
       valued AS (
         SELECT b.coin, b.address, b.total, NULLIF(b.entry_ntl, 0) AS entry_ntl, m.reference_total AS circulating_supply, b.total * m.px AS value,
                COALESCE(a.tags, '{}') AS tags
           FROM hl_spot_balances b JOIN marks m ON m.coin = b.coin
           LEFT JOIN ${TAGGED_OR_VAULT} a ON a.address = b.address
          WHERE b.total > 0 AND m.px IS NOT NULL AND a.is_vault IS NOT TRUE
       )`,
      `INSERT INTO ${partitionName('hl_spot_holders', snapshotId)}
         SELECT $1::bigint, coin, address, total, round(value, 6),
                CASE WHEN entry_ntl IS NOT NULL THEN round(entry_ntl / total, 8) END,
                entry_ntl,
                CASE WHEN entry_ntl IS NOT NULL THEN round(value - entry_ntl, 6) END,
                CASE WHEN entry_ntl > 0 THEN round((value - entry_ntl) / entry_ntl, 8) END,
                CASE WHEN circulating_supply > 0 THEN round(total / circulating_supply * 100, 8) ELSE 0 END,
                row_number() OVER (PARTITION BY coin ORDER BY value DESC, address DESC),
                tags
           FROM valued`,
      [snapshotId],
    );
  }

  /**
   * One read of hl_markets per build: every listed coin (HIP-4 sides too, for the smart traders) with its
   * mark and the total its coverage is measured against, holders 0 until countHolders fills them in.
   */
  private async storeMarks(snapshotId: number): Promise<void> {
    await this.db.query(
      `INSERT INTO hl_snapshot_coins (snapshot_id, market, coin, holders, mark_px, reference_total, seen_total, coverage)
       SELECT $1::bigint, market, coin, 0, px, reference_total, 0, CASE WHEN reference_total > 0 THEN 0 END
         FROM (SELECT market, coin, COALESCE(mid_px, mark_px) AS px,
                      CASE market WHEN 'perp' THEN open_interest WHEN 'spot' THEN circulating_supply END AS reference_total
                 FROM hl_markets) m`,
      [snapshotId],
    );
  }

  /**
   * Holders per coin and what share of the coin the snapshot saw: open interest counts one side, so the
   * seen share is half the summed sizes of the longs and shorts read; spot balances against supply.
   */
  private async countHolders(snapshotId: number): Promise<void> {
    await this.db.query(
      `UPDATE hl_snapshot_coins c
          SET holders = h.holders, seen_total = h.seen,
              coverage = CASE WHEN c.reference_total > 0 THEN round(LEAST(h.seen / c.reference_total, 1), 6) END
         FROM (SELECT 'perp' AS market, coin, count(*)::int AS holders, sum(size) / 2 AS seen
                 FROM ${partitionName('hl_perp_holders', snapshotId)} GROUP BY coin
               UNION ALL
               SELECT 'spot', coin, count(*)::int, sum(balance)
                 FROM ${partitionName('hl_spot_holders', snapshotId)} GROUP BY coin) h
        WHERE c.snapshot_id = $1 AND c.market = h.market AND c.coin = h.coin`,
      [snapshotId],
    );
  }

  /** `WITH <ctes>, ins AS (<insert> RETURNING 1) SELECT count(*)`: a data-modifying CTE must be top-level. */
  private async insertCounted(ctes: string, insert: string, params: unknown[]): Promise<number> {
    const [{ n }] = await this.db.query(`WITH ${ctes}, ins AS (${insert} RETURNING 1) SELECT count(*)::int AS n FROM ins`, params);
    return n;
  }

  private async coverage(snapshotId: number): Promise<Record<string, number>> {
    const rows: Array<{ market: string; coin: string; coverage: string | null }> = await this.db.query(
      `SELECT market, coin, coverage::text FROM hl_snapshot_coins WHERE snapshot_id = $1 AND coverage IS NOT NULL ORDER BY market, coin`,
      [snapshotId],
    );
    return Object.fromEntries(rows.map((r) => [`${r.market}:${r.coin}`, Number(toDecimalString(r.coverage!))]));
  }
}
