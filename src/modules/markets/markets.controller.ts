import { Get, Param, Query, Res } from '@nestjs/common';
import { ApiEnvelope } from '../../common/decorators/api-envelope.decorator';
import { AnswersJsonText } from '../../common/http/json-text';
import { PublicApiController, PublicEndpoint } from '../access/public-endpoint.decorator';
import { AssetsService, GAINERS_MIN_VOLUME_USD } from './assets.service';
import { DataAgeHeader } from './data-age';
import { AssetDetailDto, AssetDto } from './dto/asset.dto';
import { GlobalStatsDto, KlineDto, SearchItemDto, TickerDto } from './dto/market-data.dto';
import { AssetsQueryDto, GainersQueryDto, KlinesQueryDto, SearchQueryDto, TickersQueryDto } from './dto/markets.query.dto';
import { GlobalStatsService } from './global-stats.service';
import { MarketFeedsService } from './market-feeds.service';
import { AGE_HEADER, AGE_RESPONSE_HEADER, ApiSymbolPath, ApiVendorFailures, CATALOGUE_READ, ON_DEMAND_READ } from './markets-openapi';

/** Cross-asset market data (contract 4.2, 4.8): every answer carries the Age header. */
@PublicApiController('', 'Markets')
export class MarketsController {
  constructor(
    private readonly assets: AssetsService,
    private readonly feeds: MarketFeedsService,
    private readonly globalStats: GlobalStatsService,
    private readonly age: DataAgeHeader,
  ) {}

  @Get('assets')
  @PublicEndpoint('markets.assets', 'Assets of one class or all, sorted and paged')
  @ApiEnvelope(AssetDto, { page: 'offset', headers: AGE_RESPONSE_HEADER, description: `limit is 1-100 (default 20). ${CATALOGUE_READ} ${AGE_HEADER}` })
  @AnswersJsonText()
  async list(@Query() query: AssetsQueryDto, @Res({ passthrough: true }) res: unknown) {
    return this.age.send(res, await this.assets.list(query));
  }

  @Get('assets/:symbol')
  @PublicEndpoint('markets.asset', 'One asset with extended metadata', { query: false })
  @ApiSymbolPath()
  @ApiVendorFailures()
  @ApiEnvelope(AssetDetailDto, {
    headers: AGE_RESPONSE_HEADER,
    description: `The Asset fields from the catalogue, and metadata from the vendor. ${ON_DEMAND_READ} ${AGE_HEADER}`,
  })
  @AnswersJsonText()
  async detail(@Param('symbol') symbol: string, @Res({ passthrough: true }) res: unknown) {
    return this.age.send(res, await this.feeds.detail(symbol));
  }

  @Get('assets/:symbol/klines')
  @PublicEndpoint('markets.klines', 'Candles of an asset, oldest first')
  @ApiSymbolPath()
  @ApiVendorFailures()
  @ApiEnvelope(KlineDto, {
    isArray: true,
    headers: AGE_RESPONSE_HEADER,
    description:
      'A bare array of the most recent `limit` bars, ascending by openTime; the last bar may still be forming. Crypto candles come from Binance ' +
      '(real per-bar volume) when the coin has a USDT pair there, else from CoinGecko ohlc merged into hours or days: then volume is null and ' +
      'there are at most 24 H1 and 30 D1 bars. Stocks, ETFs, FX and futures come from Yahoo Finance (FX volume is null). ' +
      `${ON_DEMAND_READ} ${AGE_HEADER}`,
  })
  @AnswersJsonText()
  async klines(@Param('symbol') symbol: string, @Query() query: KlinesQueryDto, @Res({ passthrough: true }) res: unknown) {
    return this.age.send(res, await this.feeds.klines(symbol, query));
  }

  @Get('assets/:symbol/tickers')
  @PublicEndpoint('markets.tickers', "An asset's markets across venues")
  @ApiSymbolPath()
  @ApiVendorFailures()
  @ApiEnvelope(TickerDto, {
    page: 'offset',
    headers: AGE_RESPONSE_HEADER,
    description:
      'Spot markets (the 100 largest by volume) and every perpetual and dated future on the coin from the crypto vendor, plus Hyperliquid ' +
      '(a DEX) from our own snapshot: the native perp and spot pair of a coin, the HIP-3 perps of a stock. Stocks and FX have no vendor venue list. ' +
      'Sorted by 24 h volume in USD, largest first (unknown last). venue=dex keeps on-chain venues, told by the protocol named in the venue ' +
      `(CoinGecko does not mark them in its tickers). limit is 1-100 (default 20). ${ON_DEMAND_READ} ${AGE_HEADER}`,
  })
  @AnswersJsonText()
  async tickers(@Param('symbol') symbol: string, @Query() query: TickersQueryDto, @Res({ passthrough: true }) res: unknown) {
    return this.age.send(res, await this.feeds.venueTickers(symbol, query));
  }

  @Get('search')
  @PublicEndpoint('markets.search', 'Search assets by symbol or name')
  @ApiEnvelope(SearchItemDto, {
    page: 'offset',
    headers: AGE_RESPONSE_HEADER,
    description:
      'Exact symbol or stock code first, then symbols and names starting with q, then names and symbols containing q or close to it (pg_trgm ' +
      `similarity, so one wrong letter still matches); within each tier by market cap in USD. limit is 1-100 (default 10). ${CATALOGUE_READ} ${AGE_HEADER}`,
  })
  @AnswersJsonText()
  async search(@Query() query: SearchQueryDto, @Res({ passthrough: true }) res: unknown) {
    return this.age.send(res, await this.assets.search(query));
  }

  @Get('trending-gainers')
  @PublicEndpoint('markets.trending-gainers', 'Largest 24 h gainers')
  @ApiEnvelope(AssetDto, {
    page: 'offset',
    headers: AGE_RESPONSE_HEADER,
    description:
      `Largest change24h first, among assets with at least ${GAINERS_MIN_VOLUME_USD} USD of 24 h volume (FX pairs, which report no volume, ` +
      `are exempt), so a thin book cannot top the list. limit is 1-100 (default 20). ${CATALOGUE_READ} ${AGE_HEADER}`,
  })
  @AnswersJsonText()
  async gainers(@Query() query: GainersQueryDto, @Res({ passthrough: true }) res: unknown) {
    return this.age.send(res, await this.assets.gainers(query));
  }

  @Get('global-stats')
  @PublicEndpoint('markets.global-stats', 'Crypto market totals, our catalogue and Hyperliquid', { query: false })
  @ApiVendorFailures()
  @ApiEnvelope(GlobalStatsDto, {
    headers: AGE_RESPONSE_HEADER,
    description: `The contract shows nothing for this route; fields as documented here. Crypto totals: ${ON_DEMAND_READ} ${AGE_HEADER}`,
  })
  @AnswersJsonText()
  async stats(@Res({ passthrough: true }) res: unknown) {
    return this.age.send(res, await this.globalStats.get());
  }
}
