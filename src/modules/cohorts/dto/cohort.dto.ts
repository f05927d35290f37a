import { ApiProperty } from '@nestjs/swagger';
import { PageQuery } from '../../../common/pagination/page-query.dto';

export class CohortSummaryDto {
  @ApiProperty({ example: '3f1c8a8e-5d0b-4f7e-9a51-2b0c7f2f9a10' })
  id: string;

  @ApiProperty({ example: 'Whales I follow' })
  name: string;

  @ApiProperty({ example: 12 })
  addressCount: number;

  @ApiProperty({ example: '2026-11-25T12:00:00.000Z' })
  createdAt: string;

  @ApiProperty({ example: '2026-11-25T12:00:00.000Z', description: 'Last rename or change of members' })
  updatedAt: string;
}

export class CohortMemberDto {
  @ApiProperty({ example: '0x8ba1f109551bd432803012645ac136ddd64dba72', description: 'Lower case' })
  address: string;

  @ApiProperty({ type: [String], example: ['desk-a'], description: 'The owner’s private tags (never shown on /hl)' })
  tags: string[];

  @ApiProperty({ example: '2026-11-25T12:00:00.000Z' })
  addedAt: string;
}

export class CohortDto extends CohortSummaryDto {
  @ApiProperty({ type: [CohortMemberDto], description: 'Every member, oldest first' })
  addresses: CohortMemberDto[];
}

export class CohortPositionsQueryDto extends PageQuery({ defaultLimit: 20, maxLimit: 100 }) {}

export class CohortPositionDto {
  @ApiProperty({ example: '0x8ba1f109551bd432803012645ac136ddd64dba72' })
  address: string;

  @ApiProperty({ type: [String], example: ['desk-a'] })
  tags: string[];

  @ApiProperty({ example: 'BTC', description: 'Perp coin; HIP-3 coins as dex:SYMBOL' })
  coin: string;

  @ApiProperty({ example: '-1.5', description: 'Signed size (Hyperliquid szi): negative for a short' })
  size: string;

  @ApiProperty({ enum: ['long', 'short'], example: 'short' })
  side: 'long' | 'short';

  @ApiProperty({ example: '98000' })
  entryPx: string;

  @ApiProperty({ example: '100000', description: 'The snapshot’s mark (the mid when known)' })
  markPx: string;

  @ApiProperty({ example: '150000', description: '|size| × mark, USD' })
  positionValue: string;

  @ApiProperty({ example: '-3000', description: 'size × (mark − entry), USD' })
  unrealizedPnl: string;

  @ApiProperty({ example: '10' })
  leverage: string;

  @ApiProperty({ type: 'string', nullable: true, example: '105000' })
  liquidationPx: string | null;

  @ApiProperty({ example: '2026-11-25T12:00:00.000Z', description: 'When the market snapshot these positions come from was taken' })
  snapshotTime: string;
}
