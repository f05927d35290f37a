import { Get, Param, Query } from '@nestjs/common';
import { ApiParam } from '@nestjs/swagger';
import { ApiEnvelope, ApiErrorResponse } from '../../common/decorators/api-envelope.decorator';
import { ErrorCode } from '../../common/errors/error-code';
import { CallerContext, CurrentCaller } from '../access/current-caller.decorator';
import { PublicApiController, PublicEndpoint } from '../access/public-endpoint.decorator';
import { WatchlistEntriesQueryDto, WatchlistEntryDto, WatchlistGroupSummaryDto, WatchlistGroupsQueryDto } from './dto/watchlist.dto';
import { WATCHLIST_GROUP_EXAMPLE_ID } from './watchlist-limits';
import { WatchlistService } from './watchlist.service';

/** Contract 4.6: the key holder's watchlists, written through the backend API and read here at once (no cache). */
@PublicApiController('account/watchlist', 'Account')
export class WatchlistPublicController {
  constructor(private readonly watchlists: WatchlistService) {}

  @Get()
  @PublicEndpoint('account.watchlist', 'Watchlist groups of the key holder, oldest first (at most 20; total is counted)')
  @ApiEnvelope(WatchlistGroupSummaryDto, { page: 'offset' })
  listGroups(@CurrentCaller() ctx: CallerContext, @Query() query: WatchlistGroupsQueryDto) {
    return this.watchlists.listGroups(ctx, query);
  }

  @Get(':groupId')
  @PublicEndpoint('account.watchlist.entries', 'Entries of one of the key holder’s watchlist groups, in the order added')
  @ApiParam({ name: 'groupId', description: 'A group id from /account/watchlist', schema: { type: 'string', example: WATCHLIST_GROUP_EXAMPLE_ID } })
  @ApiEnvelope(WatchlistEntryDto, { page: 'offset' })
  @ApiErrorResponse(404, [ErrorCode.NOT_FOUND], 'No such group among the key holder’s own (also a malformed id; never 403)')
  listEntries(@CurrentCaller() ctx: CallerContext, @Param('groupId') groupId: string, @Query() query: WatchlistEntriesQueryDto) {
    return this.watchlists.listEntries(ctx, groupId, query);
  }
}
