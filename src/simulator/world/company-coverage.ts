import { CompanyDraws, referencePrice, usdPerUnitFixed } from './company-facts';
import { Listing, MarketBook } from './market-book';
import { stringHash } from './prng';

const DAY_MS = 86_400_000;
/** Holdings are reported some weeks after the quarter they describe. */
const HOLDINGS_LAG_DAYS = 45;
const HOLDERS_SHOWN = 10;

// prettier-ignore
const INSTITUTIONS = [
  'Vanguard Group Inc', 'Blackrock Inc.', 'State Street Corporation', 'FMR, LLC', 'Geode Capital Management, LLC', 'Morgan Stanley',
  'Price (T.Rowe) Associates Inc', 'Norges Bank Investment Management', 'JP Morgan Chase & Company', 'Capital World Investors',
  'Northern Trust Corporation', 'Bank of America Corporation', 'Goldman Sachs Group Inc', 'UBS Group AG', 'Invesco Ltd.',
  'Wellington Management Group, LLP', 'Legal & General Group PLC', 'Charles Schwab Investment Management, Inc.',
];
// prettier-ignore
const US_FUNDS = [
  'Vanguard Total Stock Market Index Fund', 'Vanguard 500 Index Fund', 'SPDR S&P 500 ETF Trust', 'Fidelity 500 Index Fund',
  'iShares Core S&P 500 ETF', 'Vanguard Growth Index Fund', 'Invesco ETF Tr-Invesco QQQ Tr, Series 1 ETF', 'Vanguard Value Index Fund',
  'Vanguard Institutional Index Fund-Institutional Index Fund', 'iShares Russell 1000 Growth ETF', 'Vanguard Mid-Cap Index Fund', 'Select Sector SPDR Fund',
];
// prettier-ignore
const INTERNATIONAL_FUNDS = [
  'Vanguard Total International Stock Index Fund', 'Vanguard Emerging Markets Stock Index Fund', 'iShares Core MSCI EAFE ETF',
  'iShares MSCI Emerging Markets ETF', 'Vanguard Developed Markets Index Fund', 'American Funds EuroPacific Growth Fund',
  'iShares Core MSCI Emerging Markets ETF', 'Vanguard FTSE All-World ex-US Index Fund', 'iShares MSCI ACWI ETF', 'Fidelity International Index Fund',
  'Schwab International Equity ETF', 'iShares MSCI All Country Asia ex Japan ETF',
];
const MARKET_FUND: Record<string, string> = {
  hk_market: 'iShares MSCI Hong Kong ETF',
  jp_market: 'iShares MSCI Japan ETF',
  kr_market: 'iShares MSCI South Korea ETF',
};

export type RecommendationCounts = { strongBuy: number; buy: number; hold: number; sell: number; strongSell: number };

export interface AnalystCoverage {
  /** This month (`0m`) and the three before, as Yahoo's recommendationTrend lists them. */
  trend: (RecommendationCounts & { period: string })[];
  /** 1 strong buy .. 5 sell. */
  mean: number;
  key: 'strong_buy' | 'buy' | 'hold' | 'underperform' | 'sell';
  analysts: number;
  targetMean: number;
  targetMedian: number;
  targetHigh: number;
  targetLow: number;
}

export interface Holder {
  organization: string;
  /** Fraction of shares outstanding. */
  pctHeld: number;
  pctChange: number;
  position: number;
  /** Position at the report date's price, listing currency. */
  value: number;
  /** Midnight UTC. */
  reportDate: number;
}

/**
 * Sell-side coverage: more analysts for larger companies, a bias per company spread over the five
 * ratings, and price targets around the month's opening price, so they hold still within a month.
 */
export function analystCoverageOf(book: MarketBook, listing: Listing, t: number): AnalystCoverage {
  const draws = new CompanyDraws(listing);
  const capUsd = referencePrice(listing) * (listing.shares ?? 1e9) * usdPerUnitFixed(book, listing.currency);
  const base = Math.min(60, 3 + Math.floor(draws.unit(900) * 8) + Math.floor(Math.max(0, Math.log10(capUsd) - 9) * 14));
  const bias = draws.between(0.25, 0.95, 901);
  const trend = ['0m', '-1m', '-2m', '-3m'].map((period, k) => {
    const drift = (draws.unit(910 + k) - 0.5) * 0.1;
    return { period, ...spread(Math.max(1, base - k + Math.round((draws.unit(920 + k) - 0.5) * 2)), Math.min(1, Math.max(0, bias + drift))) };
  });
  const current = trend[0];
  const analysts = current.strongBuy + current.buy + current.hold + current.sell + current.strongSell;
  const mean = (current.strongBuy + 2 * current.buy + 3 * current.hold + 4 * current.sell + 5 * current.strongSell) / analysts;
  const monthStart = Date.UTC(new Date(t).getUTCFullYear(), new Date(t).getUTCMonth(), 1);
  const targetMean = book.listingPx(listing, monthStart) * (1 - 0.05 + 0.4 * bias * draws.unit(902));
  return {
    trend,
    mean: Math.round(mean * 1e5) / 1e5,
    key: mean <= 1.5 ? 'strong_buy' : mean <= 2.5 ? 'buy' : mean <= 3.5 ? 'hold' : mean <= 4.5 ? 'underperform' : 'sell',
    analysts,
    targetMean,
    targetMedian: targetMean * draws.between(0.97, 1.03, 903),
    targetHigh: targetMean * draws.between(1.15, 1.45, 904),
    targetLow: targetMean * draws.between(0.6, 0.85, 905),
  };
}

/** `total` analysts over the five ratings, more of them bullish the higher `bias` (0..1). */
function spread(total: number, bias: number): RecommendationCounts {
  const weights = [bias * bias, bias, 0.55, (1 - bias) * 0.35, (1 - bias) * (1 - bias) * 0.15];
  const sum = weights.reduce((a, b) => a + b, 0);
  const exact = weights.map((w) => (w / sum) * total);
  const counts = exact.map(Math.floor);
  const order = exact.map((value, i) => [value - Math.floor(value), i]).sort((a, b) => b[0] - a[0]);
  for (let k = 0; k < total - counts.reduce((a, b) => a + b, 0); k++) counts[order[k][1]] += 1;
  const [strongBuy, buy, hold, sell, strongSell] = counts;
  return { strongBuy, buy, hold, sell, strongSell };
}

/** The ten largest institutional holders as of the last reported quarter. */
export function institutionsOf(book: MarketBook, listing: Listing, t: number): Holder[] {
  const reportDate = lastReportedMonthEnd(t, 3);
  return holders(book, listing, { pool: INSTITUTIONS, salt: 1000, scale: 1 }, () => reportDate);
}

/** The ten largest fund holders; funds report monthly, so their dates differ. */
export function fundsOf(book: MarketBook, listing: Listing, t: number): Holder[] {
  const international = listing.exchangeDef.market !== 'us_market';
  const pool = international ? [MARKET_FUND[listing.exchangeDef.market] ?? INTERNATIONAL_FUNDS[0], ...INTERNATIONAL_FUNDS] : US_FUNDS;
  const draws = new CompanyDraws(listing);
  // A fund holds a fraction of what the largest managers do.
  return holders(book, listing, { pool, salt: 2000, scale: 0.35 }, (k) => lastReportedMonthEnd(t - Math.floor(draws.unit(2100 + k) * 3) * 31 * DAY_MS, 1));
}

interface HolderPool {
  pool: readonly string[];
  salt: number;
  /** Of the largest stake an institution holds. */
  scale: number;
}

function holders(book: MarketBook, listing: Listing, { pool, salt, scale }: HolderPool, reportDateOf: (k: number) => number): Holder[] {
  const draws = new CompanyDraws(listing);
  const domestic = listing.exchangeDef.market === 'us_market';
  const names = [...new Set(pool)].sort((a, b) => draws.unit(salt + stringHash(a)) - draws.unit(salt + stringHash(b))).slice(0, HOLDERS_SHOWN);
  const shares = listing.shares ?? 1e9;
  let pctHeld = scale * draws.between(domestic ? 0.04 : 0.012, domestic ? 0.095 : 0.035, salt + 1);
  return names.map((organization, k) => {
    if (k > 0) pctHeld *= draws.between(0.55, 0.95, salt + 10 + k);
    const held = Math.round(pctHeld * 1e4) / 1e4;
    const reportDate = reportDateOf(k);
    const position = Math.round(held * shares);
    return {
      organization,
      pctHeld: held,
      pctChange: Math.round((draws.unit(salt + 50 + k) - 0.45) * 0.16 * 1e4) / 1e4,
      position,
      value: Math.round(position * book.listingPx(listing, reportDate + DAY_MS - 1)),
      reportDate,
    };
  });
}

/** Midnight UTC of the last day of the latest month ending every `months` months (quarters: March, June...) reported by t. */
function lastReportedMonthEnd(t: number, months: number): number {
  const until = new Date(t - HOLDINGS_LAG_DAYS * DAY_MS);
  let year = until.getUTCFullYear();
  let month = until.getUTCMonth();
  while (month % months !== 0) month -= 1;
  if (month === 0) [year, month] = [year - 1, 12];
  return Date.UTC(year, month, 0);
}
