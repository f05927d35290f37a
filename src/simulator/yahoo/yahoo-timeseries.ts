import { companyFacts, PeriodFigures } from '../world/company-facts';
import { MarketBook } from '../world/market-book';
import { stringHash } from '../world/prng';
import { seriesFmt } from './raw-fmt';

const YEAR_S = 365 * 86_400;
/** Yahoo's period types: annual and quarterly (TTM series are not served). */
const PERIODS = { annual: { key: 'annual', periodType: '12M' }, quarterly: { key: 'quarterly', periodType: '3M' } } as const;

type Figure = Exclude<keyof PeriodFigures, 'periodEnd' | 'fiscalYear' | 'fiscalQuarter'>;

/** Yahoo's name of each line the world's accounts have (the type without its `annual`/`quarterly` prefix). */
const LINES: Record<string, Figure> = {
  TotalRevenue: 'totalRevenue',
  OperatingRevenue: 'totalRevenue',
  CostOfRevenue: 'costOfRevenue',
  GrossProfit: 'grossProfit',
  OperatingExpense: 'operatingExpense',
  OperatingIncome: 'operatingIncome',
  PretaxIncome: 'pretaxIncome',
  TaxProvision: 'taxProvision',
  NetIncome: 'netIncome',
  NetIncomeCommonStockholders: 'netIncome',
  EBITDA: 'ebitda',
  BasicEPS: 'basicEps',
  DilutedEPS: 'dilutedEps',
  DilutedAverageShares: 'dilutedAverageShares',
  TotalAssets: 'totalAssets',
  CurrentAssets: 'currentAssets',
  CashAndCashEquivalents: 'cashAndCashEquivalents',
  TotalLiabilitiesNetMinorityInterest: 'totalLiabilitiesNetMinorityInterest',
  CurrentLiabilities: 'currentLiabilities',
  TotalDebt: 'totalDebt',
  StockholdersEquity: 'stockholdersEquity',
  OperatingCashFlow: 'operatingCashFlow',
  InvestingCashFlow: 'investingCashFlow',
  FinancingCashFlow: 'financingCashFlow',
  CapitalExpenditure: 'capitalExpenditure',
  FreeCashFlow: 'freeCashFlow',
  CashDividendsPaid: 'cashDividendsPaid',
  RepurchaseOfCapitalStock: 'repurchaseOfCapitalStock',
};

export interface TimeseriesRequest {
  types: string[];
  /** Unix seconds; periods ending outside [period1, period2] are left out. */
  period1: number | null;
  period2: number | null;
}

function seconds(isoDate: string): number {
  return Date.parse(`${isoDate}T00:00:00Z`) / 1000;
}

/**
 * `/ws/fundamentals-timeseries/v1/finance/timeseries/{symbol}?type=annualTotalRevenue,...&period1&period2`: one
 * result per asked type, in the order asked, each `{meta, timestamp, <type>: [points oldest first]}`. A type
 * with no figures (unknown, TTM, a fund's or an unknown symbol's) comes with `meta` only, as Yahoo sends it.
 */
export function timeseries(book: MarketBook, symbol: string, request: TimeseriesRequest, t: number): unknown {
  const listing = book.listing(symbol);
  const facts = listing?.type === 'EQUITY' ? companyFacts(listing, t) : null;
  const nowS = Math.floor(t / 1000);
  const from = request.period1 ?? nowS - 5 * YEAR_S;
  const to = request.period2 ?? nowS;
  const result = [...new Set(request.types)].map((type) => {
    const meta = { symbol: [symbol], type: [type] };
    const period = type.startsWith(PERIODS.annual.key) ? PERIODS.annual : type.startsWith(PERIODS.quarterly.key) ? PERIODS.quarterly : null;
    const figure = period ? LINES[type.slice(period.key.length)] : undefined;
    if (!facts || !period || !figure) return { meta };
    const periods = (period === PERIODS.annual ? facts.annual : facts.quarterly)
      .filter((figures) => seconds(figures.periodEnd) >= from && seconds(figures.periodEnd) <= to)
      .reverse();
    if (periods.length === 0) return { meta };
    const dataId = 20_000 + (stringHash(type.slice(period.key.length)) % 10_000);
    return {
      meta,
      timestamp: periods.map((figures) => seconds(figures.periodEnd)),
      [type]: periods.map((figures) => ({
        dataId,
        asOfDate: figures.periodEnd,
        periodType: period.periodType,
        currencyCode: facts.currency,
        reportedValue: { raw: figures[figure], fmt: seriesFmt(figures[figure]) },
      })),
    };
  });
  return { timeseries: { result, error: null } };
}
