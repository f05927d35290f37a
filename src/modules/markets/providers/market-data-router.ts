import {
  AssetClassification,
  AssetProfile,
  AssetType,
  Candle,
  CandleInterval,
  CatalogueEntry,
  DisabledMarketDataProvider,
  GlobalMarketStats,
  ListQuotesParams,
  MarketDataProvider,
  MarketQuote,
  VenueTicker,
} from '../../../providers/market-data-provider';
import { CryptoAssetHints } from './coingecko-market-data';

const ASSET_TYPES: readonly AssetType[] = ['CRYPTO', 'STOCK', 'ETF', 'FOREX', 'COMMODITY'];

/** Every routed call names the asset type; crypto hints are passed through (other vendors ignore them). */
interface Routed {
  type: AssetType;
  signal?: AbortSignal;
}

/**
 * What the Markets module injects as MARKET_DATA_PROVIDER: each call goes to the vendor that answers its
 * asset type (the first of `vendors` listing it), or to the disabled stand-in, which rejects with
 * ProviderDisabledError (503 MARKET_DATA_DISABLED), when no configured vendor does. A vendor switched off
 * is its own disabled implementation, with no asset types, so its types fall through to the stand-in.
 */
export class MarketDataRouter {
  private readonly byType: ReadonlyMap<AssetType, MarketDataProvider>;
  private readonly disabled = new DisabledMarketDataProvider();

  constructor(vendors: readonly MarketDataProvider[]) {
    const byType = new Map<AssetType, MarketDataProvider>();
    for (const type of ASSET_TYPES) {
      const vendor = vendors.find((candidate) => candidate.assetTypes.includes(type));
      if (vendor) byType.set(type, vendor);
    }
    this.byType = byType;
  }

  /** The vendor answering `type`, for its name and `maxQuotesPerCall`; the disabled stand-in when none does. */
  vendorFor(type: AssetType): MarketDataProvider {
    return this.byType.get(type) ?? this.disabled;
  }

  getQuotes({ type, ...params }: Routed & { sourceIds: readonly string[] }): Promise<MarketQuote[]> {
    return this.vendorFor(type).getQuotes(params);
  }

  listQuotes(params: ListQuotesParams): Promise<MarketQuote[]> {
    return this.vendorFor(params.type).listQuotes(params);
  }

  getCandles({ type, ...params }: Routed & CryptoAssetHints & { sourceId: string; interval: CandleInterval; limit: number }): Promise<Candle[]> {
    return this.vendorFor(type).getCandles(params);
  }

  getTickers({ type, ...params }: Routed & CryptoAssetHints & { sourceId: string }): Promise<VenueTicker[]> {
    return this.vendorFor(type).getTickers(params);
  }

  getProfile({ type, ...params }: Routed & { sourceId: string }): Promise<AssetProfile> {
    return this.vendorFor(type).getProfile(params);
  }

  getClassification({ type, ...params }: Routed & { sourceId: string }): Promise<AssetClassification> {
    return this.vendorFor(type).getClassification(params);
  }

  /** The crypto market's totals: the vendor answering CRYPTO gives them. */
  getGlobalStats(params: { signal?: AbortSignal }): Promise<GlobalMarketStats> {
    return this.vendorFor('CRYPTO').getGlobalStats(params);
  }

  listCatalogue(params: Routed & { limit?: number }): Promise<CatalogueEntry[]> {
    return this.vendorFor(params.type).listCatalogue(params);
  }

  search(params: { query: string; type: AssetType; signal?: AbortSignal }): Promise<CatalogueEntry[]> {
    return this.vendorFor(params.type).search(params);
  }
}
