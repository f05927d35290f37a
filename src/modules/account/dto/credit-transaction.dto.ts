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

  @ApiProperty({
    example: '019aa8f2-1c3d-7e4f-8a5b-6c7d8e9f0a1b',
    description:
      'A UUID: the request id (X-Request-Id) for api_call rows, a random id for operator rows, and for credit_period rows a ' +
      'name-based UUID (version 3) of the account, credit epoch and period, which notes spells out',
  })
  referenceId: string;

  @ApiProperty({ type: 'string', nullable: true, example: null, description: 'Operator note, or the period a credit_period row reset' })
  notes: string | null;

  @ApiProperty({ example: '2026-11-21T12:00:00.000Z' })
  createdAt: string;
}
