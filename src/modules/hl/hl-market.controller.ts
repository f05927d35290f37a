import { Get, Query } from '@nestjs/common';
import { ApiEnvelope } from '../../common/decorators/api-envelope.decorator';
import { AnswersJsonText } from '../../common/http/json-text';
import { PublicApiController, PublicEndpoint } from '../access/public-endpoint.decorator';
import { LiquidationMapDto } from './dto/liquidation-map.dto';
import { LiquidationMapQueryDto } from './dto/liquidation-map.query.dto';
import { MidsDto } from './dto/mids.dto';
import { TrendingDto } from './dto/trending.dto';
import { TrendingQueryDto } from './dto/trending.query.dto';
import { HlMarketService } from './hl-market.service';
import { ApiNoSnapshotResponse, OFFSET_PAGING, TRENDING_PRICE_CHANGE } from './hl-openapi';

@PublicApiController('hl', 'Exchange-chain analytics')
export class HlMarketController {
  constructor(private readonly market: HlMarketService) {}

  @Get('prices/mids')
  @PublicEndpoint('hl.prices.mids', 'Mid prices of every listed coin', { query: false })
  @ApiEnvelope(MidsDto, { description: "Read from the mids poller's table; each replica caches the map for about 1 s. Empty before the first poll." })
  @AnswersJsonText()
  getMids() {
    return this.market.getMids();
  }

  @Get('perp/liquidation-map')
  @PublicEndpoint('hl.perp.liquidation-map', 'Liquidation heatmap of a perp or HIP-3 coin')
  @ApiEnvelope(LiquidationMapDto, {
    description:
      'Positions of the current market snapshot whose liquidation price lies in [0.5 × mark, 1.5 × mark] (mark of the snapshot, else the ' +
      'latest), in 40 equal-width bins; liquidationValue sums absolute position values (USD). All bin fields are JSON numbers. ' +
      'Computed once per snapshot and coin.',
  })
  @ApiNoSnapshotResponse()
  getLiquidationMap(@Query() query: LiquidationMapQueryDto) {
    return this.market.getLiquidationMap(query);
  }

  @Get('trending')
  @PublicEndpoint('hl.trending', 'Trending spot and perp coins over a period')
  @ApiEnvelope(TrendingDto, {
    description:
      'Lists in rank order as ranked by the market snapshot. limit is 1-200 (default 50); page and limit apply to each list. ' +
      `snapshot_height is the market snapshot id. ${TRENDING_PRICE_CHANGE} ${OFFSET_PAGING}`,
  })
  @ApiNoSnapshotResponse()
  getTrending(@Query() query: TrendingQueryDto) {
    return this.market.getTrending(query);
  }
}
