export const SEC_EDGAR_PROVIDER = 'sec-edgar';

/** A company SEC knows: its Central Index Key, zero-padded to 10 digits as data.sec.gov names files, and its name. */
export interface SecRegistrant {
  cik: string;
  name: string;
}

/** One row of company_tickers.json; one CIK may list several tickers (share classes, preferreds). */
export interface SecCompanyTicker extends SecRegistrant {
  ticker: string;
}

/** One filing of a submissions document: the columns we read, zipped by index. */
export interface SecFilingRow {
  /** "0000320193-25-000079"; without dashes it names the filing's folder under /Archives. */
  accessionNumber: string;
  /** YYYY-MM-DD. */
  filingDate: string;
  /** ISO-8601 UTC; it may fall on the evening before filingDate. Empty when SEC sends none. */
  acceptanceDateTime: string;
  /** "10-K", "8-K", "4", "DEF 14A", ... as SEC spells it. */
  form: string;
  /** Path of the main document inside the filing's folder; Form 3/4/5 carry an XSL prefix that renders them as HTML. */
  primaryDocument: string;
  /** Often empty (144, SC 13G/A). */
  primaryDocDescription: string;
  /** 8-K item codes, "2.02,9.01"; empty for other forms. */
  items: string;
}

/** An older page of a registrant's filings, named in `filings.files`: fetched with submissionsFile(name). */
export interface SecSubmissionsPage {
  /** "CIK0000320193-submissions-001.json". */
  name: string;
  filingCount: number;
  /** YYYY-MM-DD, the page's oldest and newest filingDate. */
  filingFrom: string;
  filingTo: string;
}

/** data.sec.gov/submissions/CIK##########.json: the registrant, its recent filings (newest first) and older pages. */
export interface SecSubmissions {
  cik: string;
  name: string;
  tickers: string[];
  /** At least the last year or the last 1,000 filings, whichever is more. */
  recent: SecFilingRow[];
  files: SecSubmissionsPage[];
}
