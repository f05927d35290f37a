import { ApiProperty } from '@nestjs/swagger';
import { PageFieldsDto } from '../../../common/dto/envelope.dto';
import { DATA_AGE } from '../hl-openapi';
import { LeaderboardWindow } from '../hl-params';

export interface WindowPerformance {
  pnl: string;
  roi: string;
  vlm: string;
}

export class LeaderboardEntryDto {
  @ApiProperty({ example: '0x0000000000000000000000000000000000000001' })
  ethAddress: string;

  @ApiProperty({ example: '1523400.25', description: 'Account value, USD (decimal string)' })
  accountValue: string;

  @ApiProperty({
    type: 'array',
    description: 'Pairs [window, {pnl, roi, vlm}] (decimal strings), always in the order day, week, month, allTime',
    items: {
      type: 'array',
      minItems: 2,
      maxItems: 2,
      items: {
        oneOf: [
          { type: 'string', enum: ['day', 'week', 'month', 'allTime'] },
          {
            type: 'object',
            required: ['pnl', 'roi', 'vlm'],
            properties: { pnl: { type: 'string' }, roi: { type: 'string' }, vlm: { type: 'string' } },
          },
        ],
      },
    },
    example: [['day', { pnl: '1200.5', roi: '0.012', vlm: '250000' }]],
  })
  windowPerformances: Array<[LeaderboardWindow, WindowPerformance]>;
}

export class LeaderboardDto extends PageFieldsDto {
  @ApiProperty({ type: [LeaderboardEntryDto] })
  items: LeaderboardEntryDto[];

  @ApiProperty({
    type: 'string',
    nullable: true,
    example: null,
    description: 'Opaque token for the next rows (same sort, order and limit); null on the last page',
  })
  nextCursor: string | null;

  @ApiProperty({
    example: '2026-11-21T12:00:00.000Z',
    description: 'When the leaderboard served was read from the exchange (ISO-8601 UTC): the start of the newest read that succeeded. ' + DATA_AGE,
  })
  updatedAt: string;
}
