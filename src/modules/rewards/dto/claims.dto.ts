import { ApiProperty } from '@nestjs/swagger';
import { PageQuery } from '../../../common/pagination/page-query.dto';

const BASE_UNITS = 'Decimal string of an integer: the reward token’s base units (USDC: millionths), as the leaf and the contract hold it';

export class ClaimRoundDto {
  @ApiProperty({ type: 'integer', example: 3 })
  roundId: number;

  @ApiProperty({ example: '12500000', description: `This account’s leaf in the round. ${BASE_UNITS}` })
  amount: string;

  @ApiProperty({
    example: '0x6deb52b5da8fd108f79fab00341f38d2587896634c646ee52e49f845680a70c8',
    description: 'The round’s OpenZeppelin StandardMerkleTree root',
  })
  merkleRoot: string;

  @ApiProperty({ example: '2026-11-23T00:00:00.000Z' })
  publishedAt: string;

  @ApiProperty({ example: false, description: 'From the distributor’s Claimed events (REWARDS_RPC_URL) or an operator’s mark' })
  claimed: boolean;
}

export class ClaimsDto {
  @ApiProperty({ type: [ClaimRoundDto], description: 'Every round with a leaf of this account, newest first' })
  rounds: ClaimRoundDto[];

  @ApiProperty({ example: '0x5e9ee1089755c3435139848e47e6635505d5a13a' })
  account: string;

  @ApiProperty({
    type: 'string',
    nullable: true,
    example: '0x1111111111111111111111111111111111111111',
    description: 'The Merkle distributor contract; null until one is configured',
  })
  distributor: string | null;
}

export class ClaimStatusDto {
  @ApiProperty({ example: true })
  hasPendingClaim: boolean;

  @ApiProperty({ example: '12.5', description: 'Unclaimed amounts of published rounds, in reward-token units' })
  totalClaimable: string;

  @ApiProperty({ type: 'integer', example: 4, description: 'The id the next published round will have (rounds of both programmes share one sequence)' })
  nextRoundId: number;
}

export class ClaimAllDto {
  @ApiProperty({ type: [Number], example: [2, 3] })
  roundIds: number[];

  @ApiProperty({ type: [String], example: ['5000000', '7500000'], description: `Aligned with roundIds. ${BASE_UNITS}` })
  amounts: string[];

  @ApiProperty({
    type: 'array',
    items: { type: 'array', items: { type: 'string' } },
    example: [['0x52426e0f1f65ff7e209a13b8c29cffe82e3acaf3dad0a9b9088f3b9a61a929c3']],
    description: 'Aligned with roundIds: each leaf’s proof against its round’s root (leaf = keccak256(keccak256(abi.encode(account, amount))))',
  })
  proofs: string[][];

  @ApiProperty({ example: '0x5e9ee1089755c3435139848e47e6635505d5a13a' })
  account: string;

  @ApiProperty({ type: 'string', nullable: true, example: '0x1111111111111111111111111111111111111111' })
  distributor: string | null;
}

export class OpcClaimsPageDto {
  @ApiProperty({ type: [ClaimRoundDto] })
  items: ClaimRoundDto[];

  @ApiProperty({ type: 'integer', example: 1 })
  page: number;

  @ApiProperty({ type: 'integer', example: 20 })
  limit: number;

  @ApiProperty({ type: 'integer', example: 2 })
  total: number;

  @ApiProperty({ example: false })
  hasMore: boolean;

  @ApiProperty({ example: '0x5e9ee1089755c3435139848e47e6635505d5a13a' })
  account: string;

  @ApiProperty({ type: 'string', nullable: true, example: '0x1111111111111111111111111111111111111111' })
  distributor: string | null;
}

export class ClaimsPageQueryDto extends PageQuery({ defaultLimit: 20, maxLimit: 100 }) {}
