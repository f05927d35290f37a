import { ApiProperty } from '@nestjs/swagger';

export class CreditBalanceDto {
  @ApiProperty({ example: '9999987', description: 'Live balance (decimal string); "0" on Free, which is not metered' })
  balance: string;

  @ApiProperty({ example: '2026-11-01T00:00:00.000Z', description: 'Monthly periods start on this instant, every month' })
  resetAnchorAt: string;
}

export class AccountSummaryDto {
  @ApiProperty({ example: '0x8ba1f109551bd432803012645ac136ddd64dba72' })
  walletAddress: string;

  @ApiProperty({ enum: ['Free', 'Pro', 'Max'], example: 'Pro' })
  tier: string;

  @ApiProperty({ example: 200, description: "The key's per-minute cap" })
  rpm: number;

  @ApiProperty({ type: CreditBalanceDto })
  credits: CreditBalanceDto;

  @ApiProperty({
    type: 'string',
    nullable: true,
    example: 'mdk_Ab3dE6gH',
    description: 'Leading characters of the calling key (/account); of the newest active key on /api/v1/account, null when none is active',
  })
  keyPrefix: string | null;
}
