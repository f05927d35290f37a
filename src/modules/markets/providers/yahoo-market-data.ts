import { Injectable } from '@nestjs/common';
import {
  AssetClassification,
  AssetProfile,
  AssetType,
  Candle,
  CandleInterval,
  CatalogueEntry,
  GlobalMarketStats,
  MarketDataProvider,
  MarketQuote,
  VenueTicker,
} from '../../../providers/market-data-provider';
import { SparkSeries } from '../../../providers/yahoo/yahoo-chart.schema';
import { YAHOO_QUOTE_BATCH, YahooFinanceClient, YahooRange } from '../../../providers/yahoo/yahoo-finance.client';
import { toMarketQuote } from '../../../providers/yahoo/yahoo-quote.mapping';
import { percentChange } from './candle-math';
import { refuseUnsupported } from './market-data-unsupported.error';

const VENDOR = 'yahoo';
const HOUR_MS = 3_600_000;
/** A last hourly close older than this means the market is not trading: no change over the last hour to report. */
const TRADING_NOW_MS = 2 * HOUR_MS;
/**
 * Chart ranges, with the sessions each surely holds (holidays taken off). Hourly bars per session are at
 * least 5 (Tokyo's is the shortest of our markets), so a range is picked by sessions × bars per session.
 */
const RANGE_SESSIONS: readonly (readonly [YahooRange, number])[] = [
  ['5d', 5],
  ['1mo', 19],
  ['3mo', 58],
  ['6mo', 118],
  ['1y', 240],
  ['2y', 480],
  ['5y', 1_200],
];
const MIN_HOURLY_BARS_PER_SESSION = 5;
/** Yahoo's suffix of a currency pair. */
const FX_SUFFIX = '=X';
/** Securities have none of the crypto profile's fields. */
const EMPTY_PROFILE: AssetProfile = {
  description: null,
  categories: [],
  links: {},
  imageUrl: null,
  genesisDate: null,
  hashingAlgorithm: null,
  contracts: {},
  circulatingSupply: null,
  totalSupply: null,
  maxSupply: null,
  fullyDilutedValuation: null,
  allTimeHigh: null,
  allTimeLow: null,
  exchange: null,
  currency: null,
  marketState: null,
  updatedAt: null,
};

/**
 * Stocks, ETFs, FX pairs and commodity futures from Yahoo Finance (no official API; its terms do not license
 * redistribution: one replaceable vendor). Quotes carry a sparkline of the last five sessions' hourly closes
 * (about a calendar week, a spark call per 20 symbols), change7d against the close before those sessions
 * and change1h from the last two hourly closes while the market trades (null when it does not). There are
 * no venue tickers for these types, and the catalogue is our seed list, so listQuotes, listCatalogue, search
 * and global stats are not offered.
 */
@Injectable()
export class YahooMarketData implements MarketDataProvider {
  readonly name = VENDOR;
  readonly assetTypes: readonly AssetType[] = ['STOCK', 'ETF', 'FOREX', 'COMMODITY'];
  readonly maxQuotesPerCall = YAHOO_QUOTE_BATCH;

  constructor(private readonly yahoo: YahooFinanceClient) {}

  /** Quotes of the types above; Yahoo symbols of other types (crypto, indices) and unknown symbols are absent. */
  async getQuotes({ sourceIds, signal }: { sourceIds: readonly string[]; signal?: AbortSignal }): Promise<MarketQuote[]> {
    if (sourceIds.length === 0) return [];
    const [quotes, sparks] = await Promise.all([
      this.yahoo.quote({ symbols: sourceIds, signal }),
      this.yahoo.spark({ symbols: sourceIds, interval: '1h', range: '5d', signal }),
    ]);
    const sparkBySymbol = new Map(sparks.map((series) => [series.symbol, series]));
    const now = Date.now();
    return quotes.flatMap((yahooQuote) => {
      const quote = toMarketQuote(yahooQuote);
      if (quote === null) return [];
      const series = sparkBySymbol.get(quote.sourceId);
      return [series ? withSparkFigures(quote, series, now) : quote];
    });
  }

  /** Hourly or daily bars ascending, the last `limit` of a range long enough to hold them. */
  async getCandles({
    sourceId,
    interval,
    limit,
    signal,
  }: {
    sourceId: string;
    interval: CandleInterval;
    limit: number;
    signal?: AbortSignal;
  }): Promise<Candle[]> {
    const candles = await this.yahoo.chart({ symbol: sourceId, interval: interval === 'H1' ? '1h' : '1d', range: rangeFor(interval, limit), signal });
    // Currency pairs (`EURUSD=X`) trade over the counter: Yahoo's 0 volume means none is known.
    const bars = sourceId.endsWith(FX_SUFFIX) ? candles.map((candle) => ({ ...candle, volume: null })) : candles;
    return bars.slice(-limit);
  }

  /** Exchange-traded securities and FX have no venue list of the kind crypto has. */
  async getTickers(): Promise<VenueTicker[]> {
    return [];
  }

  /** The company profile's sector and industry; a fund or a future has none. */
  async getClassification({ sourceId, signal }: { sourceId: string; signal?: AbortSignal }): Promise<AssetClassification> {
    const { assetProfile } = await this.yahoo.quoteSummary({ symbol: sourceId, modules: ['assetProfile'], signal });
    return { sector: assetProfile?.sector ?? null, industry: assetProfile?.industry ?? null };
  }

  /** Exchange, currency and trading state from the quote; the catalogue has sector and industry. */
  async getProfile({ sourceId, signal }: { sourceId: string; signal?: AbortSignal }): Promise<AssetProfile> {
    const [quote] = await this.yahoo.quote({ symbols: [sourceId], signal });
    return {
      ...EMPTY_PROFILE,
      exchange: quote?.exchange ?? null,
      currency: quote?.currency ?? null,
      marketState: quote?.marketState ?? null,
      updatedAt: quote?.priceUpdatedAt ?? null,
    };
  }

  listQuotes(): Promise<MarketQuote[]> {
    return refuseUnsupported(VENDOR, 'listQuotes (the catalogue of these types is our seed list)');
  }

  listCatalogue(): Promise<CatalogueEntry[]> {
    return refuseUnsupported(VENDOR, 'listCatalogue (the catalogue of these types is our seed list)');
  }

  getGlobalStats(): Promise<GlobalMarketStats> {
    return refuseUnsupported(VENDOR, 'global stats');
  }

  search(): Promise<CatalogueEntry[]> {
    return refuseUnsupported(VENDOR, 'search');
  }
}

/** The shortest range that holds `limit` bars of `interval`. */
export function rangeFor(interval: CandleInterval, limit: number): YahooRange {
  const sessionsNeeded = interval === 'H1' ? Math.ceil(limit / MIN_HOURLY_BARS_PER_SESSION) : limit;
  const found = RANGE_SESSIONS.find(([, sessions]) => sessions >= sessionsNeeded);
  return (found ?? RANGE_SESSIONS[RANGE_SESSIONS.length - 1])[0];
}

function withSparkFigures(quote: MarketQuote, series: SparkSeries, now: number): MarketQuote {
  const closes = series.closes;
  const last = closes[closes.length - 1];
  const previous = closes[closes.length - 2];
  const trading = last !== undefined && now - Date.parse(last.at) <= TRADING_NOW_MS;
  return {
    ...quote,
    sparkline7d: closes.map((point) => point.close),
    change7d: percentChange(series.previousClose, quote.price ?? last?.close),
    change1h: trading && previous ? percentChange(previous.close, last.close) : null,
  };
}
