import { Get, Query } from '@nestjs/common';
import { ApiEnvelope } from '../../common/decorators/api-envelope.decorator';
import { PublicApiController, PublicEndpoint } from '../access/public-endpoint.decorator';
import { AnswersJsonText } from '../../common/http/json-text';
import { PerpHoldersDto, SpotHoldersDto } from './dto/holders.dto';
import { PerpHoldersQueryDto, SpotHoldersQueryDto } from './dto/holders.query.dto';
import { HlHoldersService } from './hl-holders.service';
import { ApiNoSnapshotResponse, RANK_PAGING } from './hl-openapi';

@PublicApiController('hl', 'Exchange-chain analytics')
export class HlHoldersController {
  constructor(private readonly holders: HlHoldersService) {}

  @Get('spot/holders')
  @PublicEndpoint('hl.spot.holders', 'Holders of a spot token, by value')
  @ApiEnvelope(SpotHoldersDto, {
    description: `${RANK_PAGING} entryPrice, uPnl and roe are null when the exchange reports no entry notional for the balance.`,
  })
  @ApiNoSnapshotResponse()
  @AnswersJsonText()
  getSpotHolders(@Query() query: SpotHoldersQueryDto) {
    return this.holders.getSpotHolders(query);
  }

  @Get('perp/holders')
  @PublicEndpoint('hl.perp.holders', 'Holders of a perp or HIP-3 coin, by position value or unrealized PnL')
  @ApiEnvelope(PerpHoldersDto, {
    description: `${RANK_PAGING} liquidationPrice is null for positions that cannot be liquidated; cumFunding is null when unknown.`,
  })
  @ApiNoSnapshotResponse()
  @AnswersJsonText()
  getPerpHolders(@Query() query: PerpHoldersQueryDto) {
    return this.holders.getPerpHolders(query);
  }
}
