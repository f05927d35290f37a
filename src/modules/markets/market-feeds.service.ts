import { Inject, Injectable } from '@nestjs/common';
import { TtlCache } from '../../common/cache/ttl-cache';
import { Decimal } from '../../common/decimal/decimal';
import { JsonText } from '../../common/http/json-text';
import { assertWithinOffsetCap, offsetOf } from '../../common/pagination/offset-cap';
import { toPage } from '../../common/pagination/page.dto';
import { UpstreamCache, UpstreamCacheFactory } from '../../providers/kit/upstream-cache';
import { AssetProfile, Candle, CandleInterval, MARKET_DATA_PROVIDER, VenueTicker } from '../../providers/market-data-provider';
import { HlVenueService, HYPERLIQUID_VENUE } from '../hl/hl-venue.service';
import { quoteTimeOf, toAssetDto } from './asset-dto.mapper';
import { AssetRow } from './asset-row';
import { COUNTRY_OF_MARKET } from './asset-types';
import { AssetsService } from './assets.service';
import { Aged, oldestOf } from './data-age';
import { AssetDetailDto } from './dto/asset.dto';
import { KlineDto, TickerDto } from './dto/market-data.dto';
import { KlinesQueryDto, TickersQueryDto } from './dto/markets.query.dto';
import { MarketDataRouter } from './providers/market-data-router';
import { venueKindOf } from './providers/venue-kind';

/** Contract 8.8: market data is cached for about 30 to 60 s; stale values stand in for an hour of outage (the kit's default). */
const PROFILE_FRESH_MS = 60_000;
const CANDLES_FRESH_MS = 30_000;
const TICKERS_FRESH_MS = 60_000;
/** Candles are fetched once per asset and interval at the largest limit, and sliced per request. */
const MAX_KLINES = 500;
/**
 * Longest an on-demand vendor read may take, budget waits and retries included: a client is waiting. Past it
 * the read fails as an upstream failure, so the cache serves its last value (or the client gets 502).
 */
export const ON_DEMAND_DEADLINE_MS = 8_000;
/** A replica reuses an assembled answer this long (it is already shared through the KV store). */
const ANSWER_TTL_MS = 2_000;
const ANSWER_KEYS = 2_000;

/**
 * The on-demand Markets reads: an asset's extended metadata, its candles and its venue tickers. Each goes
 * to the vendor through the kit's shared cache (fresh 30-60 s; during an outage the last value up to an hour
 * old, then 502); a disabled vendor is 503. Hyperliquid's own markets come from our tables.
 */
@Injectable()
export class MarketFeedsService {
  private readonly profiles: UpstreamCache;
  private readonly candles: UpstreamCache;
  private readonly tickers: UpstreamCache;
  private readonly answers = new TtlCache<Aged<JsonText>>(ANSWER_TTL_MS, ANSWER_KEYS);

  constructor(
    private readonly assets: AssetsService,
    @Inject(MARKET_DATA_PROVIDER) private readonly vendors: MarketDataRouter,
    private readonly hyperliquid: HlVenueService,
    caches: UpstreamCacheFactory,
  ) {
    this.profiles = caches.create({ name: 'markets.profile', freshTtlMs: PROFILE_FRESH_MS });
    this.candles = caches.create({ name: 'markets.candles', freshTtlMs: CANDLES_FRESH_MS });
    this.tickers = caches.create({ name: 'markets.tickers', freshTtlMs: TICKERS_FRESH_MS });
  }

  async detail(symbol: string): Promise<Aged<JsonText>> {
    const row = await this.assets.resolve(symbol);
    return this.answers.get(`detail:${row.id}`, async () => {
      const profile = await this.profiles.getAged(this.vendorKey(row), () =>
        this.vendors.getProfile({ type: row.type, sourceId: sourceIdOf(row), signal: AbortSignal.timeout(ON_DEMAND_DEADLINE_MS) }),
      );
      return { data: JsonText.of(toDetail(row, profile.value)), asOf: oldestOf(quoteTimeOf(row), profile.loadedAt) };
    });
  }

  /** The last `limit` bars, ascending by openTime. */
  async klines(symbol: string, { interval, limit }: KlinesQueryDto): Promise<Aged<JsonText>> {
    const row = await this.assets.resolve(symbol);
    return this.answers.get(`klines:${row.id}:${interval}:${limit}`, async () => {
      const { value, loadedAt } = await this.candles.getAged(`${this.vendorKey(row)}:${interval}`, () => this.loadCandles(row, interval));
      const klines: KlineDto[] = value.slice(-limit).map((candle) => ({ assetId: row.id, interval, ...candle }));
      return { data: JsonText.of(klines), asOf: loadedAt };
    });
  }

  /** Vendor markets and Hyperliquid's, filtered, by 24 h volume (largest first, unknown last), then venue and pair. */
  async venueTickers(symbol: string, query: TickersQueryDto): Promise<Aged<JsonText>> {
    assertWithinOffsetCap(query.page, query.limit);
    const row = await this.assets.resolve(symbol);
    const { venue, marketType, page, limit } = query;
    return this.answers.get(`tickers:${row.id}:${venue}:${marketType}:${page}:${limit}`, async () => {
      const [vendor, own] = await Promise.all([
        this.tickers.getAged(this.vendorKey(row), () =>
          this.vendors.getTickers({
            type: row.type,
            sourceId: sourceIdOf(row),
            symbol: row.symbol,
            binancePair: row.binancePair ?? undefined,
            signal: AbortSignal.timeout(ON_DEMAND_DEADLINE_MS),
          }),
        ),
        row.type === 'FOREX' ? Promise.resolve([]) : this.hyperliquid.tickersOf(row.symbol, row.type === 'CRYPTO' ? 'crypto' : 'listed'),
      ]);
      const all: TickerDto[] = [
        ...vendor.value.filter((t) => !isHyperliquid(t)).map(toTickerDto),
        ...own.map((t) => ({ pair: t.pair, venue: HYPERLIQUID_VENUE, venueKind: 'dex', marketType: t.marketType, price: t.price, volume24h: t.volume24h })),
      ];
      const matching = all.filter((t) => (venue === 'all' || t.venueKind === venue) && (marketType === 'all' || t.marketType === marketType)).sort(byVolume);
      const offset = offsetOf(page, limit);
      const asOf = oldestOf(vendor.loadedAt, ...own.map((t) => t.updatedAt.getTime()));
      return { data: JsonText.of(toPage({ items: matching.slice(offset, offset + limit), page, limit, total: matching.length })), asOf };
    });
  }

  private loadCandles(row: AssetRow, interval: CandleInterval): Promise<Candle[]> {
    const hints = { symbol: row.symbol, binancePair: row.binancePair ?? undefined, price: row.price };
    return this.vendors.getCandles({
      type: row.type,
      sourceId: sourceIdOf(row),
      interval,
      limit: MAX_KLINES,
      ...hints,
      signal: AbortSignal.timeout(ON_DEMAND_DEADLINE_MS),
    });
  }

  /** Cache keys name the vendor, so switching vendors never serves another vendor's data. */
  private vendorKey(row: AssetRow): string {
    return `${this.vendors.vendorFor(row.type).name}:${sourceIdOf(row)}`;
  }
}

function sourceIdOf(row: AssetRow): string {
  return row.type === 'CRYPTO' ? row.coingeckoId! : row.yahooSymbol!;
}

function isHyperliquid(ticker: VenueTicker): boolean {
  // We serve Hyperliquid's markets from our own tables; the vendor's copy would count them twice.
  return ticker.venue.toLowerCase().includes('hyperliquid');
}

function toTickerDto(t: VenueTicker): TickerDto {
  return { pair: t.pair, venue: t.venue, venueKind: t.venueKind ?? venueKindOf(t.venue), marketType: t.marketType, price: t.price, volume24h: t.volume24h };
}

function byVolume(a: TickerDto, b: TickerDto): number {
  if (a.volume24h !== b.volume24h) {
    if (a.volume24h === null) return 1;
    if (b.volume24h === null) return -1;
    const diff = new Decimal(b.volume24h).comparedTo(a.volume24h) ?? 0;
    if (diff !== 0) return diff;
  }
  return a.venue.localeCompare(b.venue) || a.pair.localeCompare(b.pair);
}

function toDetail(row: AssetRow, profile: AssetProfile): AssetDetailDto {
  const listed = row.type !== 'CRYPTO';
  return {
    ...toAssetDto(row),
    description: profile.description,
    categories: [...new Set([...row.categories, ...profile.categories])],
    links: profile.links,
    imageUrl: profile.imageUrl,
    genesisDate: profile.genesisDate,
    hashingAlgorithm: profile.hashingAlgorithm,
    contracts: profile.contracts,
    marketCapRank: row.marketCapRank,
    circulatingSupply: profile.circulatingSupply,
    totalSupply: profile.totalSupply,
    maxSupply: profile.maxSupply,
    fullyDilutedValuation: profile.fullyDilutedValuation,
    allTimeHigh: profile.allTimeHigh,
    allTimeLow: profile.allTimeLow,
    exchange: listed ? profile.exchange : null,
    sector: row.sector,
    industry: row.industry,
    country: row.market === null ? null : (COUNTRY_OF_MARKET[row.market] ?? null),
    marketState: listed ? profile.marketState : null,
  };
}
