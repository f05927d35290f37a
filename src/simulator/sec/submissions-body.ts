import { paddedCik, SecRegistrant } from '../world/sec-registrants';
import { FilingHistory, SimFiling } from './filing-history';

const DAY_MS = 86_400_000;
/** SEC's recent block: the last year or the last 1,000 filings, whichever is more. */
export const RECENT_AT_LEAST = 1_000;
/** Filings per older page; SEC's pages hold about this many (Apple's -001 holds 1,206). */
export const PAGE_SIZE = 1_000;
/** Every column of a real submissions row, in SEC's order. */
const COLUMNS: readonly (keyof SimFiling)[] = [
  'accessionNumber',
  'filingDate',
  'reportDate',
  'acceptanceDateTime',
  'act',
  'form',
  'fileNumber',
  'filmNumber',
  'items',
  'core_type',
  'size',
  'isXBRL',
  'isInlineXBRL',
  'primaryDocument',
  'primaryDocDescription',
];
/** SIC code, its description and SEC's reviewing office, by the listing's sector. */
// prettier-ignore
const SIC_BY_SECTOR: Record<string, [string, string, string]> = {
  Technology: ['7372', 'Services-Prepackaged Software', '06 Technology'],
  'Communication Services': ['7370', 'Services-Computer Programming, Data Processing, Etc.', '06 Technology'],
  'Financial Services': ['6022', 'State Commercial Banks', '02 Finance'],
  Healthcare: ['2834', 'Pharmaceutical Preparations', '03 Life Sciences'],
  Energy: ['2911', 'Petroleum Refining', '01 Energy & Transportation'],
  'Consumer Cyclical': ['5961', 'Retail-Catalog & Mail-Order Houses', '07 Trade & Services'],
  'Consumer Defensive': ['2080', 'Beverages', '04 Manufacturing'],
  Industrials: ['3720', 'Aircraft & Parts', '04 Manufacturing'],
  'Basic Materials': ['2800', 'Chemicals & Allied Products', '08 Industrial Applications and Services'],
  'Real Estate': ['6798', 'Real Estate Investment Trusts', '05 Real Estate & Construction'],
  Utilities: ['4911', 'Electric Services', '01 Energy & Transportation'],
};
const CITIES = [
  ['NEW YORK', 'NY', '10017', '(212)'],
  ['SANTA CLARA', 'CA', '95054', '(408)'],
  ['SEATTLE', 'WA', '98109', '(206)'],
  ['CHICAGO', 'IL', '60606', '(312)'],
  ['HOUSTON', 'TX', '77002', '(713)'],
  ['BOSTON', 'MA', '02210', '(617)'],
];

/** The recent block and the older pages, newest first: page 001 continues where the recent block ends. */
export interface SplitHistory {
  recent: SimFiling[];
  pages: SimFiling[][];
}

export function splitHistory(filings: readonly SimFiling[], now: number): SplitHistory {
  const yearAgo = new Date(now - 365 * DAY_MS).toISOString().slice(0, 10);
  const lastYear = filings.filter((filing) => filing.filingDate >= yearAgo).length;
  const recentCount = Math.min(filings.length, Math.max(RECENT_AT_LEAST, lastYear));
  const pages: SimFiling[][] = [];
  for (let at = recentCount; at < filings.length; at += PAGE_SIZE) pages.push(filings.slice(at, at + PAGE_SIZE));
  return { recent: filings.slice(0, recentCount), pages };
}

/** "CIK0000320193-submissions-001.json". */
export function pageName(cik: number, index: number): string {
  return `CIK${paddedCik(cik)}-submissions-${String(index + 1).padStart(3, '0')}.json`;
}

/** Filings as SEC sends them: one array per column, zipped by index. */
export function columnsOf(filings: readonly SimFiling[]): Record<string, Array<string | number>> {
  return Object.fromEntries(COLUMNS.map((column) => [column, filings.map((filing) => filing[column])]));
}

/** submissions/CIK##########.json: the entity header of the real documents, the recent block and the pages list. */
export function submissionsBody(registrant: SecRegistrant, history: FilingHistory, split: SplitHistory): unknown {
  const [sic, sicDescription, ownerOrg] = SIC_BY_SECTOR[registrant.sector ?? ''] ?? ['6770', 'Blank Checks', '05 Real Estate & Construction'];
  const [city, state, zipCode, areaCode] = CITIES[registrant.seed % CITIES.length];
  const address = {
    street1: `${100 + (registrant.seed % 900)} ${['MARKET', 'MAIN', 'PARK', 'RIVER'][registrant.seed % 4]} STREET`,
    street2: null,
    city,
    stateOrCountry: state,
    zipCode,
    stateOrCountryDescription: state,
    isForeignLocation: 0,
    foreignStateTerritory: null,
    country: null,
    countryCode: null,
  };
  return {
    cik: paddedCik(registrant.cik),
    entityType: 'operating',
    sic,
    sicDescription,
    ownerOrg,
    insiderTransactionForOwnerExists: 0,
    insiderTransactionForIssuerExists: 1,
    name: registrant.name,
    tickers: registrant.tickers,
    exchanges: registrant.exchanges,
    ein: String(100_000_000 + (registrant.seed % 899_999_999)).slice(0, 9),
    lei: null,
    description: '',
    website: '',
    investorWebsite: '',
    category: 'Large accelerated filer',
    fiscalYearEnd: history.fiscalYearEnd,
    stateOfIncorporation: 'DE',
    stateOfIncorporationDescription: 'DE',
    addresses: { mailing: address, business: address },
    phone: `${areaCode} ${String(200 + (registrant.seed % 800))}-${String(1000 + (registrant.seed % 9000))}`,
    flags: '',
    formerNames: [],
    filings: {
      recent: columnsOf(split.recent),
      files: split.pages.map((page, index) => ({
        name: pageName(registrant.cik, index),
        filingCount: page.length,
        filingFrom: page[page.length - 1].filingDate,
        filingTo: page[0].filingDate,
      })),
    },
  };
}

/** files/company_tickers.json: one entry per ticker, largest registrants first, keyed "0", "1", ... */
export function companyTickersBody(registrants: readonly SecRegistrant[]): Record<string, { cik_str: number; ticker: string; title: string }> {
  const entries = registrants.flatMap((registrant) => registrant.tickers.map((ticker) => ({ cik_str: registrant.cik, ticker, title: registrant.name })));
  return Object.fromEntries(entries.map((entry, index) => [String(index), entry]));
}
