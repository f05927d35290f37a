import { ApiProperty } from '@nestjs/swagger';
import { IntegerParam } from '../../../common/validation/integer-param.decorator';
import { USAGE_HISTORY_MAX_DAYS } from '../../billing/billing.public';

export const DEFAULT_HISTORY_DAYS = 30;

export class UsageHistoryQueryDto {
  @IntegerParam({ min: 1, max: USAGE_HISTORY_MAX_DAYS, default: DEFAULT_HISTORY_DAYS, description: 'Days to report, ending today (UTC)' })
  days: number = DEFAULT_HISTORY_DAYS;
}

export class EndpointUsageDto {
  @ApiProperty({ example: 'hl.prices.mids', description: 'The endpoint name /usage reports (the credit table’s)' })
  endpoint: string;

  @ApiProperty({ example: 12 })
  calls: number;

  @ApiProperty({ example: '12', description: 'Credits drawn (decimal string); 0 on Free, which is not metered' })
  credits: string;
}

export class UsageDayDto {
  @ApiProperty({ example: '2026-11-25', description: 'UTC day the calls were made on' })
  date: string;

  @ApiProperty({ example: 12 })
  calls: number;

  @ApiProperty({ example: '12' })
  credits: string;

  @ApiProperty({ type: [EndpointUsageDto], description: 'Endpoints used that day, by name; empty on a day without calls' })
  endpoints: EndpointUsageDto[];
}

export class UsageHistoryDto {
  @ApiProperty({ example: '2026-10-27' })
  from: string;

  @ApiProperty({ example: '2026-11-25' })
  to: string;

  @ApiProperty({ type: [UsageDayDto], description: 'Every day from `from` to `to`, oldest first' })
  days: UsageDayDto[];
}
