import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { PageQuery } from '../../../common/pagination/page-query.dto';
import { MAX_COIN_LENGTH } from '../watchlist-coins.service';
import { MAX_GROUP_NAME_LENGTH, WATCHLIST_GROUP_EXAMPLE_ID } from '../watchlist-limits';

const trimmed = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

const COIN_RULE =
  'A coin of the /hl endpoints (a key of /hl/prices/mids: perp symbol, HIP-3 `dex:SYMBOL` coin or spot token symbol) or a listed ' +
  'Markets catalogue symbol (a stock under its stock code, e.g. `AAPL-US`). Matched exactly, then ignoring case, and stored under ' +
  'its canonical spelling (`btc` → `BTC`, `XYZ:tsla` → `xyz:TSLA`); /hl coins win over catalogue symbols of the same spelling.';

export class WatchlistGroupNameDto {
  @ApiProperty({
    example: 'majors',
    minLength: 1,
    maxLength: MAX_GROUP_NAME_LENGTH,
    description: `1 to ${MAX_GROUP_NAME_LENGTH} characters after trimming, no control characters; unique among the wallet's groups, ignoring case`,
  })
  @Transform(trimmed)
  @IsString()
  @MinLength(1)
  @MaxLength(MAX_GROUP_NAME_LENGTH)
  @Matches(/^\P{Cc}+$/u, { message: 'name may not hold control characters' })
  name: string;
}

export class WatchlistCoinDto {
  @ApiProperty({ example: 'BTC', minLength: 1, maxLength: MAX_COIN_LENGTH, description: COIN_RULE })
  @Transform(trimmed)
  @IsString()
  @MinLength(1)
  @MaxLength(MAX_COIN_LENGTH)
  coin: string;
}

export class WatchlistEntryDto {
  @ApiProperty({ example: 'BTC', description: 'Canonical spelling. ' + COIN_RULE })
  coin: string;

  @ApiProperty({ example: '2026-11-25T12:00:00.000Z' })
  addedAt: string;
}

export class AddedWatchlistEntryDto extends WatchlistEntryDto {
  @ApiProperty({ example: true, description: 'false when the coin was already in the group (the answer is that entry, its addedAt unchanged)' })
  added: boolean;
}

export class RemovedWatchlistEntryDto {
  @ApiProperty({ example: 'BTC', description: 'The coin removed, as stored; the coin as sent when the group did not hold it' })
  coin: string;

  @ApiProperty({ example: true, description: 'false when the group did not hold the coin (removing is idempotent)' })
  removed: boolean;
}

export class WatchlistGroupSummaryDto {
  @ApiProperty({ example: WATCHLIST_GROUP_EXAMPLE_ID, format: 'uuid' })
  id: string;

  @ApiProperty({ example: 'majors' })
  name: string;

  @ApiProperty({ example: 3, type: 'integer' })
  entryCount: number;
}

export class WatchlistGroupDto extends WatchlistGroupSummaryDto {
  @ApiProperty({ example: '2026-11-25T12:00:00.000Z' })
  createdAt: string;

  @ApiProperty({ example: '2026-11-25T12:05:00.000Z', description: 'Last rename or change of its entries' })
  updatedAt: string;
}

export class WatchlistGroupWithEntriesDto extends WatchlistGroupDto {
  @ApiProperty({ type: [WatchlistEntryDto], description: 'Every entry, in the order added' })
  entries: WatchlistEntryDto[];
}

export class WatchlistGroupsQueryDto extends PageQuery({ defaultLimit: 20, maxLimit: 100 }) {}

export class WatchlistEntriesQueryDto extends PageQuery({ defaultLimit: 20, maxLimit: 100 }) {}
