import { Inject, Injectable, Logger, OnModuleDestroy, Optional } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { AppConfig } from '../../config/app.config';
import { KV_STORE, KvStore } from '../../infra/kv/kv-store';
import { RequestBudget } from '../kit/request-budget';
import { UpstreamCircuit } from '../kit/upstream-circuit';
import { UPSTREAM_CLOCK, UpstreamClock } from '../kit/upstream-clock';
import { UpstreamHttpClient } from '../kit/upstream-http.client';
import { Candle, GlobalMarketStats, MarketQuote } from '../market-data-provider';
import { parseCoinDetail } from './coingecko-coin.schema';
import { parseCoinsMarkets, parseGlobal, parseOhlc } from './coingecko-markets.schema';
import { COINGECKO_PROVIDER } from './coingecko-reader';
import { parseRwaDetail, parseRwasMarkets } from './coingecko-rwas.schema';
import { MAX_RWAS_PER_PAGE, RwaDetail, RwaMarketRow, RwasMarketsParams } from './coingecko-rwas.types';
import { parseCoinTickers, parseDerivatives } from './coingecko-tickers.schema';
import { CoinsMarketsParams, CryptoAssetDetail, DerivativeTicker, MAX_MARKETS_PER_PAGE, OHLC_DAYS, OhlcDays, SpotTicker } from './coingecko.types';

/** CoinGecko counts calls per minute, per key. */
export const COINGECKO_WINDOW_MS = 60_000;

type CoingeckoSettings = AppConfig['marketVendors']['coingecko'];
type Query = Record<string, string | number>;

/**
 * Typed client of the CoinGecko API v3, quoted in USD. Every call spends one from the calls-per-minute
 * budget all replicas share (the demo plan allows about 30 and answers 429 past it), is retried on 429, 5xx
 * and timeouts, and is shape-checked; it returns typed data or throws UpstreamError. The key goes in the
 * plan's header, never in the URL, so no log line carries it.
 */
@Injectable()
export class CoingeckoClient implements OnModuleDestroy {
  /** Exposed so tests and jobs can see what was spent; the pool itself lives in the KV store. */
  readonly budget: RequestBudget;
  private readonly http: UpstreamHttpClient;
  private readonly apiUrl: string;

  constructor(config: ConfigService<AppConfig, true>, @Inject(KV_STORE) kv: KvStore, @Optional() @Inject(UPSTREAM_CLOCK) now?: UpstreamClock) {
    const { coingecko, timeoutMs, maxRetries } = config.get('marketVendors', { infer: true });
    this.apiUrl = coingecko.apiUrl;
    this.budget = new RequestBudget({ kv, provider: COINGECKO_PROVIDER, weightPerWindow: coingecko.callsPerMinute, windowMs: COINGECKO_WINDOW_MS });
    this.http = new UpstreamHttpClient({
      provider: COINGECKO_PROVIDER,
      timeoutMs,
      maxRetries,
      budget: this.budget,
      headers: keyHeader(coingecko),
      circuit: new UpstreamCircuit({ provider: COINGECKO_PROVIDER, now }),
      logger: new Logger(CoingeckoClient.name),
    });
  }

  /** Calls waiting for budget or for CoinGecko give up at once, so jobs end promptly at shutdown. */
  onModuleDestroy(): void {
    this.http.close();
  }

  /** One page of the market-cap ranking with 1 h / 24 h / 7 d changes and the 7-day sparkline. */
  async coinsMarkets({ page, perPage, ids, signal }: CoinsMarketsParams): Promise<MarketQuote[]> {
    assertWhole('page', page, 1, Number.MAX_SAFE_INTEGER);
    assertWhole('perPage', perPage, 1, MAX_MARKETS_PER_PAGE);
    // CoinGecko pages an ids list too: more ids than perPage would silently lose the rest.
    if (ids && (ids.length === 0 || ids.length > perPage)) throw new RangeError(`ids: expected 1 to perPage (${perPage}) ids, got ${ids.length}`);
    const query: Query = {
      vs_currency: 'usd',
      order: 'market_cap_desc',
      per_page: perPage,
      page,
      sparkline: 'true',
      price_change_percentage: '1h,24h,7d',
      ...(ids ? { ids: ids.join(',') } : {}),
    };
    return this.get({ label: 'coins/markets', path: '/coins/markets', query, parse: parseCoinsMarkets, signal });
  }

  /** The coin's extended metadata: description, links, categories, supply, all-time high and low. */
  async coin(id: string, signal?: AbortSignal): Promise<CryptoAssetDetail> {
    const query: Query = { localization: 'false', tickers: 'false', community_data: 'false', developer_data: 'false' };
    return this.get({ label: 'coins/id', path: `/coins/${coinPath(id)}`, query, parse: parseCoinDetail, signal });
  }

  /** One page (100) of the coin's spot markets by volume, DEX pairs named by symbol. */
  async coinTickers(id: string, page = 1, signal?: AbortSignal): Promise<SpotTicker[]> {
    assertWhole('page', page, 1, Number.MAX_SAFE_INTEGER);
    const query: Query = { order: 'volume_desc', dex_pair_format: 'symbol', page };
    return this.get({ label: 'coins/tickers', path: `/coins/${coinPath(id)}/tickers`, query, parse: parseCoinTickers, signal });
  }

  /** Every unexpired perpetual and future across venues in one document: cache it and filter by indexId. */
  derivatives(signal?: AbortSignal): Promise<DerivativeTicker[]> {
    return this.get({ label: 'derivatives', path: '/derivatives', query: {}, parse: parseDerivatives, signal });
  }

  global(signal?: AbortSignal): Promise<GlobalMarketStats> {
    return this.get({ label: 'global', path: '/global', query: {}, parse: parseGlobal, signal });
  }

  /** Candles without volume, their body set by `days` (30 min, 4 h or 4 days): the fallback when no exchange lists the coin. */
  async ohlc(id: string, days: OhlcDays, signal?: AbortSignal): Promise<Candle[]> {
    if (!OHLC_DAYS.includes(days)) throw new RangeError(`days: expected one of ${OHLC_DAYS.join(', ')}, got ${days}`);
    return this.get({
      label: 'coins/ohlc',
      path: `/coins/${coinPath(id)}/ohlc`,
      query: { vs_currency: 'usd', days },
      parse: (json) => parseOhlc(json, days),
      signal,
    });
  }

  /**
   * One page of one asset type's tokenized real-world assets, largest tokenized market cap first, each with its
   * tokens' aggregate market in USD (the API takes no vs_currency). The rows name no tokens: see `rwa`.
   */
  async rwasMarkets({ assetType, page, perPage, signal }: RwasMarketsParams): Promise<RwaMarketRow[]> {
    assertWhole('page', page, 1, Number.MAX_SAFE_INTEGER);
    assertWhole('perPage', perPage, 1, MAX_RWAS_PER_PAGE);
    const query: Query = { asset_type: assetType, order: 'market_cap_desc', per_page: perPage, page, price_change_percentage: '24h' };
    return this.get({ label: 'rwas/markets', path: '/rwas/markets', query, parse: parseRwasMarkets, signal });
  }

  /** An RWA's metadata and the tokens tracking it, each a CoinGecko coin id; its market comes from `rwasMarkets`. */
  async rwa(id: string, signal?: AbortSignal): Promise<RwaDetail> {
    if (id.trim() === '') throw new RangeError('id: expected a CoinGecko RWA id');
    // Both default to false; the market data would repeat what rwasMarkets already carries.
    const query: Query = { tokens: 'true', tokenized_market_data: 'false' };
    return this.get({ label: 'rwas/id', path: `/rwas/${encodeURIComponent(id)}`, query, parse: parseRwaDetail, signal });
  }

  private get<T>({
    label,
    path,
    query,
    parse,
    signal,
  }: {
    label: string;
    path: string;
    query: Query;
    parse: (json: unknown) => T;
    signal?: AbortSignal;
  }): Promise<T> {
    const url = new URL(`${this.apiUrl}${path}`);
    for (const [key, value] of Object.entries(query)) url.searchParams.set(key, String(value));
    return this.http.request({ label, url: url.toString(), parse, signal });
  }
}

/** The plan's key header, only when a key is set: keyless calls still work, at the public rate. */
export function keyHeader({ plan, apiKey }: Pick<CoingeckoSettings, 'plan' | 'apiKey'>): Record<string, string> {
  if (!apiKey) return {};
  return plan === 'pro' ? { 'x-cg-pro-api-key': apiKey } : { 'x-cg-demo-api-key': apiKey };
}

function coinPath(id: string): string {
  if (id.trim() === '') throw new RangeError('id: expected a CoinGecko coin id');
  return encodeURIComponent(id);
}

function assertWhole(name: string, value: number, min: number, max: number): void {
  if (!Number.isInteger(value) || value < min || value > max) throw new RangeError(`${name}: expected an integer from ${min} to ${max}, got ${value}`);
}
