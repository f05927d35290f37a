import { Listing, MarketBook } from '../world/market-book';
import { assetProfileModule, fundOwnershipModule, insiderTransactionsModule, institutionOwnershipModule } from './summary-people-modules';
import {
  financialDataModule,
  keyStatisticsModule,
  priceModule,
  recommendationTrendModule,
  SummaryContext,
  summaryContext,
  summaryDetailModule,
} from './summary-stats-modules';

type ModuleBuilder = (context: SummaryContext) => Record<string, unknown> | null;

const forEquities =
  (build: (book: MarketBook, listing: Listing, t: number) => Record<string, unknown>): ModuleBuilder =>
  ({ book, listing, t }) =>
    listing.type === 'EQUITY' ? build(book, listing, t) : null;

/**
 * The modules served, and which listings have them: every listing has price and summaryDetail, funds add
 * key statistics and a profile without officers, only equities have accounts, analysts and holders. A
 * builder answering null is a module Yahoo leaves out of the result.
 */
const MODULES: ReadonlyMap<string, ModuleBuilder> = new Map(
  Object.entries({
    price: priceModule,
    summaryDetail: summaryDetailModule,
    defaultKeyStatistics: (context) => (context.listing.type === 'EQUITY' || context.listing.type === 'ETF' ? keyStatisticsModule(context) : null),
    financialData: financialDataModule,
    recommendationTrend: recommendationTrendModule,
    assetProfile: ({ book, listing, t }) => (listing.type === 'EQUITY' || listing.type === 'ETF' ? assetProfileModule(book, listing, t) : null),
    institutionOwnership: forEquities(institutionOwnershipModule),
    fundOwnership: forEquities(fundOwnershipModule),
    insiderTransactions: forEquities(insiderTransactionsModule),
  } satisfies Record<string, ModuleBuilder>),
);

export interface SummaryReply {
  status: number;
  body: unknown;
}

function failure(status: number, code: string, description: string): SummaryReply {
  return { status, body: { quoteSummary: { result: null, error: { code, description } } } };
}

/**
 * `/v10/finance/quoteSummary/{symbol}?modules=a,b`, as Yahoo answers it asked for unformatted figures (plain
 * numbers; lists keep their `{raw, fmt}`): the asked modules it has, in the order asked. No module asked is a
 * 400, an unknown symbol a 404, and a symbol with none of the asked modules (a fund's financialData) a 404 too.
 */
export function quoteSummary(book: MarketBook, symbol: string, modulesParam: string | null, t: number): SummaryReply {
  const asked = (modulesParam ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  if (asked.length === 0) return failure(400, 'Bad Request', 'Missing value for the "modules" argument');
  const listing = book.listing(symbol);
  if (!listing) return failure(404, 'Not Found', `Quote not found for symbol: ${symbol}`);
  const context = summaryContext(book, listing, t);
  const result: Record<string, unknown> = {};
  for (const name of new Set(asked)) {
    const module = MODULES.get(name)?.(context) ?? null;
    if (module !== null) result[name] = module;
  }
  if (Object.keys(result).length === 0) return failure(404, 'Not Found', `No fundamentals data found for any of the summaryTypes=${asked.join(',')}`);
  return { status: 200, body: { quoteSummary: { result: [result], error: null } } };
}
