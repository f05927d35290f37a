import { ApiProperty } from '@nestjs/swagger';
import { ApiNullableRefProperty } from '../../../common/dto/nullable-ref';
import { ASSET_TYPES, STOCK_MARKETS } from '../asset-types';

const DECIMAL = (example: string, description: string) => ({ type: 'string', nullable: true, example, description }) as const;

/** An asset with its latest quote (contract 2.3); the fields after sparkline7d are additions the contract does not show. */
export class AssetDto {
  @ApiProperty({ example: 1, description: 'Stable asset id, never reused' })
  id: number;

  @ApiProperty({ example: 'BTC', description: 'Ticker; for stocks the bare ticker (stockCode is the market-qualified form)' })
  symbol: string;

  @ApiProperty({ example: 'Bitcoin' })
  name: string;

  @ApiProperty({ enum: ASSET_TYPES, example: 'CRYPTO' })
  type: string;

  @ApiProperty(DECIMAL('97000.5', 'Last price in `currency`; null before the first quote refresh'))
  price: string | null;

  @ApiProperty(DECIMAL('0.42', 'Percent change over the last hour; null when the market is not trading or the vendor has none'))
  change1h: string | null;

  @ApiProperty(DECIMAL('-1.5', 'Percent change over 24 h (crypto: rolling; others: since the previous close)'))
  change24h: string | null;

  @ApiProperty(DECIMAL('6.1', 'Percent change over 7 days (others: since the close before the last five sessions)'))
  change7d: string | null;

  @ApiProperty(DECIMAL('35000000000', '24 h volume: in `currency` for crypto; shares (stocks, ETFs) or contracts (futures); null for FX'))
  volume24h: string | null;

  @ApiProperty(DECIMAL('1920000000000', 'Market capitalisation in `currency`; null where it has no meaning (FX, futures)'))
  marketCap: string | null;

  @ApiProperty(DECIMAL('98000', '24 h (others: session) high'))
  high24h: string | null;

  @ApiProperty(DECIMAL('95500', '24 h (others: session) low'))
  low24h: string | null;

  @ApiProperty({
    type: [String],
    example: ['95100.2', '95800'],
    description: 'About 7 days of prices, oldest first (decimal strings); empty before the first refresh',
  })
  sparkline7d: string[];

  @ApiProperty({
    type: 'string',
    enum: [...STOCK_MARKETS, null],
    nullable: true,
    example: null,
    description: 'Stocks and ETFs: the market listing them; null otherwise',
  })
  market: string | null;

  @ApiProperty({ type: 'string', nullable: true, example: null, description: 'Stocks: `<TICKER>-<MARKET>`, e.g. AAPL-US; null otherwise' })
  stockCode: string | null;

  @ApiProperty({ example: 'USD', description: 'ISO 4217 currency of price, volume (crypto) and marketCap' })
  currency: string;

  @ApiProperty({
    type: 'string',
    nullable: true,
    example: '2026-11-24T12:00:00.000Z',
    description: 'When the vendor last updated this quote; null before the first refresh',
  })
  updatedAt: string | null;
}

export class PriceExtremeDto {
  @ApiProperty({ type: 'string', nullable: true, example: '126080' })
  price: string | null;

  @ApiProperty({ type: 'string', nullable: true, example: '2025-10-06T18:57:42.558Z' })
  at: string | null;

  @ApiProperty({ type: 'string', nullable: true, example: '-23.1', description: 'Percent from the extreme to the current price' })
  changePercent: string | null;
}

const CRYPTO_ONLY = 'Crypto only (from the crypto vendor); null or empty for other types.';
const LISTED_ONLY = 'Stocks, ETFs, FX and futures (from the catalogue and the vendor quote); null for crypto.';

/** `/assets/{symbol}`: the Asset plus extended metadata, one flat object; which fields an asset type fills is said per field. */
export class AssetDetailDto extends AssetDto {
  @ApiProperty({ type: 'string', nullable: true, example: 'Bitcoin is the first decentralized cryptocurrency.', description: CRYPTO_ONLY })
  description: string | null;

  @ApiProperty({
    type: [String],
    example: ['cryptocurrency', 'layer-1'],
    description: 'Category and sector slugs (the `category` filter of /assets), then the vendor categories',
  })
  categories: string[];

  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'array', items: { type: 'string' } },
    example: { homepage: ['https://bitcoin.org'] },
    description: `Links by kind (homepage, whitepaper, blockchainExplorers, forums, chats, announcements, twitter, subreddit, sourceRepositories). ${CRYPTO_ONLY}`,
  })
  links: Record<string, string[]>;

  @ApiProperty({ type: 'string', nullable: true, example: null, description: CRYPTO_ONLY })
  imageUrl: string | null;

  @ApiProperty({ type: 'string', nullable: true, example: '2009-01-03', description: `YYYY-MM-DD. ${CRYPTO_ONLY}` })
  genesisDate: string | null;

  @ApiProperty({ type: 'string', nullable: true, example: 'SHA-256', description: CRYPTO_ONLY })
  hashingAlgorithm: string | null;

  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' }, example: {}, description: `Token contract address by platform. ${CRYPTO_ONLY}` })
  contracts: Record<string, string>;

  @ApiProperty({ type: 'integer', nullable: true, example: 1, description: 'Rank by market cap among coins (crypto)' })
  marketCapRank: number | null;

  @ApiProperty({ type: 'string', nullable: true, example: '19900000', description: CRYPTO_ONLY })
  circulatingSupply: string | null;

  @ApiProperty({ type: 'string', nullable: true, example: '19900000', description: CRYPTO_ONLY })
  totalSupply: string | null;

  @ApiProperty({ type: 'string', nullable: true, example: '21000000', description: CRYPTO_ONLY })
  maxSupply: string | null;

  @ApiProperty({ type: 'string', nullable: true, example: '2037000000000', description: `USD. ${CRYPTO_ONLY}` })
  fullyDilutedValuation: string | null;

  @ApiNullableRefProperty(PriceExtremeDto, { description: `All-time high in USD. ${CRYPTO_ONLY}` })
  allTimeHigh: PriceExtremeDto | null;

  @ApiNullableRefProperty(PriceExtremeDto, { description: `All-time low in USD. ${CRYPTO_ONLY}` })
  allTimeLow: PriceExtremeDto | null;

  @ApiProperty({ type: 'string', nullable: true, example: 'NasdaqGS', description: `Exchange of the quote. ${LISTED_ONLY}` })
  exchange: string | null;

  @ApiProperty({ type: 'string', nullable: true, example: 'Technology', description: 'Stocks and some ETFs; null otherwise' })
  sector: string | null;

  @ApiProperty({ type: 'string', nullable: true, example: 'Consumer Electronics', description: 'Stocks, where known; null otherwise' })
  industry: string | null;

  @ApiProperty({ type: 'string', nullable: true, example: 'United States', description: "Stocks and ETFs: the listing market's country; null otherwise" })
  country: string | null;

  @ApiProperty({ type: 'string', nullable: true, example: 'REGULAR', description: `Trading state (REGULAR, PRE, POST, CLOSED, ...). ${LISTED_ONLY}` })
  marketState: string | null;
}
