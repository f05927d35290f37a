import { Listing, MarketBook } from './market-book';
import { hash2, hash3, stringHash, unit } from './prng';

const DAY_MS = 86_400_000;
/** Days after a period ends before its figures are published. */
const ANNUAL_LAG_DAYS = 60;
const QUARTER_LAG_DAYS = 40;
const ANNUAL_PERIODS = 4;
const QUARTERLY_PERIODS = 5;
/** Fiscal years that do not end in December (the US names of the book; Tokyo's end in March). */
const FISCAL_YEAR_END_MONTH: Record<string, number> = { AAPL: 9, MSFT: 6, NVDA: 1, WMT: 1, V: 9 };
const MARKET_FISCAL_YEAR_END_MONTH: Record<string, number> = { jp_market: 3 };

/** One reported period in the listing's currency: flows over the period, balances at its end. */
export interface PeriodFigures {
  /** YYYY-MM-DD, the last day of the period's last month. */
  periodEnd: string;
  fiscalYear: number;
  /** 1-4; 0 for a whole fiscal year. */
  fiscalQuarter: number;
  totalRevenue: number;
  costOfRevenue: number;
  grossProfit: number;
  operatingExpense: number;
  operatingIncome: number;
  pretaxIncome: number;
  taxProvision: number;
  netIncome: number;
  ebitda: number;
  basicEps: number;
  dilutedEps: number;
  dilutedAverageShares: number;
  totalAssets: number;
  currentAssets: number;
  cashAndCashEquivalents: number;
  totalLiabilitiesNetMinorityInterest: number;
  currentLiabilities: number;
  totalDebt: number;
  stockholdersEquity: number;
  operatingCashFlow: number;
  investingCashFlow: number;
  financingCashFlow: number;
  capitalExpenditure: number;
  freeCashFlow: number;
  cashDividendsPaid: number;
  repurchaseOfCapitalStock: number;
}

export interface CompanyFacts {
  currency: string;
  fiscalYearEndMonth: number;
  /** Published fiscal years and quarters, newest first. */
  annual: PeriodFigures[];
  quarterly: PeriodFigures[];
  /** The last four quarters summed (flows) and the last quarter's balances. */
  ttm: PeriodFigures;
  /** Yearly revenue growth the model follows, for forward estimates. */
  growth: number;
  beta: number;
}

/** Draws of one company; the same listing in the same world always has the same accounts. */
export class CompanyDraws {
  private readonly seed: number;

  constructor(listing: Listing) {
    this.seed = stringHash(`${listing.seed}:company`);
  }

  unit(salt: number): number {
    return unit(hash2(this.seed, salt));
  }

  between(low: number, high: number, salt: number): number {
    return low + (high - low) * this.unit(salt);
  }

  /** A draw that differs per period (a fiscal year and quarter). */
  periodUnit(salt: number, year: number, quarter: number): number {
    return unit(hash3(this.seed ^ salt, year, quarter));
  }
}

/** The listing's price before the world moves it: what its revenue and share count were sized for. */
export function referencePrice(listing: Listing): number {
  return listing.process.basePx * listing.scale;
}

/**
 * Accounts of an equity listing as of `t`: revenue sized from its reference market cap by a price/sales
 * multiple, grown yearly, split into quarters by a fixed seasonality; margins, balance sheet and cash flows
 * as ratios of revenue drawn per company, with a little noise per period. Everything in the listing's currency.
 */
export function companyFacts(listing: Listing, t: number): CompanyFacts {
  const draws = new CompanyDraws(listing);
  const fiscalYearEndMonth = FISCAL_YEAR_END_MONTH[listing.symbol] ?? MARKET_FISCAL_YEAR_END_MONTH[listing.exchangeDef.market] ?? 12;
  const model = new AccountsModel(listing, draws, t);
  const annualEnds = periodEnds(fiscalYearEndMonth, 12, t - ANNUAL_LAG_DAYS * DAY_MS, ANNUAL_PERIODS);
  const quarterEnds = periodEnds(fiscalYearEndMonth, 3, t - QUARTER_LAG_DAYS * DAY_MS, QUARTERLY_PERIODS);
  const annual = annualEnds.map(([year]) => model.period(year, 0, `${year}-${pad(fiscalYearEndMonth)}-${lastDay(year, fiscalYearEndMonth)}`));
  const quarterly = quarterEnds.map(([year, month]) => {
    const quartersLeft = ((fiscalYearEndMonth - month + 12) % 12) / 3;
    const fiscalYear = month + quartersLeft * 3 > 12 ? year + 1 : year;
    return model.period(fiscalYear, 4 - quartersLeft, `${year}-${pad(month)}-${lastDay(year, month)}`);
  });
  return {
    currency: listing.currency,
    fiscalYearEndMonth,
    annual,
    quarterly,
    ttm: trailing(quarterly),
    growth: model.growth,
    beta: draws.between(0.55, 1.8, 40),
  };
}

class AccountsModel {
  readonly growth: number;
  private readonly revenueNow: number;
  private readonly currentYear: number;
  private readonly seasonality: number[];

  constructor(
    private readonly listing: Listing,
    private readonly draws: CompanyDraws,
    t: number,
  ) {
    const priceToSales = draws.between(1.2, 12, 1);
    this.revenueNow = (referencePrice(listing) * this.shares(0)) / priceToSales;
    this.growth = draws.between(-0.04, 0.22, 2);
    this.currentYear = new Date(t).getUTCFullYear();
    const weights = [0, 1, 2, 3].map((q) => 1 + 0.2 * (draws.unit(10 + q) - 0.5));
    const total = weights.reduce((sum, w) => sum + w, 0);
    this.seasonality = weights.map((w) => w / total);
  }

  /** Shares outstanding `yearsAgo` years back: buybacks shrink the count about 1 % a year. */
  shares(yearsAgo: number): number {
    return (this.listing.shares ?? 1e9) * (1 + 0.01 * yearsAgo);
  }

  /** A fiscal year (quarter 0) or one of its quarters. */
  period(fiscalYear: number, quarter: number, periodEnd: string): PeriodFigures {
    const d = this.draws;
    const noise = (salt: number, spread: number) => 1 + spread * (d.periodUnit(salt, fiscalYear, quarter) - 0.5);
    const yearRevenue = this.revenueNow * (1 + this.growth) ** (fiscalYear - this.currentYear) * noise(1, 0.04);
    const share = quarter === 0 ? 1 : this.seasonality[quarter - 1];
    const revenue = money(yearRevenue * share);
    const grossMargin = d.between(0.22, 0.72, 3) * noise(2, 0.04);
    const operatingMargin = grossMargin * d.between(0.25, 0.75, 4) * noise(3, 0.08);
    const grossProfit = money(revenue * grossMargin);
    const operatingIncome = money(revenue * operatingMargin);
    const pretaxIncome = money(operatingIncome * d.between(0.9, 1.08, 5));
    const taxProvision = money(pretaxIncome * d.between(0.12, 0.26, 6));
    const netIncome = pretaxIncome - taxProvision;
    const shares = Math.round(this.shares(this.currentYear - fiscalYear) / 1000) * 1000;
    const dilutedEps = round2(netIncome / shares);
    const totalAssets = money(yearRevenue * d.between(0.7, 2.6, 7) * noise(4, 0.03));
    const stockholdersEquity = money(totalAssets * d.between(0.2, 0.6, 8));
    const operatingCashFlow = money(netIncome * d.between(1.05, 1.4, 9) * noise(5, 0.1));
    const capitalExpenditure = -money(revenue * d.between(0.02, 0.09, 11));
    const cashDividendsPaid = -money(netIncome * d.between(0, 0.45, 12));
    const repurchaseOfCapitalStock = -money(netIncome * d.between(0, 0.7, 13) * noise(6, 0.3));
    const investingCashFlow = money(capitalExpenditure * d.between(1.1, 1.8, 14));
    return {
      periodEnd,
      fiscalYear,
      fiscalQuarter: quarter,
      totalRevenue: revenue,
      costOfRevenue: revenue - grossProfit,
      grossProfit,
      operatingExpense: grossProfit - operatingIncome,
      operatingIncome,
      pretaxIncome,
      taxProvision,
      netIncome,
      ebitda: money(operatingIncome + revenue * d.between(0.02, 0.08, 15)),
      basicEps: round2(netIncome / (shares * 0.995)),
      dilutedEps,
      dilutedAverageShares: shares,
      totalAssets,
      currentAssets: money(totalAssets * d.between(0.2, 0.45, 16)),
      cashAndCashEquivalents: money(totalAssets * d.between(0.04, 0.2, 17) * noise(7, 0.2)),
      totalLiabilitiesNetMinorityInterest: totalAssets - stockholdersEquity,
      currentLiabilities: money(totalAssets * d.between(0.15, 0.35, 18)),
      totalDebt: money(totalAssets * d.between(0.05, 0.35, 19)),
      stockholdersEquity,
      operatingCashFlow,
      investingCashFlow,
      financingCashFlow: cashDividendsPaid + repurchaseOfCapitalStock + money(revenue * 0.02 * (d.periodUnit(8, fiscalYear, quarter) - 0.5)),
      capitalExpenditure,
      freeCashFlow: operatingCashFlow + capitalExpenditure,
      cashDividendsPaid,
      repurchaseOfCapitalStock,
    };
  }
}

const FLOW_KEYS = [
  'totalRevenue',
  'costOfRevenue',
  'grossProfit',
  'operatingExpense',
  'operatingIncome',
  'pretaxIncome',
  'taxProvision',
  'netIncome',
  'ebitda',
  'basicEps',
  'dilutedEps',
  'operatingCashFlow',
  'investingCashFlow',
  'financingCashFlow',
  'capitalExpenditure',
  'freeCashFlow',
  'cashDividendsPaid',
  'repurchaseOfCapitalStock',
] as const;

function trailing(quarters: PeriodFigures[]): PeriodFigures {
  const last4 = quarters.slice(0, 4);
  const sums = Object.fromEntries(FLOW_KEYS.map((key) => [key, last4.reduce((sum, q) => sum + q[key], 0)]));
  return { ...quarters[0], ...sums, basicEps: round2(sums.basicEps), dilutedEps: round2(sums.dilutedEps), fiscalQuarter: 0 };
}

/** [year, month] of the last `count` period ends (every `months` months, aligned on the fiscal year end) on or before `until`. */
function periodEnds(yearEndMonth: number, months: number, until: number, count: number): [number, number][] {
  const date = new Date(until);
  let year = date.getUTCFullYear();
  let month = date.getUTCMonth() + 1;
  if (date.getUTCDate() < lastDay(year, month)) month -= 1;
  const ends: [number, number][] = [];
  for (let guard = 0; ends.length < count && guard < 12 * (count + 2); guard++) {
    if (month < 1) [year, month] = [year - 1, month + 12];
    if ((yearEndMonth - month + 12) % months === 0) ends.push([year, month]);
    month -= 1;
  }
  return ends;
}

function lastDay(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

function pad(month: number): string {
  return String(month).padStart(2, '0');
}

/** Accounts are reported in whole thousands, large ones in millions. */
function money(value: number): number {
  const unitSize = Math.abs(value) >= 1e9 ? 1e6 : 1e3;
  return Math.round(value / unitSize) * unitSize;
}

function round2(value: number): number {
  return Math.round(value * 100) / 100;
}

/** USD value of one unit of the listing's currency at a fixed instant, so pay and size tiers do not wander with FX. */
export function usdPerUnitFixed(book: MarketBook, currency: string): number {
  try {
    return book.usdPerUnit(currency, Date.UTC(2025, 0, 2));
  } catch {
    return 1;
  }
}
