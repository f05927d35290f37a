import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { AppConfig } from '../../config/app.config';
import { AppError } from '../../common/errors/app-error';
import { ErrorCode } from '../../common/errors/error-code';
import { assertWithinOffsetCap, offsetOf } from '../../common/pagination/offset-cap';
import { Page, toPageFromProbe } from '../../common/pagination/page.dto';
import { TtlCache } from '../../common/cache/ttl-cache';
import { JsonText } from '../../common/http/json-text';
import { NewsLocale } from '../../providers/analysis-provider';
import { AssetsService } from '../markets/assets.service';
import { NewsItemDto } from './dto/news-item.dto';
import { NewsCategory, NewsDetailQueryDto, NewsFeedQueryDto, NewsSearchQueryDto } from './dto/news.query.dto';
import { groupExtras, ItemExtras, toNewsItemDto } from './news-dto.mapper';
import { NewsItemRow } from './news-rows';
import { NewsFilter, NewsRepository } from './news.repository';

const DAY_MS = 86_400_000;
/** Pages a replica keeps (NEWS_PAGE_CACHE_MS each), the least recently stored forgotten first. */
export const NEWS_PAGES_KEPT = 2_000;
const HOT_WINDOWS_MS: Record<NewsCategory, number | null> = { all: null, 'hot-24h': DAY_MS, 'hot-7d': 7 * DAY_MS };

/**
 * `/news`, `/news/search` and `/news/{id}`: read from PostgreSQL, which the ingestion and analysis jobs keep;
 * no upstream is called on this path. Pages carry `total` null and find `hasMore` with one extra row.
 */
@Injectable()
export class NewsService {
  /**
   * Pages are the same for every caller and the jobs add items about once a minute, so a few seconds of
   * memory cost nothing in freshness and spare reading and serialising up to 100 items per request.
   */
  private readonly pages: TtlCache<JsonText>;

  constructor(
    private readonly repository: NewsRepository,
    private readonly assets: AssetsService,
    config: ConfigService<AppConfig, true>,
  ) {
    this.pages = new TtlCache<JsonText>(config.get('news.pageCacheMs', { infer: true }), NEWS_PAGES_KEPT);
  }

  feed(query: NewsFeedQueryDto): Promise<JsonText> {
    assertWithinOffsetCap(query.page, query.limit);
    const { type, category, locale, assetSymbol, page, limit } = query;
    return this.pages.get(`feed:${type}:${category}:${locale}:${symbolKey(assetSymbol)}:${page}:${limit}`, async () => {
      const filter = await this.filterOf(query);
      return JsonText.of(await this.page(await this.repository.feed(filter, windowOf(query)), query));
    });
  }

  search(query: NewsSearchQueryDto): Promise<JsonText> {
    assertWithinOffsetCap(query.page, query.limit);
    const { q, sort, type, category, locale, page, limit } = query;
    return this.pages.get(`search:${sort}:${type}:${category}:${locale}:${page}:${limit}:${q}`, async () => {
      const filter = await this.filterOf(query);
      return JsonText.of(await this.page(await this.repository.search(q, sort, filter, windowOf(query)), query));
    });
  }

  async detail(id: number, { locale, assetSymbol }: NewsDetailQueryDto): Promise<NewsItemDto> {
    const scope = assetSymbol === undefined ? undefined : await this.assets.resolve(assetSymbol, undefined, 'assetSymbol');
    const row = await this.repository.byId(id);
    if (row === null) throw new AppError(ErrorCode.NOT_FOUND, `id: no news item ${id}`);
    const extras = await this.extrasOf([row], locale);
    const item = toNewsItemDto(row, extras, locale);
    if (scope === undefined) return item;
    const linked = item.assets.find((asset) => asset.id === scope.id);
    if (!linked) throw new AppError(ErrorCode.NOT_FOUND, `assetSymbol: news item ${id} is not linked to ${scope.symbol}`);
    // Scoped to one asset: it alone is listed and named as affected.
    return { ...item, assets: [linked], analysis: item.analysis && { ...item.analysis, affectedAssets: `${linked.symbol} (${linked.name})` } };
  }

  async extrasOf(rows: readonly NewsItemRow[], locale: NewsLocale): Promise<ItemExtras> {
    const ids = rows.map((row) => row.id);
    const [assets, analyses] = await Promise.all([this.repository.assetsOf(ids), this.repository.analysesOf(ids, locale === 'en' ? ['en'] : [locale, 'en'])]);
    return groupExtras(assets, analyses);
  }

  private async page(rows: NewsItemRow[], { page, limit, locale }: { page: number; limit: number; locale: NewsLocale }): Promise<Page<NewsItemDto>> {
    const probe = toPageFromProbe({ rows, page, limit });
    const extras = await this.extrasOf(probe.items, locale);
    return { ...probe, items: probe.items.map((row) => toNewsItemDto(row, extras, locale)) };
  }

  private async filterOf(query: { type: string; category: NewsCategory; assetSymbol?: string }): Promise<NewsFilter> {
    const hotWindow = HOT_WINDOWS_MS[query.category];
    const asset = query.assetSymbol === undefined ? undefined : await this.assets.resolve(query.assetSymbol, undefined, 'assetSymbol');
    return {
      assetId: asset?.id,
      type: query.type === 'ALL' ? undefined : (query.type as NewsFilter['type']),
      hotSince: hotWindow === null ? undefined : new Date(Date.now() - hotWindow),
    };
  }
}

function symbolKey(symbol: string | undefined): string {
  return symbol === undefined ? '' : symbol.trim().toLowerCase();
}

function windowOf({ page, limit }: { page: number; limit: number }) {
  return { take: limit + 1, offset: offsetOf(page, limit) };
}
