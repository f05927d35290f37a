import { ApiProperty } from '@nestjs/swagger';
import { PageFieldsDto } from '../../../common/dto/envelope.dto';
import { DATA_AGE } from '../hl-openapi';

const UPDATED_AT = {
  example: '2026-11-21T12:00:00.000Z',
  description:
    "When the data of this answer was read from the exchange (ISO-8601 UTC): the start of the newest read of the traders' fills, " +
    'of the newest polling round that read wallets (the current positions), or of the newest read of the marks, whichever is oldest. ' +
    DATA_AGE,
} as const;

export class Hip4TraderDto {
  @ApiProperty({ example: '0x0000000000000000000000000000000000000001' })
  userAddress: string;

  @ApiProperty({ example: '120000.5', description: 'Bought notional, USD (decimal string)' })
  totalBuyUsd: string;

  @ApiProperty({ example: '98000', description: 'Sold notional, USD' })
  totalSellUsd: string;

  @ApiProperty({ example: '1500.25', description: 'Closed PnL, USD' })
  realizedPnl: string;

  @ApiProperty({ example: '320', description: 'PnL of the open position at the snapshot, USD' })
  unrealizedPnl: string;

  @ApiProperty({ example: '1784.15', description: 'realizedPnl + unrealizedPnl − fees paid (totalFeeUsd on HIP-3), USD' })
  pnl: string;

  @ApiProperty({ example: '1.52', description: 'PnL in percent, as computed by the snapshot job' })
  pnlPct: string;

  @ApiProperty({ type: 'integer', example: 42 })
  tradeCount: number;

  @ApiProperty({ example: '2026-11-21T11:58:03.120Z', description: 'Time of the latest fill (ISO-8601 UTC)' })
  lastTradeAt: string;
}

export class Hip3TraderDto extends Hip4TraderDto {
  @ApiProperty({ example: '36.1', description: 'Fees paid, USD' })
  totalFeeUsd: string;

  @ApiProperty({ example: '-12.5', description: 'Signed open position size (negative = short)' })
  netPositionSz: string;

  @ApiProperty({ example: '5150.4', description: 'Notional of the open position at the snapshot, USD' })
  currentPositionNotional: string;
}

export class Hip3SmartTradersDto extends PageFieldsDto {
  @ApiProperty({ example: 'xyz:TSLA', description: 'Canonical spelling of the requested coin' })
  coin: string;

  @ApiProperty({ type: 'string', nullable: true, example: '412.3', description: 'Mark price of the coin (decimal string); null while none is known' })
  markPx: string | null;

  @ApiProperty({ type: [Hip3TraderDto] })
  items: Hip3TraderDto[];

  @ApiProperty(UPDATED_AT)
  updatedAt: string;
}

export class Hip4SmartTradersDto extends PageFieldsDto {
  @ApiProperty({ example: '0', description: 'Outcome id (integer string)' })
  outcomeId: string;

  @ApiProperty({ example: 'BTC above 100k on Dec 31' })
  outcomeName: string;

  @ApiProperty({ type: 'string', nullable: true, example: '0.62', description: 'Mid price of the YES side (decimal string); null while none is known' })
  markPx: string | null;

  @ApiProperty({ type: [String], example: ['YES', 'NO'], description: 'Sides of the outcome; YES and NO trades are merged per trader' })
  sides: string[];

  @ApiProperty({ type: [Hip4TraderDto] })
  items: Hip4TraderDto[];

  @ApiProperty(UPDATED_AT)
  updatedAt: string;
}
