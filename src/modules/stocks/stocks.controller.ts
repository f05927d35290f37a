import { Get, Query, Res } from '@nestjs/common';
import { ApiEnvelope } from '../../common/decorators/api-envelope.decorator';
import { AnswersJsonText } from '../../common/http/json-text';
import { PublicApiController, PublicEndpoint } from '../access/public-endpoint.decorator';
import { DataAgeHeader } from '../markets/data-age';
import { AGE_HEADER, AGE_RESPONSE_HEADER, CATALOGUE_READ } from '../markets/markets-openapi';
import { StockOverviewDto, StockOverviewQueryDto } from './dto/stock-overview.dto';
import { LIMIT_PER_CATEGORY, StockOverviewService } from './stock-overview.service';

/** Stocks (contract 4.3): the sector heatmap from the catalogue. */
@PublicApiController('stock', 'Stocks')
export class StocksController {
  constructor(
    private readonly overview: StockOverviewService,
    private readonly age: DataAgeHeader,
  ) {}

  @Get('overview')
  @PublicEndpoint('stocks.overview', 'Sector heatmap of a stock market')
  @ApiEnvelope(StockOverviewDto, {
    headers: AGE_RESPONSE_HEADER,
    description:
      `Listed stocks grouped by market and sector (markets in the order US, HK, JP, KR; sectors alphabetically, stocks without one last), ` +
      `at most ${LIMIT_PER_CATEGORY} per group, the largest market cap in USD first. price, marketCap in the listing currency; priceUsd at the ` +
      `catalogue's latest FX quote; all figures JSON numbers, null before the first quote refresh. ${CATALOGUE_READ} ${AGE_HEADER}`,
  })
  @AnswersJsonText()
  async getOverview(@Query() query: StockOverviewQueryDto, @Res({ passthrough: true }) res: unknown) {
    return this.age.send(res, await this.overview.get(query));
  }
}
