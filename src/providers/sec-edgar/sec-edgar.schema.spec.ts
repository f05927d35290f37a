import { shapeErrorOf, vendorFixture } from '../../../test/support/vendor-fixtures';
import { asCik, parseCompanyTickers, parseSubmissions, parseSubmissionsPage } from './sec-edgar.schema';

const fixture = (name: string) => vendorFixture('sec-edgar', name);
const APPLE = 'submissions.CIK0000320193.json';
const TWO_HARBORS = 'submissions.CIK0001465740.json';

describe(parseCompanyTickers.name, () => {
  it('reads all 200 recorded entries in SEC order, CIKs padded to 10 digits', () => {
    const sut = parseCompanyTickers(fixture('company_tickers.excerpt-first-200.json'));
    expect(sut).toHaveLength(200);
    expect(sut.slice(0, 2)).toEqual([
      { ticker: 'MSFT', cik: '0000789019', name: 'MICROSOFT CORP' },
      { ticker: 'AAPL', cik: '0000320193', name: 'Apple Inc.' },
    ]);
    expect(sut.find((row) => row.ticker === 'BRK-B')).toEqual({ ticker: 'BRK-B', cik: '0001067983', name: 'BERKSHIRE HATHAWAY INC' });
    expect(sut.every((row) => /^\d{10}$/.test(row.cik))).toBe(true);
  });

  it('names the entry that is wrong', () => {
    const body = fixture('company_tickers.excerpt-first-200.json');
    body['7'].cik_str = 'TSM';
    expect(shapeErrorOf(() => parseCompanyTickers(body)).message).toBe('sec-edgar: company_tickers.7.cik_str: expected CIK, got string');
  });
});

describe(parseSubmissions.name, () => {
  it('zips every recent column of the complete Apple body by index, newest first', () => {
    const sut = parseSubmissions(fixture(APPLE));
    expect(sut).toMatchObject({ cik: '0000320193', name: 'Apple Inc.', tickers: ['AAPL'] });
    expect(sut.recent).toHaveLength(1005);
    expect(sut.recent[0]).toEqual({
      accessionNumber: '0001059235-26-000004',
      filingDate: '2026-02-26',
      acceptanceDateTime: '2026-02-26T18:34:19.000Z',
      form: '4',
      primaryDocument: 'xslF345X05/wk-form4_1772148856.xml',
      primaryDocDescription: 'FORM 4',
      items: '',
    });
    expect(sut.recent.find((row) => row.form === '10-K')).toMatchObject({
      accessionNumber: '0000320193-25-000079',
      filingDate: '2025-10-31',
      primaryDocument: 'aapl-20250927.htm',
    });
    expect(sut.recent.find((row) => row.items !== '')).toMatchObject({ form: '8-K', items: '5.07,9.01' });
    expect(sut.recent[sut.recent.length - 1].filingDate).toBe('2015-03-12');
    expect(sut.files).toEqual([{ name: 'CIK0000320193-submissions-001.json', filingCount: 1206, filingFrom: '1994-01-26', filingTo: '2015-03-11' }]);
  });

  it('keeps the five tickers Two Harbors lists on one CIK, and its exactly 1,000 recent rows', () => {
    const sut = parseSubmissions(fixture(TWO_HARBORS));
    expect(sut.cik).toBe('0001465740');
    expect(sut.tickers).toEqual(['TWO', 'TWO-PC', 'TWO-PB', 'TWO-PA', 'TWOD']);
    expect(sut.recent).toHaveLength(1000);
    expect(sut.files).toEqual([{ name: 'CIK0001465740-submissions-001.json', filingCount: 366, filingFrom: '2009-06-11', filingTo: '2013-02-10' }]);
  });

  it('refuses a column shorter than accessionNumber rather than shifting rows against each other', () => {
    const body = fixture(APPLE);
    body.filings.recent.form.pop();
    expect(shapeErrorOf(() => parseSubmissions(body)).message).toBe(
      'sec-edgar: submissions.filings.recent.form: expected 1005 entries, as accessionNumber has, got 1004',
    );
  });

  it('names a malformed date, accession or page name by its path', () => {
    const date = fixture(APPLE);
    date.filings.recent.filingDate[3] = '26/02/2026';
    expect(shapeErrorOf(() => parseSubmissions(date)).message).toContain('submissions.filings.recent.filingDate[3]: expected YYYY-MM-DD date');
    const accession = fixture(APPLE);
    accession.filings.recent.accessionNumber[0] = '000105923526000004';
    expect(shapeErrorOf(() => parseSubmissions(accession)).message).toContain('accessionNumber[0]: expected accession number');
    const page = fixture(APPLE);
    page.filings.files[0].name = '../../files/company_tickers.json';
    expect(shapeErrorOf(() => parseSubmissions(page)).message).toContain('submissions.filings.files[0].name: expected submissions page name');
  });

  it('reads a body without the optional description and items columns as empty text', () => {
    const body = fixture(TWO_HARBORS);
    delete body.filings.recent.items;
    delete body.filings.recent.primaryDocDescription;
    const [first] = parseSubmissions(body).recent;
    expect(first).toMatchObject({ items: '', primaryDocDescription: '' });
  });
});

describe(parseSubmissionsPage.name, () => {
  // No older page was recorded (SOURCES.md); SEC documents it as the recent block's column arrays at the top level.
  it('reads the column arrays of an older page', () => {
    const sut = parseSubmissionsPage(fixture(TWO_HARBORS).filings.recent);
    expect(sut).toHaveLength(1000);
    expect(sut[0].accessionNumber).toMatch(/^\d{10}-\d{2}-\d{6}$/);
  });

  it('refuses a page that is not column arrays', () => {
    expect(shapeErrorOf(() => parseSubmissionsPage([])).message).toBe('sec-edgar: submissionsPage: expected object, got array');
  });
});

describe(asCik.name, () => {
  it('pads numbers and digit strings, and refuses zero, 11 digits or text', () => {
    expect(asCik(320193, 'cik')).toBe('0000320193');
    expect(asCik('0001465740', 'cik')).toBe('0001465740');
    for (const bad of [0, '12345678901', 'AAPL', -5, 1.5]) expect(() => asCik(bad, 'cik')).toThrow(/cik: expected CIK/);
  });
});
