import { AnalystRatings, CompanyProfile, FinancialStatement, Holding, SectionFailure, StockFundamentals } from '../../providers/equities-provider';
import type { AssetRow } from '../markets/asset-row';
import { COUNTRY_OF_MARKET, numberOrNull } from '../markets/asset-types';
import { toUsd } from '../markets/usd-rates';
import type { CompanyPeopleDto } from './dto/company.dto';
import type { AnalystRatingDto, FinancialStatementDto, FundamentalsOverviewDto } from './dto/fundamentals.dto';
import type { SectionErrorDto, StockAssetDto } from './dto/stock-blocks.dto';

const RATING_LABELS = { strongBuy: 'Strong Buy', buy: 'Buy', hold: 'Hold', sell: 'Sell', strongSell: 'Strong Sell' } as const;
/** USD prices keep more places than cents: a won-priced share is a fraction of a dollar apart from its neighbours. */
const USD_PRICE_DECIMALS = 6;

/** The contract's stock asset block from a catalogue row (strings; empty when unknown). */
export function toStockAsset(row: AssetRow): StockAssetDto {
  return {
    id: row.id,
    symbol: row.symbol,
    stockCode: row.stockCode ?? `${row.symbol}-${row.market}`,
    displaySymbol: row.yahooSymbol ?? row.symbol,
    name: row.name,
    market: row.market ?? '',
    currency: row.currency ?? 'USD',
    sector: row.sector ?? '',
    industry: row.industry ?? '',
    country: row.market ? (COUNTRY_OF_MARKET[row.market] ?? '') : '',
  };
}

export function toSectionErrors(failures: SectionFailure[]): SectionErrorDto[] {
  return failures.map(({ section, endpoint, message }) => ({ section, endpoint, message }));
}

export function toFundamentalsOverview(fundamentals: StockFundamentals, rates: ReadonlyMap<string, string>): FundamentalsOverviewDto {
  const { quote } = fundamentals;
  return {
    quote: quote && {
      price: numberOrNull(quote.price),
      priceUsd: numberOrNull(toUsd(quote.price, quote.currency, rates, USD_PRICE_DECIMALS)),
      change: numberOrNull(quote.change),
      changePercent: numberOrNull(quote.changePercent),
      high: numberOrNull(quote.high),
      low: numberOrNull(quote.low),
      timestamp: quote.priceUpdatedAt,
    },
    overviewMetrics: fundamentals.metrics.map(({ key, label, value, currency }) => ({
      key,
      label,
      value,
      valueUsd: currency === null ? '' : (toUsd(value, currency, rates) ?? ''),
    })),
    analystRatings: toRatings(fundamentals.analystRatings),
  };
}

export function toStatements(statements: FinancialStatement[]): FinancialStatementDto[] {
  return statements.map(({ periodEnd, fiscalPeriod, periodType, currency, lineItems }) => ({ periodEnd, fiscalPeriod, periodType, currency, lineItems }));
}

/** The company's people and holders as the contract's all-string rows; money converted to USD at the catalogue's FX quotes. */
export function toCompanyPeople(profile: CompanyProfile, rates: ReadonlyMap<string, string>): CompanyPeopleDto {
  return {
    executives: profile.executives.map((e) => ({
      name: e.name,
      role: e.role,
      age: e.age ?? '',
      since: e.since ?? '',
      compensation: e.compensation ?? '',
      compensationUsd: toUsd(e.compensation, e.currency, rates) ?? '',
    })),
    shareholders: profile.shareholders.map((h) => ({ name: h.name, stake: h.stake, change: h.change ?? '', reportedAt: h.reportedAt ?? '' })),
    funds: profile.funds.map((h: Holding) => ({ name: h.name, stake: h.stake, change: h.change ?? '', weight: h.weight ?? '' })),
    insiderTransactions: profile.insiderTransactions.map((t) => ({
      name: t.name,
      transactionDate: t.transactionDate,
      filingDate: t.filingDate ?? '',
      transactionCode: t.transactionCode ?? '',
      shares: t.shares ?? '',
      change: t.change ?? '',
      price: t.price ?? '',
      value: t.value ?? '',
    })),
  };
}

function toRatings(ratings: AnalystRatings | null): AnalystRatingDto[] {
  if (ratings === null) return [];
  const rows: AnalystRatingDto[] = ratings.counts
    ? Object.entries(RATING_LABELS).map(([key, label]) => ({ label, value: ratings.counts![key as keyof typeof RATING_LABELS] }))
    : [];
  if (ratings.consensus !== null) rows.push({ label: 'Consensus', value: ratings.consensus });
  if (ratings.targetMeanPrice !== null) rows.push({ label: 'Target Price', value: ratings.targetMeanPrice });
  if (ratings.analysts !== null) rows.push({ label: 'Analysts', value: ratings.analysts });
  return rows;
}
