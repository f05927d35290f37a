import { ApiProperty } from '@nestjs/swagger';

export class UsageItemDto {
  @ApiProperty({ example: 'account.summary', description: 'Internal dotted endpoint name' })
  endpoint: string;

  @ApiProperty({ example: 42, description: 'Successful calls this period' })
  calls: number;

  @ApiProperty({ example: '42', description: 'Credits drawn this period (decimal string; "0" on Free)' })
  credits: string;
}
