import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

export interface MarketRow {
  market: string;
  coin: string;
  dex: string;
  markPx: string | null;
  midPx: string | null;
  outcomeId: number | null;
  outcomeSide: number | null;
  outcomeName: string | null;
}

/** A perp or spot market as a trading venue sees it: price, and 24 h volume and open interest in USD. */
export interface VenueMarketRow {
  market: 'perp' | 'spot';
  coin: string;
  dex: string;
  price: string | null;
  dayVolumeUsd: string | null;
  openInterestUsd: string | null;
  updatedAt: Date;
}

export interface SnapshotCoinRow {
  market: string;
  coin: string;
  holders: number;
  markPx: string | null;
}

/** SQL of the market reference data: the listed markets, the published mids and per-snapshot coin summaries. */
@Injectable()
export class HlMarketsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async listMarkets(): Promise<MarketRow[]> {
    const rows: Array<Record<string, unknown>> = await this.db.query(
      `SELECT market, coin, dex, mark_px::text AS mark_px, mid_px::text AS mid_px, outcome_id, outcome_side, outcome_name
         FROM hl_markets`,
    );
    return rows.map((r) => ({
      market: String(r.market),
      coin: String(r.coin),
      dex: String(r.dex ?? ''),
      markPx: nullableText(r.mark_px),
      midPx: nullableText(r.mid_px),
      outcomeId: r.outcome_id === null ? null : Number(r.outcome_id),
      outcomeSide: r.outcome_side === null ? null : Number(r.outcome_side),
      outcomeName: nullableText(r.outcome_name),
    }));
  }

  /** Perp and spot markets with figures in USD (open interest is in coins upstream: times the mark). */
  async listVenueMarkets(): Promise<VenueMarketRow[]> {
    const rows: Array<Record<string, unknown>> = await this.db.query(
      `SELECT market, coin, dex, COALESCE(mid_px, mark_px)::text AS price, day_ntl_vlm::text AS day_volume,
              (open_interest * mark_px)::text AS open_interest_usd, updated_at
         FROM hl_markets WHERE market IN ('perp', 'spot')`,
    );
    return rows.map((r) => ({
      market: r.market as VenueMarketRow['market'],
      coin: String(r.coin),
      dex: String(r.dex ?? ''),
      price: nullableText(r.price),
      dayVolumeUsd: nullableText(r.day_volume),
      openInterestUsd: nullableText(r.open_interest_usd),
      updatedAt: r.updated_at as Date,
    }));
  }

  async listMids(): Promise<Array<{ coin: string; mid: string }>> {
    return this.db.query(`SELECT coin, mid::text AS mid FROM hl_mids ORDER BY coin`);
  }

  async listSnapshotCoins(snapshotId: number): Promise<SnapshotCoinRow[]> {
    const rows: Array<Record<string, unknown>> = await this.db.query(
      `SELECT market, coin, holders, mark_px::text AS mark_px FROM hl_snapshot_coins WHERE snapshot_id = $1`,
      [snapshotId],
    );
    return rows.map((r) => ({ market: String(r.market), coin: String(r.coin), holders: Number(r.holders), markPx: nullableText(r.mark_px) }));
  }
}

export function nullableText(value: unknown): string | null {
  return value === null || value === undefined ? null : String(value);
}
