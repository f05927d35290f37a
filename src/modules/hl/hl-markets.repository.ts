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
