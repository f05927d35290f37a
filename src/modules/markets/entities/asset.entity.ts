import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import type { AssetType, StockMarket } from '../asset-types';

/**
 * One tradable asset of the Markets catalogue (migration 1764800000000). Keyed by its vendor id
 * (coingeckoId or yahooSymbol), never by symbol; `id` is the contract's asset id and is never reused.
 */
@Entity({ name: 'assets' })
export class AssetEntity {
  @PrimaryGeneratedColumn('identity', { generatedIdentity: 'ALWAYS' })
  id: number;

  @Column({ type: 'varchar', length: 16 })
  type: AssetType;

  /** Display symbol: BTC, AAPL, 0700, EURUSD, GC. */
  @Column({ type: 'varchar', length: 32 })
  symbol: string;

  @Column({ type: 'text' })
  name: string;

  @Column({ type: 'varchar', length: 2, nullable: true })
  market: StockMarket | null;

  /** `<TICKER>-<MARKET>` for stocks, null otherwise. */
  @Column({ name: 'stock_code', type: 'varchar', length: 40, nullable: true })
  stockCode: string | null;

  /** Quote currency of price and marketCap (ISO 4217); null means USD. */
  @Column({ type: 'varchar', length: 8, nullable: true })
  currency: string | null;

  @Column({ type: 'text', nullable: true })
  sector: string | null;

  @Column({ type: 'text', nullable: true })
  industry: string | null;

  /** Category and sector slugs, the `/assets?category=` filter. */
  @Column({ type: 'text', array: true, default: () => "'{}'" })
  categories: string[];

  @Column({ name: 'coingecko_id', type: 'text', nullable: true, unique: true })
  coingeckoId: string | null;

  @Column({ name: 'yahoo_symbol', type: 'text', nullable: true, unique: true })
  yahooSymbol: string | null;

  @Column({ name: 'binance_pair', type: 'text', nullable: true })
  binancePair: string | null;

  @Column({ name: 'market_cap_rank', type: 'integer', nullable: true })
  marketCapRank: number | null;

  @Column({ type: 'boolean', default: true })
  listed: boolean;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
