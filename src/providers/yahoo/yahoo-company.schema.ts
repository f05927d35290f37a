import { Fields } from '../kit/schema-reader';
import { dateOrNull } from './yahoo-dates';
import { decimalOrNull, textOrNull, yahooReader } from './yahoo-values';

/**
 * The quoteSummary modules about a company's people and holders. Rows without the text that identifies them
 * (an officer's or holder's name, a trade's date) are left out rather than failing the whole module: one odd
 * row should not empty a section.
 */
export interface YahooOfficer {
  name: string;
  title: string | null;
  age: string | null;
  yearBorn: string | null;
  /** The fiscal year the pay is reported for. */
  fiscalYear: string | null;
  totalPay: string | null;
}

export interface YahooAssetProfile {
  sector: string | null;
  industry: string | null;
  country: string | null;
  website: string | null;
  fullTimeEmployees: string | null;
  officers: YahooOfficer[];
}

/** One row of institutionOwnership or fundOwnership; fractions as Yahoo sends them (0.0929 = 9.29 %). */
export interface YahooOwnershipRow {
  organization: string;
  pctHeld: string | null;
  pctChange: string | null;
  position: string | null;
  value: string | null;
  /** YYYY-MM-DD. */
  reportDate: string | null;
}

export interface YahooOwnership {
  holders: YahooOwnershipRow[];
}

export interface YahooInsiderRow {
  filerName: string;
  filerRelation: string | null;
  /** Yahoo's wording ("Sale at price 226.35 per share."); null when it sends an empty text. */
  transactionText: string | null;
  shares: string | null;
  value: string | null;
  /** YYYY-MM-DD of the trade. */
  startDate: string;
  /** D direct, I indirect. */
  ownership: string | null;
}

export interface YahooInsiderTransactions {
  transactions: YahooInsiderRow[];
}

function rows<T>(fields: Fields, key: string, parse: (row: Fields) => T | null): T[] {
  if (!fields.has(key)) return [];
  return fields.array(key, (item, path) => parse(yahooReader.asObject(item, path))).filter((row): row is T => row !== null);
}

export function parseAssetProfile(fields: Fields): YahooAssetProfile {
  const raw = fields.raw;
  return {
    sector: textOrNull(raw.sector),
    industry: textOrNull(raw.industry),
    country: textOrNull(raw.country),
    website: textOrNull(raw.website),
    fullTimeEmployees: decimalOrNull(raw.fullTimeEmployees),
    officers: rows(fields, 'companyOfficers', parseOfficer),
  };
}

function parseOfficer(row: Fields): YahooOfficer | null {
  const name = textOrNull(row.raw.name);
  if (name === null) return null;
  return {
    // Yahoo pads some names with double spaces ("Mr. Kevan  Parekh").
    name: name.replace(/\s+/g, ' ').trim(),
    title: textOrNull(row.raw.title),
    age: decimalOrNull(row.raw.age),
    yearBorn: decimalOrNull(row.raw.yearBorn),
    fiscalYear: decimalOrNull(row.raw.fiscalYear),
    totalPay: decimalOrNull(row.raw.totalPay),
  };
}

export function parseOwnership(fields: Fields): YahooOwnership {
  return { holders: rows(fields, 'ownershipList', parseOwnershipRow) };
}

function parseOwnershipRow(row: Fields): YahooOwnershipRow | null {
  const organization = textOrNull(row.raw.organization);
  if (organization === null) return null;
  const raw = row.raw;
  return {
    organization,
    pctHeld: decimalOrNull(raw.pctHeld),
    pctChange: decimalOrNull(raw.pctChange),
    position: decimalOrNull(raw.position),
    value: decimalOrNull(raw.value),
    reportDate: dateOrNull(raw.reportDate),
  };
}

export function parseInsiderTransactions(fields: Fields): YahooInsiderTransactions {
  return { transactions: rows(fields, 'transactions', parseInsiderRow) };
}

function parseInsiderRow(row: Fields): YahooInsiderRow | null {
  const raw = row.raw;
  const filerName = textOrNull(raw.filerName);
  const startDate = dateOrNull(raw.startDate);
  if (filerName === null || startDate === null) return null;
  return {
    filerName,
    filerRelation: textOrNull(raw.filerRelation),
    transactionText: textOrNull(raw.transactionText),
    shares: decimalOrNull(raw.shares),
    value: decimalOrNull(raw.value),
    startDate,
    ownership: textOrNull(raw.ownership),
  };
}
