import { StockMarket, StockQuote } from '../equities-provider';
import { AssetType, MarketQuote } from '../market-data-provider';
import { YahooQuote } from './yahoo-quote.schema';

/** Yahoo's quoteType to our asset types; crypto is another vendor's, and indices or funds are not listed. */
const ASSET_TYPE_BY_QUOTE_TYPE: ReadonlyMap<string, AssetType> = new Map([
  ['EQUITY', 'STOCK'],
  ['ETF', 'ETF'],
  ['CURRENCY', 'FOREX'],
  ['FUTURE', 'COMMODITY'],
]);

/** Exchange suffixes of the markets we list; a symbol without one trades in the US. */
const MARKET_BY_SUFFIX: ReadonlyMap<string, StockMarket> = new Map([
  ['HK', 'HK'],
  ['T', 'JP'],
  ['KS', 'KR'],
  ['KQ', 'KR'],
]);

/** Listed securities have a market; currencies and futures do not. */
const LISTED_TYPES: ReadonlySet<AssetType> = new Set(['STOCK', 'ETF']);

export function assetTypeOf(quoteType: string | null): AssetType | null {
  return quoteType === null ? null : (ASSET_TYPE_BY_QUOTE_TYPE.get(quoteType) ?? null);
}

/** US, HK, JP or KR from the symbol's suffix ('0700.HK', '7203.T', '005930.KS'); null for other exchanges. */
export function stockMarketOf(symbol: string): StockMarket | null {
  const dot = symbol.lastIndexOf('.');
  if (dot < 0) return 'US';
  return MARKET_BY_SUFFIX.get(symbol.slice(dot + 1).toUpperCase()) ?? null;
}

/**
 * The Markets view of a quote, or null for what Markets does not list from Yahoo (crypto, indices).
 * change1h, change7d and the sparkline come from chart and spark, so they are left empty here.
 */
export function toMarketQuote(quote: YahooQuote): MarketQuote | null {
  const type = assetTypeOf(quote.quoteType);
  if (type === null) return null;
  return {
    sourceId: quote.symbol,
    symbol: quote.symbol,
    name: quote.name,
    type,
    market: LISTED_TYPES.has(type) ? stockMarketOf(quote.symbol) : null,
    currency: quote.currency,
    price: quote.price,
    change1h: null,
    // Against the previous close, not a rolling 24 hours: Yahoo has no rolling figure.
    change24h: quote.changePercent,
    change7d: null,
    // Yahoo reports 0 for currencies, which trade over the counter: no volume is known.
    volume24h: type === 'FOREX' ? null : quote.volume,
    marketCap: quote.marketCap,
    high24h: quote.dayHigh,
    low24h: quote.dayLow,
    sparkline7d: [],
    updatedAt: quote.priceUpdatedAt,
  };
}

/**
 * The Stocks view of a quote, or null when it is not a stock of a market we serve. Sector and industry
 * are not in a quote (they come from search or the company profile).
 */
export function toStockQuote(quote: YahooQuote): StockQuote | null {
  if (assetTypeOf(quote.quoteType) !== 'STOCK') return null;
  const market = stockMarketOf(quote.symbol);
  if (market === null || quote.currency === null) return null;
  return {
    sourceSymbol: quote.symbol,
    market,
    name: quote.name,
    currency: quote.currency,
    price: quote.price,
    change: quote.change,
    changePercent: quote.changePercent,
    high: quote.dayHigh,
    low: quote.dayLow,
    volume: quote.volume,
    marketCap: quote.marketCap,
    sector: null,
    industry: null,
    priceUpdatedAt: quote.priceUpdatedAt,
  };
}
