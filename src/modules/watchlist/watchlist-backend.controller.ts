import { Body, Delete, Get, Param, Patch, Post } from '@nestjs/common';
import { ApiOperation, ApiParam } from '@nestjs/swagger';
import { ApiEnvelope, ApiErrorResponse } from '../../common/decorators/api-envelope.decorator';
import { ErrorCode } from '../../common/errors/error-code';
import { BackendApiController } from '../access/backend-api.decorator';
import { CurrentPrincipal } from '../access/current-principal.decorator';
import { WalletPrincipal } from '../access/principal';
import {
  AddedWatchlistEntryDto,
  RemovedWatchlistEntryDto,
  WatchlistCoinDto,
  WatchlistGroupDto,
  WatchlistGroupNameDto,
  WatchlistGroupWithEntriesDto,
} from './dto/watchlist.dto';
import { MAX_ENTRIES_PER_GROUP, MAX_GROUPS_PER_ACCOUNT, WATCHLIST_GROUP_EXAMPLE_ID } from './watchlist-limits';
import { WatchlistService } from './watchlist.service';

const GROUP_ID = ApiParam({ name: 'groupId', description: 'A group of the wallet', schema: { type: 'string', example: WATCHLIST_GROUP_EXAMPLE_ID } });
const NOT_OWN = ApiErrorResponse(404, [ErrorCode.NOT_FOUND], 'No such group among the wallet’s own (also a malformed id)', { open: true });

@BackendApiController('watchlist', 'Backend: watchlists')
export class WatchlistBackendController {
  constructor(private readonly watchlists: WatchlistService) {}

  @Get()
  @ApiOperation({ summary: 'The wallet’s watchlist groups, oldest first, each with all its entries in the order added' })
  @ApiEnvelope(WatchlistGroupWithEntriesDto, { isArray: true, open: true })
  list(@CurrentPrincipal() wallet: WalletPrincipal) {
    return this.watchlists.listForWallet(wallet);
  }

  @Post()
  @ApiOperation({ summary: `A new group. At most ${MAX_GROUPS_PER_ACCOUNT} per account; names unique ignoring case` })
  @ApiEnvelope(WatchlistGroupDto, { status: 201, open: true })
  @ApiErrorResponse(400, [ErrorCode.VALIDATION_ERROR], `name is missing, empty, too long or taken, or the account has ${MAX_GROUPS_PER_ACCOUNT} groups`, {
    open: true,
  })
  create(@CurrentPrincipal() wallet: WalletPrincipal, @Body() { name }: WatchlistGroupNameDto) {
    return this.watchlists.create(wallet, name);
  }

  @Patch(':groupId')
  @ApiOperation({ summary: 'Rename a group (a change of case alone is allowed)' })
  @GROUP_ID
  @ApiEnvelope(WatchlistGroupDto, { open: true })
  @ApiErrorResponse(400, [ErrorCode.VALIDATION_ERROR], 'name is missing, empty, too long or another group’s', { open: true })
  @NOT_OWN
  rename(@CurrentPrincipal() wallet: WalletPrincipal, @Param('groupId') groupId: string, @Body() { name }: WatchlistGroupNameDto) {
    return this.watchlists.rename(wallet, groupId, name);
  }

  @Delete(':groupId')
  @ApiOperation({ summary: 'Delete a group and its entries; answers the group as it was' })
  @GROUP_ID
  @ApiEnvelope(WatchlistGroupDto, { open: true })
  @NOT_OWN
  remove(@CurrentPrincipal() wallet: WalletPrincipal, @Param('groupId') groupId: string) {
    return this.watchlists.remove(wallet, groupId);
  }

  @Post(':groupId/entries')
  @ApiOperation({
    summary: `Add a coin (at most ${MAX_ENTRIES_PER_GROUP} per group). Idempotent: adding a coin the group holds answers that entry (added: false, addedAt unchanged), also 201`,
  })
  @GROUP_ID
  @ApiEnvelope(AddedWatchlistEntryDto, { status: 201, open: true })
  @ApiErrorResponse(400, [ErrorCode.VALIDATION_ERROR], `coin is missing, unknown, or the group holds ${MAX_ENTRIES_PER_GROUP} coins`, { open: true })
  @NOT_OWN
  addEntry(@CurrentPrincipal() wallet: WalletPrincipal, @Param('groupId') groupId: string, @Body() { coin }: WatchlistCoinDto) {
    return this.watchlists.addEntry(wallet, groupId, coin);
  }

  @Delete(':groupId/entries/:coin')
  @ApiOperation({
    summary:
      'Remove a coin (its stored spelling, or the one entry matching it ignoring case). Idempotent: a coin the group does not hold answers removed: false',
  })
  @GROUP_ID
  @ApiParam({
    name: 'coin',
    description: 'URL-encoded (`xyz%3ATSLA`); not checked against the listed coins, so a delisted coin can be removed',
    example: 'BTC',
  })
  @ApiEnvelope(RemovedWatchlistEntryDto, { open: true })
  @NOT_OWN
  removeEntry(@CurrentPrincipal() wallet: WalletPrincipal, @Param('groupId') groupId: string, @Param('coin') coin: string) {
    return this.watchlists.removeEntry(wallet, groupId, coin);
  }
}
