import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { StockMarket } from '../markets/asset-types';

/** One listed stock with its latest quote, for the sector heatmap. */
export interface OverviewRow {
  assetId: number;
  symbol: string;
  name: string;
  market: StockMarket;
  stockCode: string;
  currency: string;
  sector: string | null;
  industry: string | null;
  /** The category slug of the sector (the catalogue's first category), null without a sector. */
  category: string | null;
  price: string | null;
  change24h: string | null;
  marketCap: string | null;
  volume24h: string | null;
  priceUpdatedAt: Date | null;
}

/** The SQL of `/stock/overview`: listed stocks by market and sector, the largest `perSector` of each by USD market cap. */
@Injectable()
export class StockOverviewRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async topBySector({ market, category, perSector }: { market?: StockMarket; category?: string; perSector: number }): Promise<OverviewRow[]> {
    const rows: Array<Record<string, unknown>> = await this.db.query(
      `SELECT * FROM (
         SELECT a.id, a.symbol, a.name, a.market, a.stock_code, COALESCE(a.currency, 'USD') AS currency, a.sector, a.industry,
                a.categories[1] AS category, q.price::text AS price, q.change24h::text AS change24h, q.market_cap::text AS market_cap,
                q.volume24h::text AS volume24h, COALESCE(q.source_updated_at, q.refreshed_at) AS price_updated_at,
                row_number() OVER (PARTITION BY a.market, a.sector ORDER BY q.market_cap_usd DESC NULLS LAST, a.id) AS rank
           FROM assets a LEFT JOIN asset_quotes q ON q.asset_id = a.id
          WHERE a.listed AND a.type = 'STOCK' AND ($1::text IS NULL OR a.market = $1) AND ($2::text IS NULL OR a.categories @> ARRAY[$2::text])
       ) ranked
       WHERE rank <= $3
       ORDER BY CASE market WHEN 'US' THEN 0 WHEN 'HK' THEN 1 WHEN 'JP' THEN 2 ELSE 3 END, sector NULLS LAST, rank`,
      [market ?? null, category ?? null, perSector],
    );
    return rows.map((r) => ({
      assetId: Number(r.id),
      symbol: String(r.symbol),
      name: String(r.name),
      market: r.market as StockMarket,
      stockCode: String(r.stock_code),
      currency: String(r.currency),
      sector: (r.sector as string | null) ?? null,
      industry: (r.industry as string | null) ?? null,
      category: (r.category as string | null) ?? null,
      price: (r.price as string | null) ?? null,
      change24h: (r.change24h as string | null) ?? null,
      marketCap: (r.market_cap as string | null) ?? null,
      volume24h: (r.volume24h as string | null) ?? null,
      priceUpdatedAt: r.price_updated_at === null ? null : new Date(r.price_updated_at as string),
    }));
  }
}
