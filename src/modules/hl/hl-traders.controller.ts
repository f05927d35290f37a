import { Get, Query } from '@nestjs/common';
import { ApiEnvelope } from '../../common/decorators/api-envelope.decorator';
import { PublicApiController, PublicEndpoint } from '../access/public-endpoint.decorator';
import { LeaderboardDto } from './dto/leaderboard.dto';
import { LeaderboardQueryDto } from './dto/leaderboard.query.dto';
import { Hip3SmartTradersDto, Hip4SmartTradersDto } from './dto/smart-trader.dto';
import { Hip3SmartTraderQueryDto, Hip4SmartTraderQueryDto } from './dto/smart-trader.query.dto';
import { HlLeaderboardService } from './hl-leaderboard.service';
import { ApiNoSnapshotResponse, OFFSET_PAGING, RANK_PAGING } from './hl-openapi';
import { HlSmartTradersService } from './hl-smart-traders.service';

const SMART_TRADERS = `limit is 1-200 (default 50). ${OFFSET_PAGING}`;

@PublicApiController('hl', 'Exchange-chain analytics')
export class HlTradersController {
  constructor(
    private readonly leaderboard: HlLeaderboardService,
    private readonly smartTraders: HlSmartTradersService,
  ) {}

  @Get('leaderboard')
  @PublicEndpoint('hl.leaderboard', 'Trader leaderboard by PnL, ROI, volume or account value')
  @ApiEnvelope(LeaderboardDto, { description: `total is the number of ranked accounts in the leaderboard snapshot. ${RANK_PAGING}` })
  @ApiNoSnapshotResponse()
  getLeaderboard(@Query() query: LeaderboardQueryDto) {
    return this.leaderboard.getLeaderboard(query);
  }

  @Get('hip3/smart-trader')
  @PublicEndpoint('hl.hip3.smart-trader', 'Smart traders of a HIP-3 (stock perp) coin')
  @ApiEnvelope(Hip3SmartTradersDto, { description: SMART_TRADERS })
  @ApiNoSnapshotResponse()
  getHip3(@Query() query: Hip3SmartTraderQueryDto) {
    return this.smartTraders.getHip3(query);
  }

  @Get('hip4/smart-trader')
  @PublicEndpoint('hl.hip4.smart-trader', 'Smart traders of a HIP-4 prediction outcome (YES and NO merged)')
  @ApiEnvelope(Hip4SmartTradersDto, { description: `markPx is the YES side's mid. ${SMART_TRADERS}` })
  @ApiNoSnapshotResponse()
  getHip4(@Query() query: Hip4SmartTraderQueryDto) {
    return this.smartTraders.getHip4(query);
  }
}
