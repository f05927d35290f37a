import { analystCoverageOf } from '../world/company-coverage';
import { CompanyFacts, companyFacts, CompanyDraws } from '../world/company-facts';
import { Listing, MarketBook } from '../world/market-book';
import { dailyCloses, DayStats, dayStats, priceHint, yahooPrice } from './listing-stats';

const YEAR_DAYS = 365;
const DAY_S = 86_400;
const CURRENCY_SYMBOLS: Record<string, string> = { USD: '$', HKD: 'HK$', JPY: '¥', KRW: '₩', EUR: '€', GBP: '£', CNY: 'CN¥' };

/** What every valuation module of one listing at one instant is computed from. */
export interface SummaryContext {
  book: MarketBook;
  listing: Listing;
  t: number;
  day: DayStats;
  price: number;
  /** Equities only: funds, currencies and futures have no accounts. */
  facts: CompanyFacts | null;
  draws: CompanyDraws;
}

export function summaryContext(book: MarketBook, listing: Listing, t: number): SummaryContext {
  const day = dayStats(book, listing, t);
  const facts = listing.type === 'EQUITY' ? companyFacts(listing, t) : null;
  return { book, listing, t, day, price: yahooPrice(listing, day.price), facts, draws: new CompanyDraws(listing) };
}

/** A ratio to 6 significant digits, null when the denominator is not positive (a loss has no P/E). */
function ratio(value: number, base: number): number | null {
  return base > 0 ? Number((value / base).toPrecision(6)) : null;
}

function seconds(ms: number): number {
  return Math.floor(ms / 1000);
}

/** The `price` module: this session's figures, as the v7 quote has them but changes as fractions. */
export function priceModule({ listing, t, day, price }: SummaryContext): Record<string, unknown> {
  const px = (value: number) => yahooPrice(listing, value);
  const change = day.price - day.previousClose;
  const marketCap = listing.shares === undefined ? null : Math.round(listing.shares * price);
  return {
    maxAge: 1,
    preMarketChangePercent: null,
    preMarketChange: null,
    preMarketTime: null,
    preMarketPrice: null,
    preMarketSource: 'FREE_REALTIME',
    postMarketChangePercent: null,
    postMarketChange: null,
    postMarketTime: null,
    postMarketPrice: null,
    postMarketSource: 'FREE_REALTIME',
    regularMarketChangePercent: day.previousClose > 0 ? change / day.previousClose : 0,
    regularMarketChange: change,
    regularMarketTime: seconds(Math.min(day.lastTrade, t)),
    priceHint: priceHint(listing),
    regularMarketPrice: price,
    regularMarketDayHigh: px(day.high),
    regularMarketDayLow: px(day.low),
    regularMarketVolume: day.volume,
    regularMarketPreviousClose: px(day.previousClose),
    regularMarketSource: 'FREE_REALTIME',
    regularMarketOpen: px(day.open),
    exchange: listing.exchangeDef.code,
    exchangeName: listing.exchangeDef.fullName,
    exchangeDataDelayedBy: 0,
    marketState: day.isOpen ? 'REGULAR' : 'CLOSED',
    quoteType: listing.type,
    symbol: listing.symbol,
    underlyingSymbol: null,
    shortName: listing.shortName,
    longName: listing.longName,
    currency: listing.currency,
    quoteSourceName: 'Nasdaq Real Time Price',
    currencySymbol: CURRENCY_SYMBOLS[listing.currency] ?? listing.currency,
    fromCurrency: null,
    toCurrency: null,
    lastMarket: null,
    marketCap,
  };
}

/** `summaryDetail`: the session, the year's range and averages, valuation multiples and the dividend. */
export function summaryDetailModule({ book, listing, t, day, price, facts, draws }: SummaryContext): Record<string, unknown> {
  const px = (value: number) => yahooPrice(listing, value);
  const year = dailyCloses(book, listing, t, YEAR_DAYS);
  const average = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  const shares = listing.shares ?? 0;
  const ttm = facts?.ttm;
  const dividendRate = ttm && shares > 0 ? Math.round((-ttm.cashDividendsPaid / shares) * 100) / 100 : null;
  const yieldOf = (rate: number | null) => (rate === null || price <= 0 ? null : Number((rate / price).toFixed(4)));
  const spread = price * 0.0004;
  const averageVolume = Math.round(day.volume * draws.between(0.8, 1.2, 3001));
  return {
    maxAge: 1,
    priceHint: priceHint(listing),
    previousClose: px(day.previousClose),
    open: px(day.open),
    dayLow: px(day.low),
    dayHigh: px(day.high),
    regularMarketPreviousClose: px(day.previousClose),
    regularMarketOpen: px(day.open),
    regularMarketDayLow: px(day.low),
    regularMarketDayHigh: px(day.high),
    dividendRate,
    dividendYield: yieldOf(dividendRate),
    exDividendDate: dividendRate ? (Math.floor(t / 86_400_000) - Math.floor(draws.unit(3002) * 80)) * DAY_S : null,
    payoutRatio: ttm ? ratio(-ttm.cashDividendsPaid, ttm.netIncome) : null,
    fiveYearAvgDividendYield: dividendRate ? Number(((dividendRate / price) * 100 * draws.between(0.8, 1.3, 3003)).toFixed(2)) : null,
    beta: facts ? Number(facts.beta.toFixed(2)) : null,
    trailingPE: ttm ? ratio(price, ttm.dilutedEps) : null,
    forwardPE: ttm && facts ? ratio(price, ttm.dilutedEps * (1 + facts.growth)) : null,
    volume: day.volume,
    regularMarketVolume: day.volume,
    averageVolume,
    averageVolume10days: Math.round(averageVolume * draws.between(0.85, 1.15, 3004)),
    averageDailyVolume10Day: Math.round(averageVolume * draws.between(0.85, 1.15, 3004)),
    bid: px(price - spread),
    ask: px(price + spread),
    bidSize: 100 * (1 + Math.floor(draws.unit(3005) * 9)),
    askSize: 100 * (1 + Math.floor(draws.unit(3006) * 9)),
    marketCap: shares > 0 ? Math.round(shares * price) : null,
    fiftyTwoWeekLow: px(Math.min(...year, day.low)),
    fiftyTwoWeekHigh: px(Math.max(...year, day.high)),
    priceToSalesTrailing12Months: ttm ? ratio(shares * price, ttm.totalRevenue) : null,
    fiftyDayAverage: average(year.slice(0, 50)),
    twoHundredDayAverage: average(year.slice(0, 200)),
    trailingAnnualDividendRate: dividendRate,
    trailingAnnualDividendYield: yieldOf(dividendRate),
    currency: listing.currency,
    fromCurrency: null,
    toCurrency: null,
    lastMarket: null,
    coinMarketCapLink: null,
    algorithm: null,
    tradeable: false,
  };
}

/** `defaultKeyStatistics`: share counts, per-share figures and fiscal dates; a fund's family and legal type instead of accounts. */
export function keyStatisticsModule({ listing, t, price, facts, draws }: SummaryContext): Record<string, unknown> {
  const shares = listing.shares ?? null;
  const ttm = facts?.ttm;
  const latest = facts?.quarterly[0];
  const annual = facts?.annual;
  const marketCap = shares === null ? null : shares * price;
  const enterpriseValue = marketCap !== null && latest ? Math.round(marketCap + latest.totalDebt - latest.cashAndCashEquivalents) : null;
  const bookValue = latest && shares ? Number((latest.stockholdersEquity / shares).toFixed(3)) : null;
  const short = shares === null ? null : Math.round(shares * draws.between(0.004, 0.03, 3101));
  const fiscalEnd = (ms: string | undefined) => (ms === undefined ? null : Date.parse(`${ms}T00:00:00Z`) / 1000);
  const fund = listing.type === 'ETF';
  return {
    maxAge: 1,
    priceHint: priceHint(listing),
    enterpriseValue,
    forwardPE: ttm && facts ? ratio(price, ttm.dilutedEps * (1 + facts.growth)) : null,
    profitMargins: ttm ? ratio(ttm.netIncome, ttm.totalRevenue) : null,
    floatShares: shares === null ? null : Math.round(shares * draws.between(0.8, 0.99, 3102)),
    sharesOutstanding: shares,
    sharesShort: short,
    sharesShortPriorMonth: short === null ? null : Math.round(short * draws.between(0.85, 1.15, 3103)),
    sharesShortPreviousMonthDate: seconds(t) - 45 * DAY_S,
    dateShortInterest: seconds(t) - 15 * DAY_S,
    sharesPercentSharesOut: short !== null && shares ? Number((short / shares).toFixed(4)) : null,
    heldPercentInsiders: facts ? Number(draws.between(0.001, 0.12, 3104).toFixed(5)) : null,
    heldPercentInstitutions: facts ? Number(draws.between(0.2, 0.8, 3105).toFixed(5)) : null,
    shortRatio: Number(draws.between(0.8, 5, 3106).toFixed(2)),
    shortPercentOfFloat: short !== null && shares ? Number((short / shares).toFixed(4)) : null,
    beta: facts ? Number(facts.beta.toFixed(2)) : null,
    impliedSharesOutstanding: shares,
    category: fund ? 'Large Blend' : null,
    bookValue,
    priceToBook: bookValue ? ratio(price, bookValue) : null,
    fundFamily: fund ? listing.longName.split(' ')[0] : null,
    legalType: fund ? 'Exchange Traded Fund' : null,
    lastFiscalYearEnd: fiscalEnd(annual?.[0]?.periodEnd),
    nextFiscalYearEnd: annual?.[0] ? fiscalEnd(annual[0].periodEnd)! + 365 * DAY_S : null,
    mostRecentQuarter: fiscalEnd(latest?.periodEnd),
    earningsQuarterlyGrowth:
      facts && facts.quarterly[4] ? ratio(facts.quarterly[0].netIncome - facts.quarterly[4].netIncome, facts.quarterly[4].netIncome) : null,
    netIncomeToCommon: ttm ? ttm.netIncome : null,
    trailingEps: ttm ? ttm.dilutedEps : null,
    forwardEps: ttm && facts ? Number((ttm.dilutedEps * (1 + facts.growth)).toFixed(2)) : null,
    lastSplitFactor: null,
    lastSplitDate: null,
    enterpriseToRevenue: enterpriseValue !== null && ttm ? ratio(enterpriseValue, ttm.totalRevenue) : null,
    enterpriseToEbitda: enterpriseValue !== null && ttm ? ratio(enterpriseValue, ttm.ebitda) : null,
    '52WeekChange': Number(draws.between(-0.3, 0.6, 3107).toFixed(5)),
    SandP52WeekChange: 0.1861316,
    lastDividendValue: ttm && shares ? Math.round((-ttm.cashDividendsPaid / shares / 4) * 100) / 100 : null,
    lastDividendDate: null,
    latestShareClass: null,
    leadInvestor: null,
  };
}

/** `financialData`: analysts' targets and consensus, then the trailing twelve months' figures. */
export function financialDataModule({ book, listing, t, price, facts }: SummaryContext): Record<string, unknown> | null {
  if (!facts) return null;
  const { ttm, quarterly } = facts;
  const latest = quarterly[0];
  const shares = listing.shares ?? 1;
  const coverage = analystCoverageOf(book, listing, t);
  const yearAgo = quarterly[4];
  const pxTarget = (value: number) => yahooPrice(listing, value);
  return {
    maxAge: 86400,
    currentPrice: price,
    targetHighPrice: pxTarget(coverage.targetHigh),
    targetLowPrice: pxTarget(coverage.targetLow),
    targetMeanPrice: pxTarget(coverage.targetMean),
    targetMedianPrice: pxTarget(coverage.targetMedian),
    recommendationMean: coverage.mean,
    recommendationKey: coverage.key,
    numberOfAnalystOpinions: coverage.analysts,
    totalCash: latest.cashAndCashEquivalents,
    totalCashPerShare: Number((latest.cashAndCashEquivalents / shares).toFixed(3)),
    ebitda: ttm.ebitda,
    totalDebt: latest.totalDebt,
    quickRatio: ratio(latest.currentAssets * 0.8, latest.currentLiabilities),
    currentRatio: ratio(latest.currentAssets, latest.currentLiabilities),
    totalRevenue: ttm.totalRevenue,
    debtToEquity: ratio(latest.totalDebt * 100, latest.stockholdersEquity),
    revenuePerShare: Number((ttm.totalRevenue / shares).toFixed(3)),
    returnOnAssets: ratio(ttm.netIncome, latest.totalAssets),
    returnOnEquity: ratio(ttm.netIncome, latest.stockholdersEquity),
    grossProfits: ttm.grossProfit,
    freeCashflow: ttm.freeCashFlow,
    operatingCashflow: ttm.operatingCashFlow,
    earningsGrowth: yearAgo ? ratio(latest.netIncome - yearAgo.netIncome, Math.abs(yearAgo.netIncome)) : null,
    revenueGrowth: yearAgo ? ratio(latest.totalRevenue - yearAgo.totalRevenue, yearAgo.totalRevenue) : null,
    grossMargins: ratio(ttm.grossProfit, ttm.totalRevenue),
    ebitdaMargins: ratio(ttm.ebitda, ttm.totalRevenue),
    operatingMargins: ratio(ttm.operatingIncome, ttm.totalRevenue),
    profitMargins: ratio(ttm.netIncome, ttm.totalRevenue),
    financialCurrency: facts.currency,
  };
}

/** `recommendationTrend`: this month's and the three previous months' rating counts. */
export function recommendationTrendModule({ book, listing, t, facts }: SummaryContext): Record<string, unknown> | null {
  if (!facts) return null;
  return { trend: analystCoverageOf(book, listing, t).trend, maxAge: 86400 };
}
