import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { assertWithinOffsetCap, offsetOf } from '../../common/pagination/offset-cap';
import { toPageFromProbe } from '../../common/pagination/page.dto';
import { AppConfig } from '../../config/app.config';
import { TtlCache } from '../../common/cache/ttl-cache';
import { JsonText } from '../../common/http/json-text';
import { AssetsService } from '../markets/assets.service';
import { StockNewsQueryDto } from './dto/news.query.dto';
import { StockNewsDto, StockNewsSourceDto } from './dto/stock-news.dto';
import { toStockNewsItemDto } from './news-dto.mapper';
import { StockFeedState } from './news-rows';
import { NewsRepository } from './news.repository';
import { NEWS_PAGES_KEPT, NewsService } from './news.service';

/** `/stock/{symbol}/news` (contract 2.4): the stock's linked items from our store, with its headline feed's state. */
@Injectable()
export class StockNewsService {
  private readonly settings: AppConfig['news'];
  /** A few seconds per replica, as the feed's pages (NewsService). */
  private readonly pages: TtlCache<JsonText>;

  constructor(
    private readonly assets: AssetsService,
    private readonly repository: NewsRepository,
    private readonly news: NewsService,
    config: ConfigService<AppConfig, true>,
  ) {
    this.settings = config.get('news', { infer: true });
    this.pages = new TtlCache<JsonText>(this.settings.pageCacheMs, NEWS_PAGES_KEPT);
  }

  list(symbol: string, { page, limit }: StockNewsQueryDto): Promise<JsonText> {
    assertWithinOffsetCap(page, limit);
    return this.pages.get(`${symbol.trim().toLowerCase()}:${page}:${limit}`, async () => JsonText.of(await this.read(symbol, page, limit)));
  }

  private async read(symbol: string, page: number, limit: number): Promise<StockNewsDto> {
    const stock = await this.assets.resolve(symbol, ['STOCK']);
    const [rows, feed] = await Promise.all([
      this.repository.feed({ assetId: stock.id }, { take: limit + 1, offset: offsetOf(page, limit) }),
      this.repository.stockFeedOf(stock.id),
    ]);
    const probe = toPageFromProbe({ rows, page, limit });
    const extras = await this.news.extrasOf(probe.items, 'en');
    return {
      asset: { id: stock.id, symbol: stock.symbol, stockCode: stock.stockCode ?? stock.symbol, name: stock.name, market: stock.market ?? '' },
      source: this.sourceOf(feed),
      items: probe.items.map((row) => toStockNewsItemDto(row, extras)),
      page,
      limit,
      hasMore: probe.hasMore,
      errors: feed?.lastError ? [{ section: 'news', endpoint: 'headline-feed', message: "the last read of this stock's feed failed; items may be stale" }] : [],
    };
  }

  private sourceOf(feed: StockFeedState | null): StockNewsSourceDto {
    const lastSuccessAt = feed?.lastSuccessAt ?? null;
    const fresh = lastSuccessAt !== null && Date.now() - lastSuccessAt.getTime() <= this.settings.stockFreshMs;
    return {
      provider: feed?.source ?? this.settings.stockFeedSource,
      readSource: 'db',
      freshness: fresh ? 'fresh' : 'stale',
      sourceSymbol: feed?.sourceSymbol ?? null,
      lastSuccessAt: feed?.lastSuccessAt?.toISOString() ?? null,
      lastBackfilledTo: feed?.oldestItemAt?.toISOString() ?? null,
    };
  }
}
