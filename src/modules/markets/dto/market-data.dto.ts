import { ApiProperty } from '@nestjs/swagger';
import { ASSET_TYPES } from '../asset-types';

/** A `/search` hit (contract 2.3). */
export class SearchItemDto {
  @ApiProperty({ example: 42 })
  id: number;

  @ApiProperty({ example: 'AAPL-US', description: 'The ticker; market-qualified `<TICKER>-<MARKET>` for stocks' })
  symbol: string;

  @ApiProperty({ example: 'Apple Inc.' })
  name: string;

  @ApiProperty({ enum: ASSET_TYPES, example: 'STOCK' })
  type: string;
}

export class KlineDto {
  @ApiProperty({ example: 1 })
  assetId: number;

  @ApiProperty({ enum: ['H1', 'D1'], example: 'H1' })
  interval: string;

  @ApiProperty({
    example: '2026-11-24T11:00:00.000Z',
    description: 'Bar start (ISO-8601 UTC); bars are aligned to UTC hours and days for crypto, to sessions for others',
  })
  openTime: string;

  @ApiProperty({ example: '96950.1' })
  open: string;

  @ApiProperty({ example: '97210' })
  high: string;

  @ApiProperty({ example: '96800.5' })
  low: string;

  @ApiProperty({ example: '97100' })
  close: string;

  @ApiProperty({
    type: 'string',
    nullable: true,
    example: '1250.337',
    description:
      'Volume traded in the bar, in base units (coins, shares, contracts). null when the vendor has no per-bar volume: crypto without a Binance pair (CoinGecko ohlc) and FX',
  })
  volume: string | null;
}

export class TickerDto {
  @ApiProperty({ example: 'BTC/USDT', description: 'base/quote' })
  pair: string;

  @ApiProperty({ example: 'Binance' })
  venue: string;

  @ApiProperty({ enum: ['cex', 'dex'], example: 'cex', description: 'Added: whether the venue is centralised (see the route description for how it is told)' })
  venueKind: string;

  @ApiProperty({ enum: ['spot', 'perp', 'futures'], example: 'spot' })
  marketType: string;

  @ApiProperty({ example: '97010.5', description: 'Last price in USD' })
  price: string;

  @ApiProperty({ type: 'string', nullable: true, example: '1830000000', description: '24 h volume in USD; null when the venue reports none' })
  volume24h: string | null;
}

export class ActiveAssetsDto {
  @ApiProperty({ example: 1000 }) CRYPTO: number;
  @ApiProperty({ example: 140 }) STOCK: number;
  @ApiProperty({ example: 30 }) ETF: number;
  @ApiProperty({ example: 24 }) FOREX: number;
  @ApiProperty({ example: 12 }) COMMODITY: number;
  @ApiProperty({ example: 1206 }) total: number;
}

export class HyperliquidStatsDto {
  @ApiProperty({ example: '9800000000', description: 'Open interest of every perp (native and HIP-3 dexes), USD at the mark' })
  openInterestUsd: string;

  @ApiProperty({ example: '6200000000', description: '24 h notional volume of every perp and spot market, USD' })
  volume24hUsd: string;

  @ApiProperty({ example: 230 }) perpMarkets: number;
  @ApiProperty({ example: 180 }) spotMarkets: number;

  @ApiProperty({
    type: 'string',
    nullable: true,
    example: '2026-11-24T12:00:00.000Z',
    description: 'When our Hyperliquid market table was last refreshed; null before the first run',
  })
  updatedAt: string | null;
}

/** `/global-stats` (contract 4.8 shows nothing; this is our design, docs/decisions.md). */
export class GlobalStatsDto {
  @ApiProperty({ example: '3350000000000', description: 'Total crypto market cap, USD (crypto vendor)' })
  totalMarketCapUsd: string;

  @ApiProperty({ example: '142000000000', description: 'Total crypto 24 h volume, USD' })
  totalVolume24hUsd: string;

  @ApiProperty({ type: 'string', nullable: true, example: '-1.2', description: 'Percent change of the total market cap over 24 h' })
  marketCapChange24h: string | null;

  @ApiProperty({ type: 'string', nullable: true, example: '57.3', description: "Bitcoin's share of the total market cap, percent" })
  btcDominance: string | null;

  @ApiProperty({ type: 'string', nullable: true, example: '11.9', description: "Ether's share of the total market cap, percent" })
  ethDominance: string | null;

  @ApiProperty({ type: 'integer', nullable: true, example: 17000, description: "Coins the crypto vendor tracks (its count, not our catalogue's)" })
  activeCryptocurrencies: number | null;

  @ApiProperty({ type: ActiveAssetsDto, description: 'Listed assets per type in our catalogue' })
  activeAssets: ActiveAssetsDto;

  @ApiProperty({ type: HyperliquidStatsDto, description: 'Hyperliquid from our own snapshots' })
  hyperliquid: HyperliquidStatsDto;

  @ApiProperty({ example: '2026-11-24T12:00:00.000Z', description: "The crypto vendor's update time of the totals (else when we read them)" })
  updatedAt: string;
}
