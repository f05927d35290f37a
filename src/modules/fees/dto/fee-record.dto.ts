import { ApiProperty } from '@nestjs/swagger';

export class FeeRecordDto {
  @ApiProperty({
    type: 'string',
    nullable: true,
    example: '0x53542a9ac057af8454cd0434d851d202028b00805b5ace56f71cd5ed7f5b896e',
    description: 'The fill’s transaction hash; null for a fill known only from the builder’s daily file, which carries none',
  })
  txHash: string | null;

  @ApiProperty({ example: '0.002424', description: 'The service’s builder fee on this fill at its base rate (USD, 6 decimals)' })
  svcFee: string;

  @ApiProperty({ example: '0.1', description: 'The fee discount of the tier the account had when the fill happened (0.1 = 10 %)' })
  vipDiscountRate: string;

  @ApiProperty({ example: '0.002182', description: 'svcFee after that discount (USD, 6 decimals, rounded half up)' })
  svcFeeDiscounted: string;

  @ApiProperty({ example: '2026-11-20T09:15:02.457Z' })
  tradeTime: string;
}
