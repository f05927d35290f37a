import { ApiProperty } from '@nestjs/swagger';
import { PageQuery } from '../../../common/pagination/page-query.dto';

export class CreditTransactionsQueryDto extends PageQuery({ defaultLimit: 20, maxLimit: 100 }) {}

export class CreditTransactionDto {
  @ApiProperty({ example: '1042' })
  id: string;

  @ApiProperty({ enum: ['charge', 'period_reset', 'adjustment'], example: 'charge' })
  type: string;

  @ApiProperty({ example: '-1', description: 'Signed decimal string; charges are negative' })
  amount: string;

  @ApiProperty({ example: '9999999' })
  balanceAfter: string;

  @ApiProperty({ enum: ['api_call', 'credit_period', 'operator'], example: 'api_call' })
  referenceType: string;

  @ApiProperty({ example: '3f0c0d3e-8d9b-4d5e-9a63-2a4b1c7e9f10', description: 'The request id for api_call rows' })
  referenceId: string;

  @ApiProperty({ type: 'string', nullable: true, example: null })
  notes: string | null;

  @ApiProperty({ example: '2026-11-21T12:00:00.000Z' })
  createdAt: string;
}
