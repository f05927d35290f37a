import { ApiProperty } from '@nestjs/swagger';
import { IsString, Matches, MaxLength } from 'class-validator';
import { Transform } from 'class-transformer';
import { PageQuery } from '../../../common/pagination/page-query.dto';
import { REFERRAL_CODE_PATTERN } from '../../account/referral-code';

const USD = 'Decimal string, USD';

export class ReferralStatusDto {
  @ApiProperty({ example: '7K2M9QX4TB', description: 'This account’s code: another wallet binds to it with POST /api/v1/referral/bind' })
  refCode: string;

  @ApiProperty({ type: 'string', nullable: true, example: null, description: 'The wallet this account is bound to, or null' })
  referrerAddress: string | null;

  @ApiProperty({ example: false })
  isBound: boolean;

  @ApiProperty({ example: '1250000.5', description: `${USD}: the referees' volume through the service's builder since each bound` })
  refereesTotalVolume: string;

  @ApiProperty({ example: '84000', description: `${USD}: this account's own volume through the service's builder` })
  selfTradingVolume: string;

  @ApiProperty({ example: '18.75', description: `${USD}: the referees' builder fees since they bound × the rebate rate of the current level` })
  builderRewards: string;

  @ApiProperty({ example: '12.5', description: 'Rewards in published claim rounds not claimed yet, in reward-token units (REWARDS_TOKEN_SYMBOL)' })
  claimable: string;

  @ApiProperty({
    example: 'L2',
    description: 'The referral level from the referees’ total volume: L1 from 0, L2 from 1,000,000, L3 from 10,000,000, L4 from 100,000,000 USD',
  })
  currentLevel: string;
}

export class RefereeDto {
  @ApiProperty({ example: '0x5e9ee1089755c3435139848e47e6635505d5a13a' })
  userAddress: string;

  @ApiProperty({ example: '2026-11-01T10:00:00.000Z' })
  boundAt: string;

  @ApiProperty({ example: '500000', description: `${USD}, since it bound` })
  totalTradeVolume: string;

  @ApiProperty({ example: '50', description: `${USD}: builder fees it paid the service since it bound` })
  totalBuilderFee: string;

  @ApiProperty({ example: '7.5', description: `${USD}: totalBuilderFee × the current rebate rate` })
  builderReward: string;
}

export class RefereesPageDto {
  @ApiProperty({ type: [RefereeDto] })
  items: RefereeDto[];

  @ApiProperty({ type: 'integer', example: 1 })
  page: number;

  @ApiProperty({ type: 'integer', example: 20 })
  limit: number;

  @ApiProperty({ type: 'integer', example: 3 })
  total: number;

  @ApiProperty({ example: false })
  hasMore: boolean;

  @ApiProperty({ example: '1250000.5', description: USD })
  refereesTotalVolume: string;

  @ApiProperty({ example: '18.75', description: USD })
  totalBuilderReward: string;

  @ApiProperty({ example: '0.15', description: 'Share of referees’ builder fees paid at the current level' })
  referralRebateRate: string;

  @ApiProperty({ example: 'L2' })
  currentLevel: string;
}

export class RefereesQueryDto extends PageQuery({ defaultLimit: 20, maxLimit: 100 }) {}

export class BindReferralDto {
  @ApiProperty({ example: '7K2M9QX4TB', description: 'The referrer’s refCode (case does not matter)' })
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim().toUpperCase() : value))
  @IsString()
  @MaxLength(16)
  @Matches(REFERRAL_CODE_PATTERN, { message: 'code must be 8 to 16 letters and digits' })
  code: string;
}
