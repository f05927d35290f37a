import { Inject, Injectable, Logger } from '@nestjs/common';
import { TtlCache } from '../../common/cache/ttl-cache';
import { Decimal, toDecimalString } from '../../common/decimal/decimal';
import { JsonText } from '../../common/http/json-text';
import { assertWithinOffsetCap, offsetOf } from '../../common/pagination/offset-cap';
import { toPage } from '../../common/pagination/page.dto';
import { UpstreamCache, UpstreamCacheFactory } from '../../providers/kit/upstream-cache';
import { RWA_PROVIDER, RwaMarket, RwaProvider } from '../../providers/rwa-provider';
import { AssetCatalogueService } from '../markets/asset-catalogue.service';
import type { AssetRow } from '../markets/asset-row';
import { AssetsRepository, CoinFigures } from '../markets/assets.repository';
import { Aged } from '../markets/data-age';
import { ON_DEMAND_DEADLINE_MS } from '../markets/market-feeds.service';
import { RWA_ASSET_TYPE_CODES, RwaItemDto, RwaQueryDto, RwaSort } from './dto/rwa.dto';
import { numberOrNull } from '../markets/asset-types';
import { commodityMarketCap } from './commodity-supply';

const RWA_FRESH_MS = 60_000;
const ANSWER_TTL_MS = 5_000;
/** A listing whose last quote is older than this is not trading now. */
const TRADING_NOW_MS = 15 * 60_000;
/** Vendors name precious metals by their ISO code; our catalogue lists their futures. */
const UNDERLYING_ALIASES: ReadonlyMap<string, string> = new Map([
  ['XAU', 'GC'],
  ['XAG', 'SI'],
  ['XPT', 'PL'],
  ['XPD', 'PA'],
]);
const UNDERLYING_TYPES = ['STOCK', 'ETF', 'COMMODITY'] as const;
/** Classes whose vendor symbol is the ticker the RWA vendor names, so a missing underlier can be added by it. */
const ADDABLE_CLASSES: ReadonlySet<RwaMarket['assetType']> = new Set(['stock', 'etf']);
/** The item's figures and link: a row is served only with every one of them. */
const REQUIRED_FIELDS = [
  'rwaPrice',
  'avgTokenPrice',
  'changePct',
  'marketCap',
  'volume',
  'tokenMcap',
  'tokenVol',
  'linkedAssetId',
  'linkedAssetType',
  'linkedAssetSymbol',
] as const;
/** An item as built, before the rows missing a figure or a link are left out. */
type RwaRow = { [K in keyof RwaItemDto]: K extends (typeof REQUIRED_FIELDS)[number] ? RwaItemDto[K] | null : RwaItemDto[K] };
/** The class `type` filters by: the RWA's own, whether or not our catalogue lists the underlying. */
const RWA_CLASS_OF_CODE: Readonly<Record<number, string>> = {
  [RWA_ASSET_TYPE_CODES.stock]: 'STOCK',
  [RWA_ASSET_TYPE_CODES.etf]: 'ETF',
  [RWA_ASSET_TYPE_CODES.commodity]: 'COMMODITY',
};

/**
 * `/rwa`: tokenized real-world assets from the RWA vendor (through the kit's shared cache), each joined to its
 * underlying in our catalogue (price, market cap, volume, whether it trades now) and its tokens to our
 * crypto assets. A stock or ETF underlier the catalogue lacks is added to it (the equities vendor asked, its
 * quote stored); a row that still lacks a figure is left out, ranks counting the rows served. Sorted and
 * paged here: the vendor's list is a few hundred entries at most.
 */
@Injectable()
export class RwaService {
  private readonly logger = new Logger(RwaService.name);
  private readonly markets: UpstreamCache;
  private readonly items = new TtlCache<{ items: RwaItemDto[]; loadedAt: number }>(ANSWER_TTL_MS, 1);

  constructor(
    @Inject(RWA_PROVIDER) private readonly rwa: RwaProvider,
    private readonly catalogue: AssetsRepository,
    private readonly additions: AssetCatalogueService,
    caches: UpstreamCacheFactory,
  ) {
    this.markets = caches.create({ name: 'stocks.rwa', freshTtlMs: RWA_FRESH_MS });
  }

  async list({ type, sort, order, page, limit }: RwaQueryDto): Promise<Aged<JsonText>> {
    assertWithinOffsetCap(page, limit);
    const { items, loadedAt } = await this.items.get('all', () => this.loadItems());
    const matching = type === 'ALL' ? items : items.filter((item) => RWA_CLASS_OF_CODE[item.assetType] === type);
    const sorted = [...matching].sort(comparator(sort, order));
    const offset = offsetOf(page, limit);
    return { data: JsonText.of(toPage({ items: sorted.slice(offset, offset + limit), page, limit, total: sorted.length })), asOf: loadedAt };
  }

  private async loadItems(): Promise<{ items: RwaItemDto[]; loadedAt: number }> {
    const read = await this.markets.getAged(this.rwa.name, () => this.rwa.listRwaMarkets({ signal: AbortSignal.timeout(ON_DEMAND_DEADLINE_MS) }));
    const coins = await this.catalogue.coinsByCoingeckoId(read.value.flatMap((market) => market.tokens.map((token) => token.coinId)));
    const now = Date.now();
    const underlyings = await Promise.all(read.value.map((market) => this.underlying(market)));
    const built = read.value.map((market, i) => toRwaItem(market, underlyings[i], coins, read.loadedAt, now));
    const priced = built.filter(isPriced);
    if (priced.length < built.length) {
      const left = built.filter((item) => !isPriced(item)).map((item) => item.rwaId);
      this.logger.warn(`${left.length} RWA row(s) left out, not priced: ${left.join(', ')}`);
    }
    return { items: priced.map((item, i) => ({ ...item, rank: i + 1 })), loadedAt: read.loadedAt };
  }

  /** The catalogue's underlier, added first when the catalogue lacks a stock or ETF the vendor names. */
  private async underlying(market: RwaMarket): Promise<AssetRow | null> {
    const symbol = market.symbol.toUpperCase();
    const catalogueSymbol = UNDERLYING_ALIASES.get(symbol) ?? symbol;
    const listed = await this.catalogue.resolveSymbol(catalogueSymbol, UNDERLYING_TYPES);
    if (listed || !ADDABLE_CLASSES.has(market.assetType)) return listed ?? null;
    try {
      await this.additions.addAsset({ yahooSymbol: catalogueSymbol });
    } catch (err) {
      // Left out of this answer; the next load asks again.
      this.logger.warn(`RWA ${market.id}: underlier ${catalogueSymbol} could not be added to the catalogue: ${String(err)}`);
      return null;
    }
    return (await this.catalogue.resolveSymbol(catalogueSymbol, UNDERLYING_TYPES)) ?? null;
  }
}

/** Every figure and the link. */
function isPriced(row: RwaRow): row is RwaItemDto {
  return REQUIRED_FIELDS.every((field) => row[field] !== null);
}

/** A stock's or ETF's market cap from the catalogue; a commodity's from its price and the stock above ground. */
function marketCapOf(underlying: AssetRow | null): string | null {
  if (underlying?.type === 'COMMODITY') return commodityMarketCap(underlying.symbol, underlying.price ?? null);
  return underlying?.marketCap ?? null;
}

function toRwaItem(market: RwaMarket, underlying: AssetRow | null, coins: ReadonlyMap<string, CoinFigures>, loadedAt: number, now: number): RwaRow {
  const quotedAt = underlying?.sourceUpdatedAt ? new Date(underlying.sourceUpdatedAt).getTime() : null;
  const tokens = tokenFigures(market.tokens.map((token) => coins.get(token.coinId)));
  return {
    rwaId: market.id,
    rank: 0,
    symbol: market.symbol,
    name: market.name,
    slug: market.slug,
    assetType: RWA_ASSET_TYPE_CODES[market.assetType],
    rwaPrice: numberOrNull(underlying?.price ?? null),
    avgTokenPrice: numberOrNull(tokens?.averagePrice ?? market.tokenPrice),
    changePct: numberOrNull(market.tokenChange24h),
    marketCap: numberOrNull(marketCapOf(underlying)),
    volume: numberOrNull(underlying?.volume24h ?? null),
    tokenMcap: numberOrNull(tokens?.marketCap ?? market.tokenMarketCap),
    tokenVol: numberOrNull(tokens?.volume24h ?? market.tokenVolume24h),
    marketStatus: quotedAt !== null && now - quotedAt < TRADING_NOW_MS ? 'open' : 'closed',
    tokenList: market.tokens.map((token) => ({ name: token.name, cryptoId: coins.get(token.coinId)?.id ?? null, slug: token.coinId, symbol: token.symbol })),
    linkedAssetId: underlying?.id ?? null,
    linkedAssetType: underlying?.type ?? null,
    linkedAssetSymbol: underlying?.symbol ?? null,
    updatedAt: market.updatedAt ?? new Date(loadedAt).toISOString(),
  };
}

/**
 * The tokens' figures from our crypto catalogue: the price averaged by 24 h volume, market cap and volume
 * summed. Null unless every token is quoted there with a volume, so a partial sum never passes for the
 * whole (the vendor's combined figures stand in then).
 */
function tokenFigures(coins: Array<CoinFigures | undefined>): { averagePrice: string; marketCap: string | null; volume24h: string } | null {
  if (coins.length === 0 || coins.some((coin) => !coin || coin.price === null || coin.volume24h === null)) return null;
  const quoted = coins as Array<CoinFigures & { price: string; volume24h: string }>;
  const volume = quoted.reduce((sum, coin) => sum.plus(coin.volume24h), new Decimal(0));
  if (volume.isZero()) return null;
  const traded = quoted.reduce((sum, coin) => sum.plus(new Decimal(coin.price).times(coin.volume24h)), new Decimal(0));
  const marketCap = quoted.every((coin) => coin.marketCap !== null) ? quoted.reduce((sum, coin) => sum.plus(coin.marketCap!), new Decimal(0)) : null;
  return {
    averagePrice: toDecimalString(traded.div(volume).decimalPlaces(8)),
    marketCap: marketCap === null ? null : toDecimalString(marketCap),
    volume24h: toDecimalString(volume),
  };
}

/** Largest first for `desc` (rank 1 is the largest), nulls last either way, then by rank. */
function comparator(sort: RwaSort, order: 'asc' | 'desc'): (a: RwaItemDto, b: RwaItemDto) => number {
  const direction = order === 'desc' ? -1 : 1;
  return (a, b) => {
    if (sort === 'symbol') return direction * a.symbol.localeCompare(b.symbol) || a.rank - b.rank;
    if (sort === 'rank') return direction * (b.rank - a.rank);
    const x = a[sort];
    const y = b[sort];
    if (x === y) return a.rank - b.rank;
    if (x === null) return 1;
    if (y === null) return -1;
    return direction * (new Decimal(x).comparedTo(y) ?? 0) || a.rank - b.rank;
  };
}
