import { Fields } from '../kit/schema-reader';
import {
  parseAssetProfile,
  parseInsiderTransactions,
  parseOwnership,
  YahooAssetProfile,
  YahooInsiderTransactions,
  YahooOwnership,
} from './yahoo-company.schema';
import {
  parseFinancialData,
  parseKeyStatistics,
  parsePriceModule,
  parseRecommendationTrend,
  parseSummaryDetail,
  YahooFinancialData,
  YahooKeyStatistics,
  YahooPriceModule,
  YahooRecommendationTrend,
  YahooSummaryDetail,
} from './yahoo-key-statistics.schema';
import { throwOnBodyError, yahooReader } from './yahoo-values';

/** The quoteSummary modules this client reads, each with its parsed shape. */
export interface YahooQuoteSummaryModules {
  price: YahooPriceModule;
  summaryDetail: YahooSummaryDetail;
  defaultKeyStatistics: YahooKeyStatistics;
  financialData: YahooFinancialData;
  recommendationTrend: YahooRecommendationTrend;
  assetProfile: YahooAssetProfile;
  institutionOwnership: YahooOwnership;
  fundOwnership: YahooOwnership;
  insiderTransactions: YahooInsiderTransactions;
}

export type YahooQuoteSummaryModule = keyof YahooQuoteSummaryModules;

/** Each requested module, or null when Yahoo has none for the symbol (it leaves such modules out). */
export type YahooQuoteSummary<K extends YahooQuoteSummaryModule = YahooQuoteSummaryModule> = { [M in K]: YahooQuoteSummaryModules[M] | null };

const MODULE_PARSERS: { [M in YahooQuoteSummaryModule]: (fields: Fields) => YahooQuoteSummaryModules[M] } = {
  price: parsePriceModule,
  summaryDetail: parseSummaryDetail,
  defaultKeyStatistics: parseKeyStatistics,
  financialData: parseFinancialData,
  recommendationTrend: parseRecommendationTrend,
  assetProfile: parseAssetProfile,
  institutionOwnership: parseOwnership,
  fundOwnership: parseOwnership,
  insiderTransactions: parseInsiderTransactions,
};

/**
 * `{quoteSummary: {result: [{<module>: {...}}], error}}`. Modules not asked for are ignored, and an asked
 * module the body lacks is null (Yahoo omits what it has not got: a fund has no financialData). Within a
 * module, figures are tolerant and only a wrong structure (a list that is not an array) is a shape error.
 */
export function parseQuoteSummary<K extends YahooQuoteSummaryModule>(json: unknown, modules: readonly K[], label = 'quoteSummary'): YahooQuoteSummary<K> {
  const body = yahooReader.asObject(json, label);
  if (body.has('finance')) throwOnBodyError(body.object('finance'), label);
  const summary = body.object('quoteSummary');
  throwOnBodyError(summary, label);
  const results = summary.has('result') ? yahooReader.asArray(summary.raw.result, summary.at('result')) : [];
  const result = results.length === 0 ? null : yahooReader.asObject(results[0], `${summary.at('result')}[0]`);
  const parsed = {} as YahooQuoteSummary<K>;
  for (const module of modules) {
    const fields = result?.objectOrNull(module) ?? null;
    parsed[module] = (fields === null ? null : MODULE_PARSERS[module](fields)) as YahooQuoteSummary<K>[K];
  }
  return parsed;
}
