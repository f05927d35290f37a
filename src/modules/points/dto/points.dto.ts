import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { PageQuery } from '../../../common/pagination/page-query.dto';
import { POINTS_BUCKETS, PointsBucket } from '../points-rules';

export class PointsBucketDto {
  @ApiProperty({ enum: [...POINTS_BUCKETS], example: 'perp' })
  bucket: PointsBucket;

  @ApiProperty({ type: 'integer', example: 1240 })
  rawPoints: number;

  @ApiProperty({ example: '1364', description: 'Decimal string: raw points × the VIP multiplier of each fill' })
  points: string;

  @ApiProperty({ example: '12400.5', description: 'Decimal string, USD' })
  volumeUsd: string;
}

export class PointsOverviewDto {
  @ApiProperty({ example: '0x5e9ee1089755c3435139848e47e6635505d5a13a' })
  walletAddress: string;

  @ApiProperty({ example: '1364', description: 'Decimal string' })
  balance: string;

  @ApiProperty({ type: 'integer', example: 1240, description: 'Raw points before VIP multipliers' })
  rawBalance: number;

  @ApiProperty({ example: '1364', description: 'Decimal string: every point ever earned (nothing spends points yet, so it equals balance)' })
  totalEarned: string;

  @ApiProperty({
    type: 'integer',
    example: 3,
    description:
      'Dense rank by balance among all accounts, from the snapshot economy.builder-fills takes each run (an account without points ranks below all that have some)',
  })
  rank: number;

  @ApiProperty({ type: [PointsBucketDto], description: 'Both buckets, perp then spot, zero when unused' })
  buckets: PointsBucketDto[];
}

export class PointsTransactionDto {
  @ApiProperty({ example: '1042' })
  id: string;

  @ApiProperty({ enum: [...POINTS_BUCKETS], example: 'perp' })
  volumeBucket: PointsBucket;

  @ApiProperty({ enum: ['taker', 'maker'], example: 'taker', description: 'taker when the fill crossed the book' })
  role: string;

  @ApiProperty({ enum: ['trade'], example: 'trade' })
  sourceType: string;

  @ApiProperty({ example: '24.24257' })
  volumeUsd: string;

  @ApiProperty({ enum: ['Free', 'Pro', 'Max'], example: 'Pro', description: 'The tier the account had when the fill happened' })
  vipTierSnap: string;

  @ApiProperty({ example: '1.1', description: 'That tier’s points multiplier, frozen with the fill' })
  vipMultiplierSnap: string;

  @ApiProperty({ example: '2', description: 'floor(volumeUsd × the bucket and role rate), a decimal string of an integer' })
  rawPoints: string;

  @ApiProperty({ example: '2.2' })
  points: string;

  @ApiProperty({ example: '1364', description: 'The balance after this transaction, in the order transactions were recorded' })
  balanceAfter: string;

  @ApiProperty({ example: '2026-11-20T09:15:02.000Z', description: 'When the fill happened' })
  eventAt: string;

  @ApiProperty({ enum: ['fill'], example: 'fill' })
  eventTimeSource: string;

  @ApiProperty({
    type: 'string',
    nullable: true,
    example: '0x53542a9ac057af8454cd0434d851d202028b00805b5ace56f71cd5ed7f5b896e',
    description:
      'The fill’s transaction hash, from the wallet’s own fills (a builder’s daily file carries none; its fills are matched to the ' +
      'wallet’s by time, side, price, size and coin). Null only while no own fill matches: Hyperliquid no longer serves it (a user’s ' +
      '10,000 most recent fills) or could not be read when the day was; it is filled in once known',
  })
  tradeTxHash: string | null;
}

export class PointsTransactionsQueryDto extends PageQuery({ defaultLimit: 20, maxLimit: 100 }) {
  @ApiPropertyOptional({ enum: [...POINTS_BUCKETS], description: 'One bucket only, exactly as spelled' })
  @IsOptional()
  @IsIn([...POINTS_BUCKETS])
  bucket?: PointsBucket;
}
