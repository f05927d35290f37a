import { Column, Entity, PrimaryColumn, ValueTransformer } from 'typeorm';
import { decimalTransformer, toDecimalString } from '../../../common/decimal/decimal';

const decimalArrayTransformer: ValueTransformer = {
  to: (value: string[] | undefined) => value,
  from: (value: string[] | null) => (value === null ? [] : value.map((v) => toDecimalString(v))),
};

/**
 * The latest quote of one asset, refreshed by the Markets jobs; lists, sorting, search and gainers read it.
 * price, marketCap, volume24h, high24h and low24h are in the asset's currency; the *_usd columns order and
 * filter across assets of different currencies (and, for stocks, volume in shares).
 */
@Entity({ name: 'asset_quotes' })
export class AssetQuoteEntity {
  @PrimaryColumn({ name: 'asset_id', type: 'integer' })
  assetId: number;

  @Column({ type: 'numeric', nullable: true, transformer: decimalTransformer })
  price: string | null;

  /** Percent changes, as CoinGecko and Yahoo report them. */
  @Column({ type: 'numeric', nullable: true, transformer: decimalTransformer })
  change1h: string | null;

  @Column({ type: 'numeric', nullable: true, transformer: decimalTransformer })
  change24h: string | null;

  @Column({ type: 'numeric', nullable: true, transformer: decimalTransformer })
  change7d: string | null;

  @Column({ type: 'numeric', nullable: true, transformer: decimalTransformer })
  volume24h: string | null;

  @Column({ name: 'market_cap', type: 'numeric', nullable: true, transformer: decimalTransformer })
  marketCap: string | null;

  @Column({ type: 'numeric', nullable: true, transformer: decimalTransformer })
  high24h: string | null;

  @Column({ type: 'numeric', nullable: true, transformer: decimalTransformer })
  low24h: string | null;

  @Column({ name: 'market_cap_usd', type: 'numeric', nullable: true, transformer: decimalTransformer })
  marketCapUsd: string | null;

  @Column({ name: 'volume24h_usd', type: 'numeric', nullable: true, transformer: decimalTransformer })
  volume24hUsd: string | null;

  /** About 168 hourly closes, oldest first. */
  @Column({ name: 'sparkline_7d', type: 'numeric', array: true, default: () => "'{}'", transformer: decimalArrayTransformer })
  sparkline7d: string[];

  @Column({ name: 'source_updated_at', type: 'timestamptz', nullable: true })
  sourceUpdatedAt: Date | null;

  @Column({ name: 'refreshed_at', type: 'timestamptz', default: () => 'now()' })
  refreshedAt: Date;
}
