import { SecEdgarClient } from '../../../providers/sec-edgar/sec-edgar.client';
import { parseSubmissions } from '../../../providers/sec-edgar/sec-edgar.schema';
import { SecFilingRow, SecSubmissions, SecSubmissionsPage } from '../../../providers/sec-edgar/sec-edgar.types';
import { vendorFixture } from '../../../../test/support/vendor-fixtures';
import { MAX_OLDER_PAGES, SecFilings } from './sec-filings';

const CIK = '0000320193';
let accessions = 0;

function makeRow(filingDate: string, form: string, overrides: Partial<SecFilingRow> = {}): SecFilingRow {
  accessions += 1;
  return {
    accessionNumber: `0000320193-${filingDate.slice(2, 4)}-${String(accessions).padStart(6, '0')}`,
    filingDate,
    acceptanceDateTime: `${filingDate}T16:30:00.000Z`,
    form,
    primaryDocument: `doc-${accessions}.htm`,
    primaryDocDescription: form,
    items: '',
    ...overrides,
  };
}

function makePage(index: number, rows: SecFilingRow[]): SecSubmissionsPage {
  const dates = rows.map((row) => row.filingDate).sort();
  return {
    name: `CIK${CIK}-submissions-${String(index).padStart(3, '0')}.json`,
    filingCount: rows.length,
    filingFrom: dates[0],
    filingTo: dates[dates.length - 1],
  };
}

/** A client double: the registrant map, one submissions document and its older pages by name. */
function fakeClient(recent: SecFilingRow[], pages: SecFilingRow[][] = []) {
  const submissions: SecSubmissions = { cik: CIK, name: 'Apple Inc.', tickers: ['AAPL'], recent, files: pages.map((rows, i) => makePage(i + 1, rows)) };
  const byName = new Map(submissions.files.map((file, i) => [file.name, pages[i]]));
  const client = {
    registrant: jest.fn(async (symbol: string) => (symbol === 'AAPL' ? { cik: CIK, name: 'Apple Inc.' } : null)),
    submissions: jest.fn(async () => submissions),
    submissionsFile: jest.fn(async (name: string) => byName.get(name) ?? []),
    documentUrl: jest.fn(
      (cik: string, row: SecFilingRow) =>
        `https://www.sec.gov/Archives/edgar/data/${Number(cik)}/${row.accessionNumber.replace(/-/g, '')}/${row.primaryDocument}`,
    ),
  };
  return { client, sut: new SecFilings(client as unknown as SecEdgarClient) };
}

describe(SecFilings.name, () => {
  const recent = [
    makeRow('2026-02-26', '4'),
    makeRow('2026-01-30', '10-Q'),
    makeRow('2026-01-29', '8-K', { primaryDocDescription: '8-K', items: '2.02,9.01' }),
    makeRow('2025-10-31', '10-K'),
    makeRow('2025-10-16', '144', { primaryDocDescription: '' }),
    makeRow('2025-08-01', '10-Q'),
    makeRow('2025-03-01', '10-K/A'),
  ];
  const older = [makeRow('2024-11-01', '10-K'), makeRow('2024-08-02', '10-Q'), makeRow('2024-05-03', '10-Q')];
  const oldest = [makeRow('2023-11-03', '10-K'), makeRow('2023-08-04', '10-Q')];

  it('answers null for a ticker with no CIK (a Hong Kong listing), asking for no submissions', async () => {
    const { sut, client } = fakeClient(recent);
    expect(await sut.listFilings({ symbol: '0700.HK', limit: 20 })).toBeNull();
    expect(client.submissions).not.toHaveBeenCalled();
  });

  it("answers the registrant's first filing day, the start of a search without `from`, from its oldest page", async () => {
    expect((await fakeClient(recent, [older, oldest]).sut.listFilings({ symbol: 'AAPL', forms: ['S-1'], limit: 20 }))?.firstFilingDate).toBe('2023-08-04');
    expect((await fakeClient(recent).sut.listFilings({ symbol: 'AAPL', limit: 1 }))?.firstFilingDate).toBe('2025-03-01');
  });

  it('maps a filing to the contract item: form, dates, accession, document URL, description', async () => {
    const { sut } = fakeClient(recent);
    const result = await sut.listFilings({ symbol: 'AAPL', forms: ['8-K', '144'], limit: 5 });
    expect(result).toEqual({
      registrantId: CIK,
      registrantName: 'Apple Inc.',
      firstFilingDate: '2025-03-01',
      filings: [
        {
          formType: '8-K',
          filingDate: '2026-01-29',
          acceptedDate: '2026-01-29T16:30:00.000Z',
          accessionNo: recent[2].accessionNumber,
          reportUrl: `https://www.sec.gov/Archives/edgar/data/320193/${recent[2].accessionNumber.replace(/-/g, '')}/${recent[2].primaryDocument}`,
          description: '8-K (Items 2.02, 9.01)',
        },
        expect.objectContaining({ formType: '144', description: '144' }),
      ],
    });
  });

  it('matches forms exactly but case-insensitively: 10-k is 10-K, never 10-K/A', async () => {
    const { sut } = fakeClient(recent, [older]);
    const result = await sut.listFilings({ symbol: 'AAPL', forms: [' 10-k '], from: '2025-01-01', limit: 10 });
    expect(result!.filings.map((f) => [f.formType, f.filingDate])).toEqual([['10-K', '2025-10-31']]);
  });

  it('keeps filingDate within from..to, both ends included, newest first, at most limit', async () => {
    const { sut } = fakeClient(recent);
    const result = await sut.listFilings({ symbol: 'AAPL', from: '2025-08-01', to: '2026-01-30', limit: 4 });
    expect(result!.filings.map((f) => f.filingDate)).toEqual(['2026-01-30', '2026-01-29', '2025-10-31', '2025-10-16']);
  });

  it('reads no older page when the recent block yields limit matches', async () => {
    const { sut, client } = fakeClient(recent, [older]);
    await sut.listFilings({ symbol: 'AAPL', forms: ['10-Q'], limit: 2 });
    expect(client.submissionsFile).not.toHaveBeenCalled();
  });

  it('reads no older page when the range starts after the recent block does', async () => {
    const { sut, client } = fakeClient(recent, [older]);
    const result = await sut.listFilings({ symbol: 'AAPL', forms: ['10-K'], from: '2025-03-02', limit: 20 });
    expect(result!.filings).toHaveLength(1);
    expect(client.submissionsFile).not.toHaveBeenCalled();
  });

  it('reads older pages newest first when the range reaches before the recent block, until limit is met', async () => {
    const { sut, client } = fakeClient(recent, [older, oldest]);
    const result = await sut.listFilings({ symbol: 'AAPL', forms: ['10-K', '10-Q'], from: '2020-01-01', limit: 5 });
    expect(result!.filings.map((f) => `${f.formType} ${f.filingDate}`)).toEqual([
      '10-Q 2026-01-30',
      '10-K 2025-10-31',
      '10-Q 2025-08-01',
      '10-K 2024-11-01',
      '10-Q 2024-08-02',
    ]);
    expect(client.submissionsFile.mock.calls.map(([name]) => name)).toEqual([`CIK${CIK}-submissions-001.json`]);
  });

  it('skips an older page whose dates miss the range', async () => {
    const { sut, client } = fakeClient(recent, [older, oldest]);
    const result = await sut.listFilings({ symbol: 'AAPL', from: '2023-01-01', to: '2023-12-31', limit: 20 });
    expect(result!.filings.map((f) => f.filingDate)).toEqual(['2023-11-03', '2023-08-04']);
    expect(client.submissionsFile.mock.calls.map(([name]) => name)).toEqual([`CIK${CIK}-submissions-002.json`]);
  });

  it('reads back as far as needed without from, but never more than MAX_OLDER_PAGES pages', async () => {
    const pages = Array.from({ length: MAX_OLDER_PAGES + 3 }, (_, i) => [makeRow(`${2023 - i}-06-01`, '8-K')]);
    const { sut, client } = fakeClient(recent, pages);
    const result = await sut.listFilings({ symbol: 'AAPL', forms: ['S-1'], limit: 20 });
    expect(result!.filings).toEqual([]);
    expect(client.submissionsFile).toHaveBeenCalledTimes(MAX_OLDER_PAGES);
  });

  it('passes the caller signal to every upstream read', async () => {
    const { sut, client } = fakeClient(recent, [older]);
    const signal = new AbortController().signal;
    await sut.listFilings({ symbol: 'AAPL', from: '2024-01-01', limit: 50, signal });
    expect(client.registrant).toHaveBeenCalledWith('AAPL', signal);
    expect(client.submissions).toHaveBeenCalledWith(CIK, signal);
    expect(client.submissionsFile).toHaveBeenCalledWith(`CIK${CIK}-submissions-001.json`, signal);
  });

  it("lists Apple's recorded 10-Ks of the last three years from the recent block alone", async () => {
    const submissions = parseSubmissions(vendorFixture('sec-edgar', 'submissions.CIK0000320193.json'));
    const { sut, client } = fakeClient(submissions.recent, [older]);
    const result = await sut.listFilings({ symbol: 'AAPL', forms: ['10-K'], from: '2023-01-01', to: '2025-12-31', limit: 20 });
    expect(result!.filings.map((f) => [f.filingDate, f.accessionNo, f.description])).toEqual([
      ['2025-10-31', '0000320193-25-000079', '10-K'],
      ['2024-11-01', '0000320193-24-000123', '10-K'],
      ['2023-11-03', '0000320193-23-000106', '10-K'],
    ]);
    expect(client.submissionsFile).not.toHaveBeenCalled();
  });
});
