import { Injectable } from '@nestjs/common';
import { TtlCache } from '../../common/cache/ttl-cache';
import { AppError } from '../../common/errors/app-error';
import { ErrorCode } from '../../common/errors/error-code';
import { JsonText } from '../../common/http/json-text';
import { assertWithinOffsetCap, offsetOf } from '../../common/pagination/offset-cap';
import { toPage } from '../../common/pagination/page.dto';
import { quoteTimeOf, toAssetDto } from './asset-dto.mapper';
import { AssetPage, AssetRow } from './asset-row';
import { AssetType } from './asset-types';
import { AssetsRepository } from './assets.repository';
import { Aged, oldestOf } from './data-age';
import { SearchItemDto } from './dto/market-data.dto';
import { AssetsQueryDto, AssetTypeFilter, GainersQueryDto, SearchQueryDto } from './dto/markets.query.dto';

/** How long a replica answers a list or a symbol from its own memory: well inside the quote refresh cadence. */
const READ_TTL_MS = 5_000;
const READ_KEYS = 2_000;
/** Longest symbol that can name an asset (the catalogue's symbol and stock-code columns). */
const MAX_SYMBOL_LENGTH = 40;
/**
 * `/trending-gainers` leaves out assets with less 24 h volume than this (USD): below it a thin book moves
 * tens of percent on one trade. FX pairs are exempt (no volume is reported for them).
 */
export const GAINERS_MIN_VOLUME_USD = '1000000';

/**
 * The catalogue reads behind `/assets`, `/search`, `/trending-gainers` and symbol resolution: PostgreSQL,
 * kept by the refresh jobs, behind a per-replica cache of a few seconds. No upstream call on this path.
 */
@Injectable()
export class AssetsService {
  private readonly pages = new TtlCache<Aged<JsonText>>(READ_TTL_MS, READ_KEYS);
  private readonly symbols = new TtlCache<AssetRow | null>(READ_TTL_MS, READ_KEYS);
  private readonly categories = new TtlCache<string[]>(READ_TTL_MS, 10);

  constructor(private readonly repository: AssetsRepository) {}

  async list(query: AssetsQueryDto): Promise<Aged<JsonText>> {
    assertWithinOffsetCap(query.page, query.limit);
    await this.assertKnownCategory(query.category);
    const { type, market, category, sort, order, page, limit } = query;
    return this.pages.get(`list:${type}:${market}:${category}:${sort}:${order}:${page}:${limit}`, async () =>
      agedPage(await this.repository.listAssets({ type: classOf(type), market, category, sort, order, limit, offset: offsetOf(page, limit) }), page, limit),
    );
  }

  gainers(query: GainersQueryDto): Promise<Aged<JsonText>> {
    assertWithinOffsetCap(query.page, query.limit);
    const { type, page, limit } = query;
    return this.pages.get(`gainers:${type}:${page}:${limit}`, async () =>
      agedPage(
        await this.repository.topGainers({ type: classOf(type), minVolume24hUsd: GAINERS_MIN_VOLUME_USD, limit, offset: offsetOf(page, limit) }),
        page,
        limit,
      ),
    );
  }

  /** Search items name stocks by their stock code (`AAPL-US`), as the contract's search item does. */
  async search(query: SearchQueryDto): Promise<Aged<JsonText>> {
    assertWithinOffsetCap(query.page, query.limit);
    const { q, type, page, limit } = query;
    return this.pages.get(`search:${type}:${page}:${limit}:${q.trim().toLowerCase()}`, async () => {
      const { hits, total } = await this.repository.searchAssets({ q, type: classOf(type), limit, offset: offsetOf(page, limit) });
      const items: SearchItemDto[] = hits.map((hit) => ({ id: hit.id, symbol: hit.stockCode ?? hit.symbol, name: hit.name, type: hit.type }));
      return { data: JsonText.of(toPage({ items, page, limit, total })), asOf: oldestOf(...hits.map((hit) => hit.refreshedAt?.getTime())) };
    });
  }

  /**
   * A `category` filter must name a slug some listed asset (of `types`) carries: an unknown one is 400 naming
   * the field with the known slugs, as an unknown enum value is, not an empty page that is billed.
   */
  async assertKnownCategory(category: string | undefined, types?: readonly AssetType[]): Promise<void> {
    if (category === undefined) return;
    const known = await this.categories.get(types?.join(',') ?? '*', () => this.repository.listedCategories(types));
    if (known.includes(category)) return;
    throw AppError.validation('category', known.length ? `must be one of the following values: ${known.join(', ')}` : 'no asset lists a category yet');
  }

  /**
   * The asset a path symbol names (contract symbol rules; AssetsRepository.resolveSymbol), or 404
   * MARKET_ASSET_NOT_FOUND naming `field`; `types` narrows it (`/stock/COIN/...` is Coinbase, not the coin).
   */
  async resolve(symbol: string, types?: readonly AssetType[], field = 'symbol'): Promise<AssetRow> {
    const key = symbol.trim().toLowerCase();
    const cacheKey = types ? `${types.join(',')}:${key}` : key;
    const row =
      key.length === 0 || key.length > MAX_SYMBOL_LENGTH
        ? null
        : await this.symbols.get(cacheKey, async () => (await this.repository.resolveSymbol(key, types)) ?? null);
    if (row === null) throw new AppError(ErrorCode.MARKET_ASSET_NOT_FOUND, `${field}: no asset matches ${JSON.stringify(symbol.slice(0, 64))}`);
    return row;
  }
}

function classOf(type: AssetTypeFilter): AssetType | undefined {
  return type === 'ALL' ? undefined : type;
}

function agedPage({ rows, total }: AssetPage, page: number, limit: number): Aged<JsonText> {
  return { data: JsonText.of(toPage({ items: rows.map(toAssetDto), page, limit, total })), asOf: oldestOf(...rows.map(quoteTimeOf)) };
}
