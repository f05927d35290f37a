import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { TrendingPeriod } from './hl-params';

export interface TrendingRow {
  market: string;
  coin: string;
  price: string;
  price_change: string;
  buy_addresses: number;
  sell_addresses: number;
  smart_buy: number;
  smart_sell: number;
  buy_amount_change: string;
  sell_amount_change: string;
}

/** All SQL over the hl_trending partitions. */
@Injectable()
export class HlTrendingRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Every ranked coin of one period, both markets, in rank order (a few hundred rows at most per market). */
  async list({ snapshotId, period }: { snapshotId: number; period: TrendingPeriod }): Promise<TrendingRow[]> {
    const rows: Array<Record<string, unknown>> = await this.db.query(
      `SELECT market, coin, price::text AS price, price_change::text AS price_change, buy_addresses, sell_addresses,
              smart_buy, smart_sell, buy_amount_change::text AS buy_amount_change, sell_amount_change::text AS sell_amount_change
         FROM hl_trending
        WHERE snapshot_id = $1 AND period = $2
        ORDER BY market, rank`,
      [snapshotId, period],
    );
    return rows.map((r) => ({
      market: String(r.market),
      coin: String(r.coin),
      price: String(r.price),
      price_change: String(r.price_change),
      buy_addresses: Number(r.buy_addresses),
      sell_addresses: Number(r.sell_addresses),
      smart_buy: Number(r.smart_buy),
      smart_sell: Number(r.smart_sell),
      buy_amount_change: String(r.buy_amount_change),
      sell_amount_change: String(r.sell_amount_change),
    }));
  }
}
