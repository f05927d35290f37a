import { Fields, SchemaReader } from '../kit/schema-reader';
import { SEC_EDGAR_PROVIDER, SecCompanyTicker, SecFilingRow, SecSubmissions, SecSubmissionsPage } from './sec-edgar.types';

/** The shape checks of SEC's documents: their errors name the provider. */
const { asObject, asString, asInteger, expected, shapeError } = new SchemaReader(SEC_EDGAR_PROVIDER);

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const ACCESSION = /^\d{10}-\d{2}-\d{6}$/;
const CIK_DIGITS = /^\d{1,10}$/;
/** Only names of this form go into a URL: a page name is SEC's text, not ours. */
export const SUBMISSIONS_PAGE_NAME = /^CIK\d{10}-submissions-\d{3}\.json$/;

/** A CIK as SEC writes it (a number in company_tickers, a padded string in submissions), padded to 10 digits. */
export function asCik(value: unknown, path: string): string {
  const text = typeof value === 'number' ? String(value) : value;
  if (typeof text !== 'string' || !CIK_DIGITS.test(text) || Number(text) === 0) throw expected(path, 'CIK', value);
  return text.padStart(10, '0');
}

/** company_tickers.json: `{"0": {"cik_str": 320193, "ticker": "AAPL", "title": "Apple Inc."}, ...}`, roughly by size. */
export function parseCompanyTickers(json: unknown): SecCompanyTicker[] {
  const root = asObject(json, 'company_tickers');
  return Object.keys(root.raw).map((key) => {
    const entry = root.object(key);
    return { ticker: entry.string('ticker').toUpperCase(), cik: asCik(entry.raw.cik_str, entry.at('cik_str')), name: entry.string('title') };
  });
}

/** submissions/CIK##########.json: the entity header we use, `filings.recent` and the list of older pages. */
export function parseSubmissions(json: unknown): SecSubmissions {
  const root = asObject(json, 'submissions');
  const filings = root.object('filings');
  return {
    cik: asCik(root.raw.cik, root.at('cik')),
    name: root.string('name'),
    // Entities without a listing send [] or null entries; neither is a ticker.
    tickers: root.has('tickers') ? root.array('tickers', (item, path) => (item === null ? '' : asString(item, path))).filter(Boolean) : [],
    recent: parseFilingColumns(filings.raw.recent, filings.at('recent')),
    files: filings.has('files') ? filings.array('files', parsePage) : [],
  };
}

/** An older page (CIK##########-submissions-001.json): the same column arrays at its top level, no entity header. */
export function parseSubmissionsPage(json: unknown): SecFilingRow[] {
  return parseFilingColumns(json, 'submissionsPage');
}

/** SEC sends filings as parallel column arrays; zipped by index, every column as long as accessionNumber. */
function parseFilingColumns(value: unknown, path: string): SecFilingRow[] {
  const columns = asObject(value, path);
  const accessionNumber = columns.array('accessionNumber', (item, itemPath) => matching(item, itemPath, ACCESSION, 'accession number'));
  const count = accessionNumber.length;
  const column = (key: string, parse: (item: unknown, itemPath: string) => string, optional = false): string[] => {
    if (optional && !columns.has(key)) return new Array<string>(count).fill('');
    const values = columns.array(key, parse);
    if (values.length !== count) throw shapeError(columns.at(key), `expected ${count} entries, as accessionNumber has, got ${values.length}`);
    return values;
  };
  const filingDate = column('filingDate', (item, itemPath) => matching(item, itemPath, DATE, 'YYYY-MM-DD date'));
  const acceptanceDateTime = column('acceptanceDateTime', asAcceptance);
  const form = column('form', asString);
  const primaryDocument = column('primaryDocument', asString);
  const primaryDocDescription = column('primaryDocDescription', asString, true);
  const items = column('items', asString, true);
  return accessionNumber.map((accession, i) => ({
    accessionNumber: accession,
    filingDate: filingDate[i],
    acceptanceDateTime: acceptanceDateTime[i],
    form: form[i],
    primaryDocument: primaryDocument[i],
    primaryDocDescription: primaryDocDescription[i],
    items: items[i],
  }));
}

function parsePage(item: unknown, path: string): SecSubmissionsPage {
  const page: Fields = asObject(item, path);
  return {
    name: matching(page.raw.name, page.at('name'), SUBMISSIONS_PAGE_NAME, 'submissions page name'),
    filingCount: asInteger(page.raw.filingCount, page.at('filingCount')),
    filingFrom: matching(page.raw.filingFrom, page.at('filingFrom'), DATE, 'YYYY-MM-DD date'),
    filingTo: matching(page.raw.filingTo, page.at('filingTo'), DATE, 'YYYY-MM-DD date'),
  };
}

function matching(value: unknown, path: string, pattern: RegExp, what: string): string {
  if (typeof value !== 'string' || !pattern.test(value)) throw expected(path, what, value);
  return value;
}

/** "2026-02-26T18:34:19.000Z" kept as ISO-8601 UTC; empty stays empty (some paper filings have none). */
function asAcceptance(value: unknown, path: string): string {
  const text = asString(value, path);
  if (text === '') return '';
  const at = Date.parse(text);
  if (Number.isNaN(at)) throw expected(path, 'timestamp', value);
  return new Date(at).toISOString();
}
