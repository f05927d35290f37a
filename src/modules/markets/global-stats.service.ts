import { Inject, Injectable } from '@nestjs/common';
import { TtlCache } from '../../common/cache/ttl-cache';
import { JsonText } from '../../common/http/json-text';
import { UpstreamCache, UpstreamCacheFactory } from '../../providers/kit/upstream-cache';
import { MARKET_DATA_PROVIDER } from '../../providers/market-data-provider';
import { HlVenueService } from '../hl/hl-venue.service';
import { ASSET_TYPES } from './asset-types';
import { AssetsRepository } from './assets.repository';
import { Aged, oldestOf } from './data-age';
import { ActiveAssetsDto, GlobalStatsDto } from './dto/market-data.dto';
import { ON_DEMAND_DEADLINE_MS } from './market-feeds.service';
import { MarketDataRouter } from './providers/market-data-router';

const TOTALS_FRESH_MS = 60_000;
const ANSWER_TTL_MS = 5_000;

/**
 * `/global-stats` (the contract shows nothing; our design, docs/decisions.md): the crypto market's totals from
 * the crypto vendor, our catalogue's listed assets per class, and Hyperliquid's open interest and volume
 * from our own market table.
 */
@Injectable()
export class GlobalStatsService {
  private readonly totals: UpstreamCache;
  private readonly answer = new TtlCache<Aged<JsonText>>(ANSWER_TTL_MS, 1);

  constructor(
    private readonly assets: AssetsRepository,
    @Inject(MARKET_DATA_PROVIDER) private readonly vendors: MarketDataRouter,
    private readonly hyperliquid: HlVenueService,
    caches: UpstreamCacheFactory,
  ) {
    this.totals = caches.create({ name: 'markets.global', freshTtlMs: TOTALS_FRESH_MS });
  }

  get(): Promise<Aged<JsonText>> {
    return this.answer.get('global', async () => {
      const vendor = this.vendors.vendorFor('CRYPTO').name;
      const [crypto, counts, hl] = await Promise.all([
        this.totals.getAged(vendor, () => this.vendors.getGlobalStats({ signal: AbortSignal.timeout(ON_DEMAND_DEADLINE_MS) })),
        this.assets.countListedByType(),
        this.hyperliquid.totals(),
      ]);
      const activeAssets = Object.fromEntries(ASSET_TYPES.map((type) => [type, counts[type] ?? 0])) as Omit<ActiveAssetsDto, 'total'>;
      const stats = crypto.value;
      const body: GlobalStatsDto = {
        totalMarketCapUsd: stats.totalMarketCapUsd,
        totalVolume24hUsd: stats.totalVolume24hUsd,
        marketCapChange24h: stats.marketCapChange24h,
        btcDominance: stats.btcDominance,
        ethDominance: stats.ethDominance,
        activeCryptocurrencies: stats.activeCryptocurrencies,
        activeAssets: { ...activeAssets, total: ASSET_TYPES.reduce((sum, type) => sum + activeAssets[type], 0) },
        hyperliquid: { ...hl, updatedAt: hl.updatedAt?.toISOString() ?? null },
        updatedAt: stats.updatedAt ?? new Date(crypto.loadedAt).toISOString(),
      };
      return { data: JsonText.of(body), asOf: oldestOf(crypto.loadedAt, hl.updatedAt?.getTime()) };
    });
  }
}
