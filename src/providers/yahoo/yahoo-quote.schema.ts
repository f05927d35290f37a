import { decimalOrNull, isoFromSeconds, textOrNull, throwOnBodyError, yahooReader } from './yahoo-values';

/**
 * One row of `/v7/finance/quote`, as Yahoo gives it: figures are decimal strings in the listing currency,
 * null when Yahoo has none (marketCap for currencies and futures). Changes are percent.
 */
export interface YahooQuote {
  symbol: string;
  /** As Yahoo names it: EQUITY, ETF, CURRENCY, FUTURE, CRYPTOCURRENCY, INDEX, MUTUALFUND... */
  quoteType: string | null;
  name: string;
  currency: string | null;
  /** The exchange's full name ('NasdaqGS', 'HKSE'), else its code. */
  exchange: string | null;
  /** REGULAR, PRE, POST, CLOSED... */
  marketState: string | null;
  price: string | null;
  change: string | null;
  changePercent: string | null;
  previousClose: string | null;
  dayHigh: string | null;
  dayLow: string | null;
  /** The session's volume in units traded (shares, contracts); Yahoo sends 0 for currencies. */
  volume: string | null;
  marketCap: string | null;
  /** ISO-8601 time of the regular-market price. */
  priceUpdatedAt: string | null;
}

/**
 * `{quoteResponse: {result: [...], error}}`. Unknown keys are ignored and any figure may be missing,
 * null, `{}` or `{raw, fmt}`; only a row without a symbol is refused. Symbols Yahoo does not know are
 * simply absent from the result.
 */
export function parseQuoteResponse(json: unknown, label = 'quote'): YahooQuote[] {
  const body = yahooReader.asObject(json, label);
  if (body.has('finance')) throwOnBodyError(body.object('finance'), label);
  const response = body.object('quoteResponse');
  throwOnBodyError(response, label);
  if (!response.has('result')) return [];
  return response.array('result', parseQuoteRow);
}

function parseQuoteRow(item: unknown, path: string): YahooQuote {
  const row = yahooReader.asObject(item, path);
  const symbol = row.string('symbol');
  const raw = row.raw;
  return {
    symbol,
    quoteType: textOrNull(raw.quoteType),
    name: textOrNull(raw.longName) ?? textOrNull(raw.shortName) ?? textOrNull(raw.displayName) ?? symbol,
    currency: textOrNull(raw.currency),
    exchange: textOrNull(raw.fullExchangeName) ?? textOrNull(raw.exchange),
    marketState: textOrNull(raw.marketState),
    price: decimalOrNull(raw.regularMarketPrice),
    change: decimalOrNull(raw.regularMarketChange),
    changePercent: decimalOrNull(raw.regularMarketChangePercent),
    previousClose: decimalOrNull(raw.regularMarketPreviousClose),
    dayHigh: decimalOrNull(raw.regularMarketDayHigh),
    dayLow: decimalOrNull(raw.regularMarketDayLow),
    volume: decimalOrNull(raw.regularMarketVolume),
    marketCap: decimalOrNull(raw.marketCap),
    priceUpdatedAt: isoFromSeconds(raw.regularMarketTime),
  };
}
