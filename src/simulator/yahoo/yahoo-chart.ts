import { jsonError } from '../json-reply';
import { Listing, MarketBook } from '../world/market-book';
import { hash2, unit } from '../world/prng';
import { ExchangeDef } from '../world/stock-listings';
import { latestSession, Session, sessionsBetween } from '../world/trading-sessions';
import { dailyCloses, dayStats, perHourVolume, priceHint, yahooPrice } from './listing-stats';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const VALID_RANGES = ['1d', '5d', '1mo', '3mo', '6mo', '1y', '2y', '5y', '10y', 'ytd', 'max'];
const CALENDAR_RANGE_DAYS: Record<string, number> = { '1mo': 30, '3mo': 91, '6mo': 182, '1y': 365, '2y': 730, '5y': 1826, '10y': 3652, max: 3652 };
/** Yahoo serves hourly bars for the last 730 days only. */
const INTRADAY_MAX_DAYS = 730;
const SUPPORTED_INTERVALS: Record<string, 'hour' | 'day'> = { '1h': 'hour', '60m': 'hour', '1d': 'day' };
/** Share of past intraday bars Yahoo sends as nulls (a known quirk clients must skip). */
const NULL_BAR_SHARE = 0.02;
/** Spark's `dataGranularity` as Yahoo sends it for daily closes. */
const SPARK_GRANULARITY = 300;

interface ChartBar {
  t: number;
  open: number | null;
  high: number | null;
  low: number | null;
  close: number | null;
  volume: number | null;
}

export interface ChartRequest {
  interval: string;
  range: string | null;
  period1: number | null;
  period2: number | null;
}

export function chartError(status: number, code: string, description: string): Error {
  return jsonError(status, { chart: { result: null, error: { code, description } } });
}

/** The sessions a request covers: `Nd` ranges count trading days, longer ones calendar days, periods are exact. */
function sessionsFor(exchange: ExchangeDef, request: ChartRequest, kind: 'hour' | 'day', now: number): Session[] {
  if (request.period1 !== null) return sessionsBetween(exchange, request.period1 * 1000, Math.min(now, (request.period2 ?? now / 1000) * 1000));
  const range = request.range ?? (kind === 'hour' ? '5d' : '1mo');
  const tradingDays = /^(\d+)d$/.exec(range);
  if (tradingDays) {
    const sessions: Session[] = [];
    for (let at = now; sessions.length < Number(tradingDays[1]);) {
      const session = latestSession(exchange, at);
      sessions.unshift(session);
      at = session.start - 1;
    }
    return sessions;
  }
  const from = range === 'ytd' ? Date.UTC(new Date(now).getUTCFullYear(), 0, 1) : now - CALENDAR_RANGE_DAYS[range] * DAY_MS;
  return sessionsBetween(exchange, kind === 'hour' ? Math.max(from, now - INTRADAY_MAX_DAYS * DAY_MS) : from, now);
}

function bars(book: MarketBook, listing: Listing, sessions: Session[], kind: 'hour' | 'day', now: number): ChartBar[] {
  const pxAt = (at: number) => book.listingPx(listing, at);
  const volume = perHourVolume(book, listing, now);
  const out: ChartBar[] = [];
  for (const session of sessions) {
    const step = kind === 'hour' ? HOUR_MS : session.end - session.start;
    for (let start = session.start; start < session.end && start <= now; start += step) {
      const length = Math.min(step, session.end - start);
      const bar = book.bar({ pxAt, seed: listing.seed, start, intervalMs: length, now, perHourVolume: volume });
      const forming = start + length > now;
      if (kind === 'hour' && !forming && unit(hash2(listing.seed ^ 0x11, start / 60_000)) < NULL_BAR_SHARE) {
        out.push({ t: start, open: null, high: null, low: null, close: null, volume: null });
        continue;
      }
      const px = (value: number) => Math.fround(yahooPrice(listing, value));
      out.push({ t: start, open: px(bar.open), high: px(bar.high), low: px(bar.low), close: px(bar.close), volume: Math.round(bar.volume) });
    }
  }
  return out;
}

function period(exchange: ExchangeDef, start: number, end: number): object {
  return { timezone: exchange.timezone, end: Math.floor(end / 1000), start: Math.floor(start / 1000), gmtoffset: exchange.gmtOffset };
}

function validate(listing: Listing | undefined, request: ChartRequest): 'hour' | 'day' {
  if (!listing) throw chartError(404, 'Not Found', 'No data found, symbol may be delisted');
  const kind = SUPPORTED_INTERVALS[request.interval];
  if (!kind) throw chartError(400, 'Bad Request', `Invalid input - interval=${request.interval} is not supported. Valid intervals: [1h, 60m, 1d]`);
  if (request.range !== null && !VALID_RANGES.includes(request.range) && !/^\d+d$/.test(request.range)) {
    throw chartError(400, 'Bad Request', `Invalid input - range=${request.range} is not supported.`);
  }
  return kind;
}

/** `/v8/finance/chart/{symbol}`: meta, bar open times and OHLCV; stocks only while their exchange trades. */
export function chart(book: MarketBook, symbol: string, request: ChartRequest, now: number): object {
  const listing = book.listing(symbol);
  const kind = validate(listing, request);
  const found = listing as Listing;
  const exchange = found.exchangeDef;
  const sessions = sessionsFor(exchange, request, kind, now);
  const rows = bars(book, found, sessions, kind, now);
  const day = dayStats(book, found, now);
  const year = dailyCloses(book, found, now, 365);
  const first = sessions[0];
  const chartPreviousClose = first ? book.listingPx(found, latestSession(exchange, first.start - 1).end - 1000) : day.previousClose;
  const current = latestSession(exchange, now);
  const meta: Record<string, unknown> = {
    currency: found.currency,
    symbol: found.symbol,
    exchangeName: exchange.code,
    fullExchangeName: exchange.fullName,
    instrumentType: found.type,
    firstTradeDate: 345_479_400,
    regularMarketTime: Math.floor(day.lastTrade / 1000),
    hasPrePostMarketData: exchange.market === 'us_market',
    gmtoffset: exchange.gmtOffset,
    timezone: exchange.timezone,
    exchangeTimezoneName: exchange.timezoneName,
    regularMarketPrice: yahooPrice(found, day.price),
    regularMarketChangePercent: ((day.price - day.previousClose) / day.previousClose) * 100,
    fulldayPrice: yahooPrice(found, day.price),
    fulldayChange: day.price - day.previousClose,
    fulldayChangePercent: ((day.price - day.previousClose) / day.previousClose) * 100,
    fiftyTwoWeekHigh: yahooPrice(found, Math.max(...year)),
    fiftyTwoWeekLow: yahooPrice(found, Math.min(...year)),
    regularMarketDayHigh: yahooPrice(found, day.high),
    regularMarketDayLow: yahooPrice(found, day.low),
    regularMarketVolume: day.volume,
    longName: found.longName,
    shortName: found.shortName,
    chartPreviousClose: yahooPrice(found, chartPreviousClose),
    previousClose: yahooPrice(found, day.previousClose),
    scale: 3,
    priceHint: priceHint(found),
    currentTradingPeriod: {
      pre: period(exchange, current.start - HOUR_MS / 2, current.start),
      regular: period(exchange, current.start, current.end),
      post: period(exchange, current.end, current.end),
    },
  };
  if (kind === 'hour') meta.tradingPeriods = sessions.map((session) => [period(exchange, session.start, session.end)]);
  Object.assign(meta, { dataGranularity: request.interval, range: request.range ?? '', validRanges: VALID_RANGES });
  const result: Record<string, unknown> = { meta };
  if (rows.length === 0) {
    // A range without a session (a weekend) has no timestamps and one empty quote, as upstream.
    result.indicators = { quote: [{}] };
  } else {
    result.timestamp = rows.map((row) => Math.floor(row.t / 1000));
    const quote = {
      close: rows.map((row) => row.close),
      high: rows.map((row) => row.high),
      volume: rows.map((row) => row.volume),
      open: rows.map((row) => row.open),
      low: rows.map((row) => row.low),
    };
    result.indicators = kind === 'day' ? { quote: [quote], adjclose: [{ adjclose: quote.close }] } : { quote: [quote] };
  }
  return { chart: { result: [result], error: null } };
}

/** `/v7/finance/spark`: close series for many symbols at once, keyed by symbol; unknown symbols are left out. */
export function spark(book: MarketBook, symbols: string[], request: ChartRequest, now: number): object {
  const out: Record<string, object> = {};
  for (const symbol of symbols) {
    const listing = book.listing(symbol);
    if (!listing) continue;
    const kind = validate(listing, request);
    const sessions = sessionsFor(listing.exchangeDef, request, kind, now);
    const rows = bars(book, listing, sessions, kind, now).filter((row) => row.close !== null);
    const day = dayStats(book, listing, now);
    const first = sessions[0];
    const chartPreviousClose = first ? book.listingPx(listing, latestSession(listing.exchangeDef, first.start - 1).end - 1000) : day.previousClose;
    out[symbol] = {
      timestamp: rows.map((row) => Math.floor(row.t / 1000)),
      end: null,
      symbol,
      fulldayChange: yahooPrice(listing, day.price - day.previousClose),
      fulldayChangePercent: Number((((day.price - day.previousClose) / day.previousClose) * 100).toFixed(4)),
      fulldayPrice: yahooPrice(listing, day.price),
      start: null,
      close: rows.map((row) => yahooPrice(listing, row.close as number)),
      dataGranularity: SPARK_GRANULARITY,
      previousClose: null,
      chartPreviousClose: yahooPrice(listing, chartPreviousClose),
    };
  }
  return out;
}
