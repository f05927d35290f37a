import { ApiProperty, ApiPropertyOptions } from '@nestjs/swagger';
import { PageFieldsDto } from '../../../common/dto/envelope.dto';
import { DATA_AGE } from '../hl-openapi';

const ADDRESS_EXAMPLE = '0x0000000000000000000000000000000000000001';
const TAGS: ApiPropertyOptions = { type: [String], example: ['whale'], description: 'Labels of the wallet; empty when it has none' };
const NEXT_CURSOR = {
  type: 'string',
  nullable: true,
  example: null,
  description: 'Opaque token for the next rows (pass as `cursor` with the same coin, sort, order and limit); null on the last page',
} as const;
const UPDATED_AT = {
  example: '2026-11-21T12:00:00.000Z',
  description:
    'When the data of this answer was read from the exchange (ISO-8601 UTC): the start of the newest polling round that read ' +
    'wallets, or of the newest read of the marks they are valued at, whichever is older. ' +
    DATA_AGE +
    ' Wallets are re-read on a cadence by size, so a single row may have been read before it.',
} as const;

export class SpotHolderDto {
  @ApiProperty({ example: ADDRESS_EXAMPLE })
  address: string;

  @ApiProperty({ example: 'HYPE' })
  coin: string;

  @ApiProperty({ example: '1200.5', description: 'Token balance (decimal string)' })
  balance: string;

  @ApiProperty({ example: '30012.5', description: 'Balance × price, USD (decimal string)' })
  value: string;

  @ApiProperty({ type: 'string', nullable: true, example: '21.3', description: 'Average entry price; null when the entry notional is unknown' })
  entryPrice: string | null;

  @ApiProperty({ type: 'string', nullable: true, example: '25570.65', description: 'Entry notional, USD; null when the exchange reports none or 0 (USDC)' })
  entryNtl: string | null;

  @ApiProperty({ type: 'string', nullable: true, example: '4441.85', description: 'Unrealized PnL, USD; null without an entry notional' })
  uPnl: string | null;

  @ApiProperty({ type: 'string', nullable: true, example: '0.1737', description: 'Return on entry (uPnl / entryNtl); null without an entry notional' })
  roe: string | null;

  @ApiProperty({ example: '0.0012', description: 'Share of the supply held, as computed by the snapshot' })
  supplyPercentage: string;

  @ApiProperty(TAGS)
  addressTags: string[];
}

export class PerpHolderDto {
  @ApiProperty({ example: ADDRESS_EXAMPLE })
  address: string;

  @ApiProperty({ enum: ['long', 'short'], example: 'long' })
  side: string;

  @ApiProperty({ example: 'BTC' })
  coin: string;

  @ApiProperty({ example: '1.5', description: 'Position size in coins (decimal string)' })
  size: string;

  @ApiProperty({ example: '145000', description: 'Position value, USD' })
  value: string;

  @ApiProperty({ example: '91000' })
  entryPrice: string;

  @ApiProperty({ example: '10' })
  leverage: string;

  @ApiProperty({ example: '8500', description: 'Unrealized PnL, USD' })
  uPnl: string;

  @ApiProperty({ example: '0.62' })
  roe: string;

  @ApiProperty({ example: '14500' })
  marginUsed: string;

  @ApiProperty({ type: 'string', nullable: true, example: '82000', description: 'null when the position cannot be liquidated' })
  liquidationPrice: string | null;

  @ApiProperty({ example: '96666.6', description: "Price the snapshot valued the position at: the coin's mid, else its mark when no mid is known" })
  markPrice: string;

  @ApiProperty({ type: 'string', nullable: true, example: '-120.5', description: 'Cumulative funding since open; null when the exchange reports none' })
  cumFunding: string | null;

  @ApiProperty({ example: '0.0005', description: 'Share of open interest held, as computed by the snapshot' })
  supplyPercentage: string;

  @ApiProperty(TAGS)
  addressTags: string[];
}

export class SpotHoldersDto extends PageFieldsDto {
  @ApiProperty({ enum: ['spot'], example: 'spot' })
  market: 'spot';

  @ApiProperty({ example: 'HYPE', description: 'Canonical spelling of the requested coin' })
  coin: string;

  @ApiProperty({ type: [SpotHolderDto] })
  items: SpotHolderDto[];

  @ApiProperty(NEXT_CURSOR)
  nextCursor: string | null;

  @ApiProperty(UPDATED_AT)
  updatedAt: string;
}

export class PerpHoldersDto extends PageFieldsDto {
  @ApiProperty({ enum: ['perp'], example: 'perp' })
  market: 'perp';

  @ApiProperty({ example: 'BTC', description: 'Canonical spelling of the requested coin' })
  coin: string;

  @ApiProperty({ type: [PerpHolderDto] })
  items: PerpHolderDto[];

  @ApiProperty(NEXT_CURSOR)
  nextCursor: string | null;

  @ApiProperty(UPDATED_AT)
  updatedAt: string;
}
