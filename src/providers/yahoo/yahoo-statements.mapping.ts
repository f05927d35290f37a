import { FinancialStatement } from '../equities-provider';
import { YahooTimeseries } from './yahoo-timeseries.schema';

export type StatementName = 'incomeStatement' | 'balanceSheet' | 'cashFlowStatement';

/** Yahoo's time-series name of a line (without the `annual`/`quarterly` prefix) and our line-item key. */
type Line = readonly [yahooType: string, key: string];

/**
 * The statement lines read from the fundamentals time series (the quoteSummary statement modules have been
 * nearly empty since 2024). Keys are Yahoo's names in lower camel case, acronyms as words (`dilutedEps`).
 */
export const STATEMENT_LINES: Record<StatementName, readonly Line[]> = {
  incomeStatement: [
    ['TotalRevenue', 'totalRevenue'],
    ['CostOfRevenue', 'costOfRevenue'],
    ['GrossProfit', 'grossProfit'],
    ['OperatingExpense', 'operatingExpense'],
    ['OperatingIncome', 'operatingIncome'],
    ['PretaxIncome', 'pretaxIncome'],
    ['TaxProvision', 'taxProvision'],
    ['NetIncome', 'netIncome'],
    ['EBITDA', 'ebitda'],
    ['BasicEPS', 'basicEps'],
    ['DilutedEPS', 'dilutedEps'],
    ['DilutedAverageShares', 'dilutedAverageShares'],
  ],
  balanceSheet: [
    ['TotalAssets', 'totalAssets'],
    ['CurrentAssets', 'currentAssets'],
    ['CashAndCashEquivalents', 'cashAndCashEquivalents'],
    ['TotalLiabilitiesNetMinorityInterest', 'totalLiabilitiesNetMinorityInterest'],
    ['CurrentLiabilities', 'currentLiabilities'],
    ['TotalDebt', 'totalDebt'],
    ['StockholdersEquity', 'stockholdersEquity'],
  ],
  cashFlowStatement: [
    ['OperatingCashFlow', 'operatingCashFlow'],
    ['InvestingCashFlow', 'investingCashFlow'],
    ['FinancingCashFlow', 'financingCashFlow'],
    ['CapitalExpenditure', 'capitalExpenditure'],
    ['FreeCashFlow', 'freeCashFlow'],
    ['CashDividendsPaid', 'cashDividendsPaid'],
    ['RepurchaseOfCapitalStock', 'repurchaseOfCapitalStock'],
  ],
};

type PeriodType = FinancialStatement['periodType'];
/** Yahoo prefixes each line's name with its period type: `annualTotalRevenue`, `quarterlyTotalRevenue`. */
const PERIOD_TYPES: readonly PeriodType[] = ['annual', 'quarterly'];
/** Used when the answer has no annual period to take the fiscal year's end from. */
const CALENDAR_YEAR_END_MONTH = 12;

const LINE_BY_TYPE: ReadonlyMap<string, { statement: StatementName; key: string; periodType: PeriodType }> = new Map(
  (Object.entries(STATEMENT_LINES) as [StatementName, readonly Line[]][]).flatMap(([statement, lines]) =>
    lines.flatMap(([yahooType, key]) => PERIOD_TYPES.map((periodType) => [`${periodType}${yahooType}`, { statement, key, periodType }] as const)),
  ),
);

/** Every time-series type to ask for: each line, annual and quarterly. */
export const STATEMENT_TYPES: readonly string[] = [...LINE_BY_TYPE.keys()];

export type Statements = Record<StatementName, FinancialStatement[]>;

/**
 * The time series grouped into one entry per statement, period type and period end, newest first (at the same
 * end, the year before its last quarter). Currency is the series' own. Fiscal periods are named by the year
 * they end in (`FY2024` ends in 2024); a quarter is numbered back from the fiscal year's last month, which
 * the latest annual period gives (December when there is none): with years ending in September, the quarter
 * ending in December 2024 is `Q1 FY2025`.
 */
export function toStatements(series: readonly YahooTimeseries[]): Statements {
  const groups: Record<StatementName, Map<string, FinancialStatement>> = { incomeStatement: new Map(), balanceSheet: new Map(), cashFlowStatement: new Map() };
  const yearEndMonth = fiscalYearEndMonth(series);
  for (const { type, points } of series) {
    const line = LINE_BY_TYPE.get(type);
    if (!line) continue;
    for (const point of points) {
      const id = `${line.periodType}:${point.asOfDate}`;
      let statement = groups[line.statement].get(id);
      if (!statement) {
        const fiscalPeriod = fiscalPeriodOf(point.asOfDate, line.periodType, yearEndMonth);
        statement = { periodEnd: point.asOfDate, fiscalPeriod, periodType: line.periodType, currency: point.currency, lineItems: {} };
        groups[line.statement].set(id, statement);
      }
      statement.currency ??= point.currency;
      statement.lineItems[line.key] = point.value;
    }
  }
  const sorted = (name: StatementName) => [...groups[name].values()].sort(newestFirst).map((statement) => inLineOrder(statement, STATEMENT_LINES[name]));
  return { incomeStatement: sorted('incomeStatement'), balanceSheet: sorted('balanceSheet'), cashFlowStatement: sorted('cashFlowStatement') };
}

/** Line items in STATEMENT_LINES order, whatever order Yahoo sent the series in. */
function inLineOrder(statement: FinancialStatement, lines: readonly Line[]): FinancialStatement {
  const lineItems: Record<string, string> = {};
  for (const [, key] of lines) if (key in statement.lineItems) lineItems[key] = statement.lineItems[key];
  return { ...statement, lineItems };
}

function newestFirst(a: FinancialStatement, b: FinancialStatement): number {
  if (a.periodEnd !== b.periodEnd) return a.periodEnd < b.periodEnd ? 1 : -1;
  return a.periodType === b.periodType ? 0 : a.periodType === 'annual' ? -1 : 1;
}

function fiscalYearEndMonth(series: readonly YahooTimeseries[]): number {
  let latest: string | null = null;
  for (const { type, points } of series) {
    if (LINE_BY_TYPE.get(type)?.periodType !== 'annual') continue;
    for (const { asOfDate } of points) if (latest === null || asOfDate > latest) latest = asOfDate;
  }
  return latest === null ? CALENDAR_YEAR_END_MONTH : monthOf(latest);
}

function fiscalPeriodOf(periodEnd: string, periodType: PeriodType, yearEndMonth: number): string {
  const year = Number(periodEnd.slice(0, 4));
  if (periodType === 'annual') return `FY${year}`;
  const month = monthOf(periodEnd);
  // Quarters left until the fiscal year ends: 0 for its last quarter. Rounded, as 52-53 week years end a few days off the month.
  const quartersLeft = Math.round((((yearEndMonth - month + 12) % 12) / 3) % 4);
  const fiscalYear = month + quartersLeft * 3 > 12 ? year + 1 : year;
  return `Q${4 - quartersLeft} FY${fiscalYear}`;
}

function monthOf(isoDate: string): number {
  return Number(isoDate.slice(5, 7));
}
