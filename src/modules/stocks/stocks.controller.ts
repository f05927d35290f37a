import { Get, Param, Query, Res } from '@nestjs/common';
import { ApiParam } from '@nestjs/swagger';
import { ApiEnvelope, ApiErrorResponse } from '../../common/decorators/api-envelope.decorator';
import { ErrorCode } from '../../common/errors/error-code';
import { AnswersJsonText } from '../../common/http/json-text';
import { PublicApiController, PublicEndpoint } from '../access/public-endpoint.decorator';
import { DataAgeHeader } from '../markets/data-age';
import { AGE_HEADER, AGE_RESPONSE_HEADER, ApiSymbolPath, ApiVendorFailures, CATALOGUE_READ } from '../markets/markets-openapi';
import { CompanyDto } from './dto/company.dto';
import { FundamentalsDto } from './dto/fundamentals.dto';
import { RwaItemDto, RwaQueryDto, RWA_SORTS } from './dto/rwa.dto';
import { SecFilingsDto, SecFilingsQueryDto } from './dto/sec-filings.dto';
import { StockOverviewDto, StockOverviewQueryDto } from './dto/stock-overview.dto';
import { RwaService } from './rwa.service';
import { SecFilingsService } from './sec-filings.service';
import { LIMIT_PER_CATEGORY, StockOverviewService } from './stock-overview.service';
import { StockProfilesService } from './stock-profiles.service';
import { FUNDAMENTALS_KEYS, PARTIAL_ANSWER, STOCK_SYMBOL } from './stocks-openapi';

/** Stocks (contract 4.3): the sector heatmap from the catalogue; fundamentals, company and filings from the vendors. */
@PublicApiController('stock', 'Stocks')
export class StocksController {
  constructor(
    private readonly overview: StockOverviewService,
    private readonly profiles: StockProfilesService,
    private readonly filings: SecFilingsService,
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

  @Get(':symbol/fundamentals')
  @PublicEndpoint('stocks.fundamentals', 'Quote, key metrics, analyst ratings and financial statements of a stock', { query: false })
  @ApiSymbolPath(STOCK_SYMBOL)
  @ApiVendorFailures()
  @ApiEnvelope(FundamentalsDto, {
    headers: AGE_RESPONSE_HEADER,
    description: `${FUNDAMENTALS_KEYS} Cached for 30 minutes. ${PARTIAL_ANSWER} ${AGE_HEADER}`,
  })
  @AnswersJsonText()
  async getFundamentals(@Param('symbol') symbol: string, @Res({ passthrough: true }) res: unknown) {
    return this.age.send(res, await this.profiles.fundamentals(symbol));
  }

  @Get(':symbol/company')
  @PublicEndpoint('stocks.company', 'Executives, institutional and fund holders, insider transactions of a stock', { query: false })
  @ApiSymbolPath(STOCK_SYMBOL)
  @ApiVendorFailures()
  @ApiEnvelope(CompanyDto, {
    headers: AGE_RESPONSE_HEADER,
    description:
      "Every field a string, empty where the vendor has no value: an executive's `since`, a fund's `weight`, an insider's `filingDate` and " +
      `\`transactionCode\` are not in Yahoo's data. Cached for 30 minutes. ${PARTIAL_ANSWER} ${AGE_HEADER}`,
  })
  @AnswersJsonText()
  async getCompany(@Param('symbol') symbol: string, @Res({ passthrough: true }) res: unknown) {
    return this.age.send(res, await this.profiles.company(symbol));
  }

  @Get(':symbol/sec-filings')
  @PublicEndpoint('stocks.sec-filings', "A US stock's SEC EDGAR filings")
  @ApiParam({ name: 'symbol', ...STOCK_SYMBOL })
  @ApiErrorResponse(
    404,
    [ErrorCode.MARKET_ASSET_NOT_FOUND, ErrorCode.NOT_FOUND],
    'MARKET_ASSET_NOT_FOUND: no stock matches the symbol. NOT_FOUND: the stock files nowhere at the SEC (a HK, JP or KR listing, or a US ticker ' +
      'EDGAR maps to no registrant). msg names `symbol`; not billed',
  )
  @ApiVendorFailures()
  @ApiEnvelope(SecFilingsDto, {
    headers: AGE_RESPONSE_HEADER,
    description:
      'From EDGAR (the ticker mapped to its CIK), newest first, filtered by filing date and form type. `from` after `to` is 400 naming `from`; ' +
      'a form type EDGAR does not know is 400 naming `forms`. `source.from` and `source.to` are always the days searched (YYYY-MM-DD): as asked, ' +
      "else the registrant's first filing day and today (UTC). Cached for 30 minutes; during an EDGAR outage the last answer up to " +
      `an hour old. ${AGE_HEADER}`,
  })
  @AnswersJsonText()
  async getSecFilings(@Param('symbol') symbol: string, @Query() query: SecFilingsQueryDto, @Res({ passthrough: true }) res: unknown) {
    return this.age.send(res, await this.filings.list(symbol, query));
  }
}

/** `/rwa` (contract 4.3): tokenized real-world assets with their underlyings from our catalogue. */
@PublicApiController('rwa', 'Stocks')
export class RwaController {
  constructor(
    private readonly rwa: RwaService,
    private readonly age: DataAgeHeader,
  ) {}

  @Get()
  @PublicEndpoint('stocks.rwa', 'Tokenized real-world assets and their tokens')
  @ApiVendorFailures()
  @ApiEnvelope(RwaItemDto, {
    page: 'offset',
    headers: AGE_RESPONSE_HEADER,
    description:
      `Sort keys: ${RWA_SORTS.join(', ')} (rank, the default, is by token market cap). limit is 1-100 (default 20). The RWA list comes from the ` +
      `crypto vendor (fresh 60 s, the last value up to an hour old during an outage); the underlying's figures from our catalogue, which ` +
      'adds a stock or ETF underlier it lacks (the equities vendor asked). Every figure is a number: a row the catalogue cannot price ' +
      '(an underlier the vendor does not quote, or a token figure neither our catalogue nor the RWA vendor has) is left out, not counted in ' +
      `\`total\`, and ranks count the rows served. ${AGE_HEADER}`,
  })
  @AnswersJsonText()
  async list(@Query() query: RwaQueryDto, @Res({ passthrough: true }) res: unknown) {
    return this.age.send(res, await this.rwa.list(query));
  }
}
