import { Get, Param, Query } from '@nestjs/common';
import { ApiParam } from '@nestjs/swagger';
import { ApiEnvelope, ApiErrorResponse } from '../../common/decorators/api-envelope.decorator';
import { ErrorCode } from '../../common/errors/error-code';
import { AnswersJsonText } from '../../common/http/json-text';
import { PublicApiController, PublicEndpoint } from '../access/public-endpoint.decorator';
import { ApiSymbolPath } from '../markets/markets-openapi';
import { STOCK_SYMBOL } from '../stocks/stocks-openapi';
import { NEWS_CONCEPTS } from './analysis/concepts';
import { NewsItemDto, PENDING_ANALYSIS } from './dto/news-item.dto';
import { NewsDetailQueryDto, NewsFeedQueryDto, NewsSearchQueryDto, StockNewsQueryDto } from './dto/news.query.dto';
import { StockNewsDto } from './dto/stock-news.dto';
import { NEWS_ID_MAX, parseNewsId } from './news-id';
import { NewsService } from './news.service';
import { StockNewsService } from './stock-news.service';

const FROM_STORE =
  'Read from our store (each replica keeps a page for 5 seconds), which the ingestion job fills from RSS and Atom feeds and the analysis job annotates off the request path; ' +
  '`total` is always null and `hasMore` says whether another page exists.';
const CONCEPTS = `concepts are drawn from: ${NEWS_CONCEPTS.join(', ')}.`;
const UNKNOWN_ASSET = 'assetSymbol names no asset (msg names `assetSymbol`)';

/** News (contract 4.4): the feed, full-text search and one item, with analysis in eight locales. */
@PublicApiController('news', 'News')
export class NewsController {
  constructor(private readonly news: NewsService) {}

  @Get()
  @PublicEndpoint('news.feed', 'AI-analysed news, newest first')
  @ApiEnvelope(NewsItemDto, { page: 'offset', description: `limit is 1-100 (default 100). ${FROM_STORE} ${CONCEPTS} ${PENDING_ANALYSIS}` })
  @ApiErrorResponse(404, [ErrorCode.MARKET_ASSET_NOT_FOUND], UNKNOWN_ASSET)
  @AnswersJsonText()
  feed(@Query() query: NewsFeedQueryDto) {
    return this.news.feed(query);
  }

  @Get('search')
  @PublicEndpoint('news.search', 'Full-text search of the news')
  @ApiEnvelope(NewsItemDto, { page: 'offset', description: `limit is 1-50 (default 20). ${FROM_STORE} ${PENDING_ANALYSIS}` })
  @AnswersJsonText()
  search(@Query() query: NewsSearchQueryDto) {
    return this.news.search(query);
  }

  @Get(':id')
  @PublicEndpoint('news.detail', 'One news item')
  @ApiParam({
    name: 'id',
    description: `The item id (an integer from 1 to ${NEWS_ID_MAX})`,
    schema: { type: 'integer', minimum: 1, maximum: NEWS_ID_MAX, example: 1 },
  })
  @ApiEnvelope(NewsItemDto, { description: `${PENDING_ANALYSIS}` })
  @ApiErrorResponse(404, [ErrorCode.NOT_FOUND, ErrorCode.MARKET_ASSET_NOT_FOUND], 'No such item, or it is not linked to assetSymbol; or ' + UNKNOWN_ASSET)
  detail(@Param('id') id: string, @Query() query: NewsDetailQueryDto) {
    return this.news.detail(parseNewsId(id), query);
  }
}

/** `/stock/{symbol}/news` (contract 4.3): a stock's news from the same store. */
@PublicApiController('stock', 'Stocks')
export class StockNewsController {
  constructor(private readonly stockNews: StockNewsService) {}

  @Get(':symbol/news')
  @PublicEndpoint('stocks.news', "A stock's news, newest first")
  @ApiSymbolPath(STOCK_SYMBOL)
  @ApiEnvelope(StockNewsDto, {
    description:
      "Items linked to the stock (from its own headline feed and from every outlet feed that names it), newest first; limit 1-100 (default 20). `source` tells when the stock's headline feed was last read successfully.",
  })
  @AnswersJsonText()
  list(@Param('symbol') symbol: string, @Query() query: StockNewsQueryDto) {
    return this.stockNews.list(symbol, query);
  }
}
