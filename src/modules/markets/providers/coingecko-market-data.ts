import { Injectable } from '@nestjs/common';
import { BinanceKlinesClient, BinanceUnknownSymbolError } from '../../../providers/binance/binance-klines.client';
import { CoingeckoClient } from '../../../providers/coingecko/coingecko.client';
import { CryptoAssetDetail, DerivativeTicker, MAX_MARKETS_PER_PAGE, SpotTicker } from '../../../providers/coingecko/coingecko.types';
import { UpstreamCache, UpstreamCacheFactory } from '../../../providers/kit/upstream-cache';
import {
  AssetClassification,
  AssetProfile,
  AssetType,
  Candle,
  CandleInterval,
  CatalogueEntry,
  GlobalMarketStats,
  ListQuotesParams,
  MarketDataProvider,
  MarketQuote,
} from '../../../providers/market-data-provider';
import { INTERVAL_MS, mergeCandles, pricesAgree } from './candle-math';
import { MarketDataUnsupportedError, refuseUnsupported } from './market-data-unsupported.error';
import { venueKindOf } from './venue-kind';

const VENDOR = 'coingecko';
/** The whole list is about 2,000 contracts and changes slowly; one load serves every coin's tickers. */
const DERIVATIVES_FRESH_MS = 3 * 60_000;
/** A coin's symbol and price, for callers that did not pass them: the price only checks a guessed Binance pair. */
const COIN_QUOTE_FRESH_MS = 60_000;
/** The crypto universe's default size (top coins by market cap). */
const DEFAULT_CATALOGUE_SIZE = 1_000;
/** A guessed `<SYMBOL>USDT` pair whose last close is further than this from CoinGecko's price is another coin. */
const GUESSED_PAIR_TOLERANCE = 0.05;
/** Venues' own names for an index whose asset is a coin we list (BitMEX calls bitcoin XBT). */
const INDEX_ALIASES: ReadonlyMap<string, string> = new Map([['XBT', 'BTC']]);

/**
 * What our catalogue knows of a coin, passed along so the adapter need not ask CoinGecko: `symbol` ('BTC')
 * filters the derivatives list; `binancePair` is the coin's Binance pair ('BTCUSDT'), or null when it has
 * none. Absent, `<SYMBOL>USDT` is tried, checked against `price` (looked up when not given).
 */
export interface CryptoAssetHints {
  symbol?: string;
  binancePair?: string | null;
  /** The coin's latest USD price, to check a guessed Binance pair without asking CoinGecko. */
  price?: string | null;
}

export interface CryptoCandlesParams extends CryptoAssetHints {
  sourceId: string;
  interval: CandleInterval;
  limit: number;
  signal?: AbortSignal;
}

export type CryptoVenueTicker = SpotTicker | DerivativeTicker;

/**
 * Crypto market data from CoinGecko, with Binance klines for candles with a real per-bar volume. Candles
 * come from Binance when the coin has a pair there, else from CoinGecko's ohlc merged into hours or days
 * (no volume; at most 24 hourly and 30 daily bars, what its public plan's granularity allows).
 */
@Injectable()
export class CoingeckoMarketData implements MarketDataProvider {
  readonly name = VENDOR;
  readonly assetTypes: readonly AssetType[] = ['CRYPTO'];
  readonly maxQuotesPerCall = MAX_MARKETS_PER_PAGE;
  private readonly derivativesCache: UpstreamCache;
  private readonly coinQuoteCache: UpstreamCache;

  constructor(
    private readonly coingecko: CoingeckoClient,
    private readonly binance: BinanceKlinesClient,
    caches: UpstreamCacheFactory,
  ) {
    this.derivativesCache = caches.create({ name: 'coingecko.derivatives', freshTtlMs: DERIVATIVES_FRESH_MS });
    this.coinQuoteCache = caches.create({ name: 'coingecko.coin-quote', freshTtlMs: COIN_QUOTE_FRESH_MS });
  }

  /** Ranked by market cap within each chunk of 250 ids; ids CoinGecko does not know are absent. */
  async getQuotes({ sourceIds, signal }: { sourceIds: readonly string[]; signal?: AbortSignal }): Promise<MarketQuote[]> {
    const quotes: MarketQuote[] = [];
    // One chunk at a time: the CoinGecko budget is per minute, and parallel chunks would only queue on it.
    for (let start = 0; start < sourceIds.length; start += MAX_MARKETS_PER_PAGE) {
      const ids = sourceIds.slice(start, start + MAX_MARKETS_PER_PAGE);
      quotes.push(...(await this.coingecko.coinsMarkets({ page: 1, perPage: ids.length, ids, signal })));
    }
    return quotes;
  }

  async listQuotes({ type, page, perPage, signal }: ListQuotesParams): Promise<MarketQuote[]> {
    this.assertCrypto(type, 'listQuotes');
    return this.coingecko.coinsMarkets({ page, perPage, signal });
  }

  /** The top `limit` coins by market cap (default 1,000), in pages of 250. */
  async listCatalogue({ type, limit = DEFAULT_CATALOGUE_SIZE, signal }: { type: AssetType; limit?: number; signal?: AbortSignal }): Promise<CatalogueEntry[]> {
    this.assertCrypto(type, 'listCatalogue');
    const entries: CatalogueEntry[] = [];
    for (let page = 1; entries.length < limit; page += 1) {
      const perPage = Math.min(MAX_MARKETS_PER_PAGE, limit);
      const quotes = await this.coingecko.coinsMarkets({ page, perPage, signal });
      entries.push(...quotes.map(({ sourceId, symbol, name, type: assetType, market }) => ({ sourceId, symbol, name, type: assetType, market })));
      if (quotes.length < perPage) break;
    }
    return entries.slice(0, limit);
  }

  async getCandles(params: CryptoCandlesParams): Promise<Candle[]> {
    const { sourceId, interval, limit, signal } = params;
    const pair = await this.binancePairOf(params);
    if (pair) {
      try {
        const candles = await this.binance.klines({ symbol: pair.symbol, interval: interval === 'H1' ? '1h' : '1d', limit, signal });
        if (!pair.guessedFor || candles.length === 0 || pricesAgree(candles[candles.length - 1].close, pair.guessedFor, GUESSED_PAIR_TOLERANCE)) return candles;
        // A same-ticker pair priced elsewhere is another coin's market: CoinGecko's own candles are right.
      } catch (err) {
        if (!(err instanceof BinanceUnknownSymbolError)) throw err;
      }
    }
    return this.coingeckoCandles({ sourceId, interval, limit, signal });
  }

  /** Spot markets (the 100 largest by volume) then every perpetual and future on the coin's index, each told CEX or DEX. */
  async getTickers({ sourceId, symbol, signal }: { sourceId: string; signal?: AbortSignal } & CryptoAssetHints): Promise<CryptoVenueTicker[]> {
    const [spot, derivatives, coinSymbol] = await Promise.all([
      this.coingecko.coinTickers(sourceId, 1, signal),
      this.derivativesCache.get('all', () => this.coingecko.derivatives(signal)),
      symbol !== undefined ? Promise.resolve(symbol) : this.coinQuote(sourceId, signal).then((quote) => quote?.symbol),
    ]);
    const wanted = coinSymbol?.toUpperCase();
    const tickers = [...spot, ...derivatives.filter((ticker) => wanted !== undefined && assetOfIndex(ticker.indexId) === wanted)];
    return tickers.map((ticker) => ({ ...ticker, venueKind: ticker.venueKind ?? venueKindOf(ticker.venue, 'venueId' in ticker ? ticker.venueId : null) }));
  }

  async getProfile({ sourceId, signal }: { sourceId: string; signal?: AbortSignal }): Promise<AssetProfile> {
    return toAssetProfile(await this.coingecko.coin(sourceId, signal));
  }

  /** A coin has no sector or industry. */
  getClassification(): Promise<AssetClassification> {
    return refuseUnsupported(VENDOR, 'sector and industry');
  }

  getGlobalStats({ signal }: { signal?: AbortSignal }): Promise<GlobalMarketStats> {
    return this.coingecko.global(signal);
  }

  /** Search reads our catalogue in PostgreSQL; CoinGecko's /search is not used. */
  search(): Promise<CatalogueEntry[]> {
    return refuseUnsupported(VENDOR, 'search');
  }

  private async coingeckoCandles({ sourceId, interval, limit, signal }: Omit<CryptoCandlesParams, keyof CryptoAssetHints>): Promise<Candle[]> {
    // 30 min bars for one day and 4 h bars for 30 days are the finest the public plan serves.
    const finer = await this.coingecko.ohlc(sourceId, interval === 'H1' ? 1 : 30, signal);
    return mergeCandles(finer, INTERVAL_MS[interval]).slice(-limit);
  }

  /** The pair to ask Binance for; `guessedFor` is CoinGecko's price when the pair is only a guess from the symbol. */
  private async binancePairOf(params: CryptoCandlesParams): Promise<{ symbol: string; guessedFor?: string } | null> {
    if (params.binancePair !== undefined) return params.binancePair === null ? null : { symbol: params.binancePair };
    if (params.symbol && params.price) return { symbol: `${params.symbol.toUpperCase()}USDT`, guessedFor: params.price };
    const quote = await this.coinQuote(params.sourceId, params.signal);
    const symbol = params.symbol ?? quote?.symbol;
    if (!symbol) return null;
    return { symbol: `${symbol.toUpperCase()}USDT`, guessedFor: quote?.price ?? undefined };
  }

  private coinQuote(sourceId: string, signal?: AbortSignal): Promise<MarketQuote | undefined> {
    return this.coinQuoteCache.get(sourceId, async () => (await this.coingecko.coinsMarkets({ page: 1, perPage: 1, ids: [sourceId], signal }))[0]);
  }

  private assertCrypto(type: AssetType, operation: string): void {
    if (type !== 'CRYPTO') throw new MarketDataUnsupportedError(VENDOR, `${operation} for ${type}`);
  }
}

/** A coin's CoinGecko detail as an asset profile: links keyed by kind, single links as one-element lists. */
export function toAssetProfile(coin: CryptoAssetDetail): AssetProfile {
  const { homepage, whitepaper, blockchainExplorers, forums, chats, announcements, twitterHandle, subreddit, sourceRepositories } = coin.links;
  const links: Record<string, string[]> = {
    homepage,
    whitepaper: whitepaper ? [whitepaper] : [],
    blockchainExplorers,
    forums,
    chats,
    announcements,
    twitter: twitterHandle ? [`https://twitter.com/${twitterHandle}`] : [],
    subreddit: subreddit ? [subreddit] : [],
    sourceRepositories,
  };
  return {
    description: coin.description,
    categories: coin.categories,
    links: Object.fromEntries(Object.entries(links).filter(([, urls]) => urls.length > 0)),
    imageUrl: coin.imageUrl,
    genesisDate: coin.genesisDate,
    hashingAlgorithm: coin.hashingAlgorithm,
    contracts: coin.contracts,
    circulatingSupply: coin.circulatingSupply,
    totalSupply: coin.totalSupply,
    maxSupply: coin.maxSupply,
    fullyDilutedValuation: coin.fullyDilutedValuation,
    allTimeHigh: coin.allTimeHigh,
    allTimeLow: coin.allTimeLow,
    exchange: null,
    currency: 'USD',
    marketState: null,
    updatedAt: coin.updatedAt,
  };
}

/** The coin symbol a derivatives index tracks ('XBT' → 'BTC'); venue-specific indices ('BXBT') match nothing. */
export function assetOfIndex(indexId: string): string {
  const upper = indexId.toUpperCase();
  return INDEX_ALIASES.get(upper) ?? upper;
}
