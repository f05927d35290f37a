import { Listing, MarketBook } from '../world/market-book';
import { hash2, unit } from '../world/prng';
import { dailyCloses, dayStats, priceHint, yahooPrice } from './listing-stats';
import { QUOTE_FIELDS, TYPE_DISPLAY } from './quote-fields';

const DAY_S = 86_400;
const YEAR_DAYS = 365;

function ratio(value: number, base: number): number {
  return base === 0 ? 0 : value / base;
}

function average(values: number[]): number {
  return values.reduce((sum, value) => sum + value, 0) / values.length;
}

/** One `/v7/finance/quote` result: every field Yahoo could send, then only those its quote type carries. */
export function quoteResult(book: MarketBook, listing: Listing, t: number): Record<string, unknown> {
  const exchange = listing.exchangeDef;
  const day = dayStats(book, listing, t);
  const px = (value: number) => yahooPrice(listing, value);
  const price = px(day.price);
  const change = day.price - day.previousClose;
  const year = dailyCloses(book, listing, t, YEAR_DAYS);
  const high52 = px(Math.max(...year, day.high));
  const low52 = px(Math.min(...year, day.low));
  const avg50 = average(year.slice(0, 50));
  const avg200 = average(year.slice(0, 200));
  const draw = (salt: number) => unit(hash2(listing.seed, salt));
  const nowS = Math.floor(t / 1000);
  const coin = listing.coin === undefined ? undefined : book.coin(listing.coin);
  const shares = listing.shares ?? 0;
  const eps = price / (15 + 30 * draw(1));
  const spread = price * 0.0004;
  const full: Record<string, unknown> = {
    language: 'en-US',
    region: 'US',
    quoteType: listing.type,
    typeDisp: TYPE_DISPLAY[listing.type],
    quoteSourceName: listing.type === 'EQUITY' || listing.type === 'ETF' ? 'Nasdaq Real Time Price' : 'Delayed Quote',
    triggerable: true,
    customPriceAlertConfidence: 'HIGH',
    shortName: listing.shortName,
    longName: listing.longName,
    marketState: day.isOpen ? 'REGULAR' : 'CLOSED',
    regularMarketChangePercent: ratio(change, day.previousClose) * 100,
    regularMarketPrice: price,
    currency: listing.currency,
    exchange: exchange.code,
    messageBoardId: `finmb_${listing.symbol.replace(/[^A-Z0-9]/g, '_')}`,
    exchangeTimezoneName: exchange.timezoneName,
    exchangeTimezoneShortName: exchange.timezone,
    gmtOffSetMilliseconds: exchange.gmtOffset * 1000,
    market: exchange.market,
    esgPopulated: false,
    corporateActions: [],
    postMarketTime: nowS,
    regularMarketTime: Math.floor(day.lastTrade / 1000),
    postMarketChangePercent: ratio(book.listingPx(listing, t) - day.price, day.price) * 100,
    postMarketPrice: px(book.listingPx(listing, t)),
    postMarketChange: book.listingPx(listing, t) - day.price,
    regularMarketChange: change,
    regularMarketDayHigh: px(day.high),
    regularMarketDayRange: `${px(day.low)} - ${px(day.high)}`,
    regularMarketDayLow: px(day.low),
    regularMarketVolume: day.volume,
    regularMarketPreviousClose: px(day.previousClose),
    bid: px(price - spread),
    ask: px(price + spread),
    bidSize: 1 + Math.floor(draw(2) * 9),
    askSize: 1 + Math.floor(draw(3) * 9),
    fullExchangeName: exchange.fullName,
    financialCurrency: listing.currency,
    regularMarketOpen: px(day.open),
    averageDailyVolume3Month: Math.round(day.volume * (0.8 + 0.4 * draw(4))),
    averageDailyVolume10Day: Math.round(day.volume * (0.8 + 0.4 * draw(5))),
    fiftyTwoWeekLowChange: price - low52,
    fiftyTwoWeekLowChangePercent: ratio(price - low52, low52),
    fiftyTwoWeekRange: `${low52} - ${high52}`,
    fiftyTwoWeekHighChange: price - high52,
    fiftyTwoWeekHighChangePercent: ratio(price - high52, high52),
    fiftyTwoWeekLow: low52,
    fiftyTwoWeekHigh: high52,
    fiftyTwoWeekChangePercent: ratio(price - year[year.length - 1], year[year.length - 1]) * 100,
    dividendDate: nowS - Math.floor(draw(6) * 90) * DAY_S,
    earningsTimestamp: nowS - Math.floor(draw(7) * 80) * DAY_S,
    earningsTimestampStart: nowS + Math.floor(10 + draw(8) * 80) * DAY_S,
    earningsTimestampEnd: nowS + Math.floor(12 + draw(8) * 80) * DAY_S,
    earningsCallTimestampStart: nowS - Math.floor(draw(7) * 80) * DAY_S,
    earningsCallTimestampEnd: nowS - Math.floor(draw(7) * 80) * DAY_S,
    isEarningsDateEstimate: true,
    trailingAnnualDividendRate: Number((price * 0.01 * draw(9)).toFixed(2)),
    trailingPE: ratio(price, eps),
    dividendRate: Number((price * 0.01 * draw(9)).toFixed(2)),
    trailingAnnualDividendYield: 0.01 * draw(9),
    dividendYield: Number((draw(9) * 1).toFixed(2)),
    ytdReturn: (draw(10) - 0.3) * 20,
    trailingThreeMonthReturns: (draw(11) - 0.3) * 15,
    trailingThreeMonthNavReturns: (draw(11) - 0.3) * 15,
    netAssets: Math.round(shares * price),
    epsTrailingTwelveMonths: eps,
    epsForward: eps * (1 + draw(12) * 0.3),
    epsCurrentYear: eps * (1 + draw(13) * 0.2),
    priceEpsCurrentYear: ratio(price, eps * (1 + draw(13) * 0.2)),
    sharesOutstanding: shares,
    bookValue: price / (2 + draw(14) * 40),
    fiftyDayAverage: avg50,
    fiftyDayAverageChange: price - avg50,
    fiftyDayAverageChangePercent: ratio(price - avg50, avg50),
    twoHundredDayAverage: avg200,
    twoHundredDayAverageChange: price - avg200,
    twoHundredDayAverageChangePercent: ratio(price - avg200, avg200),
    netExpenseRatio: Number((0.03 + draw(15) * 0.5).toFixed(2)),
    marketCap: coin ? Math.round(book.coinMarketCap(coin, t)) : Math.round(shares * price),
    forwardPE: ratio(price, eps * (1 + draw(12) * 0.3)),
    priceToBook: 2 + draw(14) * 40,
    sourceInterval: 15,
    exchangeDataDelayedBy: listing.type === 'FUTURE' ? 10 : 0,
    averageAnalystRating: `${(1.5 + draw(16) * 1.5).toFixed(1)} - Buy`,
    hasPrePostMarketData: exchange.market === 'us_market',
    firstTradeDateMilliseconds: Date.UTC(1990, 0, 2) + Math.floor(draw(17) * 9000) * DAY_S * 1000,
    priceHint: priceHint(listing),
    tradeable: false,
    cryptoTradeable: listing.type === 'CRYPTOCURRENCY',
    displayName: listing.shortName.split(' ')[0],
    headSymbolAsString: listing.symbol,
    contractSymbol: false,
    underlyingSymbol: `${listing.symbol.slice(0, 2)}Z26.${exchange.code}`,
    underlyingExchangeSymbol: `${listing.symbol.slice(0, 2)}Z26.${exchange.code}`,
    expireDate: Math.floor(Date.UTC(2026, 11, 28) / 1000),
    expireIsoDate: '2026-12-28T00:00:00Z',
    openInterest: Math.round(day.volume * (3 + draw(18) * 5)),
    circulatingSupply: coin?.circulating ?? 0,
    lastMarket: 'CoinMarketCap',
    volume24Hr: coin ? Math.round(book.coinVolume24h(coin, t)) : 0,
    volumeAllCurrencies: coin ? Math.round(book.coinVolume24h(coin, t)) : 0,
    fromCurrency: coin?.symbol.toUpperCase() ?? null,
    toCurrency: 'USD=X',
    coinMarketCapLink: `https://coinmarketcap.com/currencies/${coin?.id ?? ''}`,
    startDate: coin?.genesis ? Math.floor(Date.parse(coin.genesis) / 1000) : 1_278_979_200,
    coinImageUrl: `https://s2.coinmarketcap.com/static/img/coins/64x64/${coin?.imageId ?? 1}.png`,
    logoUrl: `https://s2.coinmarketcap.com/static/img/coins/64x64/${coin?.imageId ?? 1}.png`,
    symbol: listing.symbol,
  };
  if (listing.type === 'FUTURE') {
    full.triggerable = false;
    full.customPriceAlertConfidence = 'NONE';
  }
  return Object.fromEntries(QUOTE_FIELDS[listing.type].map((key) => [key, full[key]]));
}
