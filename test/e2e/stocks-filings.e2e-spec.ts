import { filingHistory, SimFiling } from '../../src/simulator/sec/filing-history';
import { splitHistory } from '../../src/simulator/sec/submissions-body';
import { SecRegistrant } from '../../src/simulator/world/sec-registrants';
import { makeAccount } from '../support/factories';
import { ISO_MS } from '../support/markets-stack';
import { ASSET_NOT_FOUND, expectNoLedgerLines, minus, startStocksStack, stocksClient, StocksStack } from '../support/stocks-stack';

type Data = Record<string, any>;

const ITEM_KEYS = ['formType', 'filingDate', 'acceptedDate', 'accessionNo', 'reportUrl', 'description'];
const DAY_MS = 86_400_000;

interface Query {
  from?: string;
  to?: string;
  forms?: string[];
  limit: number;
}

const day = (at: number) => new Date(at).toISOString().slice(0, 10);
const yearOf = (date: string) => Number(date.slice(0, 4));

describe('GET /stock/{symbol}/sec-filings', () => {
  let stack: StocksStack;
  let client: ReturnType<typeof stocksClient>;
  let apple: SecRegistrant;
  /** Every filing of Apple's registrant in the simulator, as EDGAR lists them (newest accepted first). */
  let history: SimFiling[];
  /** The oldest filing date in the submissions' recent block: anything before is on an older page. */
  let recentOldest: string;
  /** Where filing links point: SEC's public site, whichever host the data was read from. */
  let archivesUrl: string;

  beforeAll(async () => {
    stack = await startStocksStack();
    client = stocksClient(stack.t, (await makeAccount(stack.t, { tier: 'pro' })).key);
    apple = stack.sim.protocols.sec.registrants.find((registrant) => registrant.tickers.includes('AAPL'))!;
    const now = Date.now();
    history = filingHistory(apple, now).filings;
    const { recent, pages } = splitHistory(history, now);
    recentOldest = recent[recent.length - 1].filingDate;
    archivesUrl = stack.config.stockVendors.sec.archivesUrl;
    expect(pages.length).toBeGreaterThan(1);
  });
  afterAll(() => stack.close());

  /** What the route must answer for `query`, from the simulator's own history: filtered, newest first, at most limit. */
  function expectedItems({ from, to, forms, limit }: Query): Data[] {
    const wanted = forms && new Set(forms);
    return history
      .filter((f) => (!wanted || wanted.has(f.form)) && (!from || f.filingDate >= from) && (!to || f.filingDate <= to))
      .sort(
        (a, b) =>
          b.filingDate.localeCompare(a.filingDate) ||
          b.acceptanceDateTime.localeCompare(a.acceptanceDateTime) ||
          b.accessionNumber.localeCompare(a.accessionNumber),
      )
      .slice(0, limit)
      .map((f) => {
        const base = f.primaryDocDescription || f.form;
        return {
          formType: f.form,
          filingDate: f.filingDate,
          acceptedDate: f.acceptanceDateTime,
          accessionNo: f.accessionNumber,
          reportUrl: `${archivesUrl}/Archives/edgar/data/${apple.cik}/${f.accessionNumber.replace(/-/g, '')}/${f.primaryDocument}`,
          description: f.items ? `${base} (Items ${f.items.split(',').join(', ')})` : base,
        };
      });
  }

  /** The day Apple's record on EDGAR starts: where a search without `from` begins. */
  const firstFilingDate = () => history.reduce((min, f) => (f.filingDate < min ? f.filingDate : min), history[0].filingDate);

  const filings = async (query: string, symbol = 'AAPL'): Promise<Data> => (await client.ok(`/stock/${symbol}/sec-filings${query}`, 2)).body.data;

  it('answers the newest 20 filings with the source block, count and limit, each row all strings, billed 2', async () => {
    const res = await client.ok('/stock/AAPL/sec-filings', 2);
    const body = res.body.data;

    expect(Object.keys(body).sort()).toEqual(['count', 'items', 'limit', 'source']);
    const items = expectedItems({ limit: 20 });
    expect(body.items).toEqual(items);
    expect({ count: body.count, limit: body.limit }).toEqual({ count: 20, limit: 20 });
    expect(body.source).toEqual({
      provider: 'sec',
      symbol: 'AAPL',
      from: firstFilingDate(),
      to: day(Date.now()),
      updatedAt: expect.stringMatching(ISO_MS),
    });
    for (const item of body.items) {
      expect(Object.keys(item).sort()).toEqual([...ITEM_KEYS].sort());
      for (const key of ITEM_KEYS) expect({ key, type: typeof item[key] }).toEqual({ key, type: 'string' });
      expect(item.acceptedDate).toMatch(ISO_MS);
      expect(item.reportUrl).toMatch(new RegExp(`^https://www\\.sec\\.gov/Archives/edgar/data/${apple.cik}/${item.accessionNo.replace(/-/g, '')}/[\\w./-]+$`));
    }
    expect(res.headers.age).toMatch(/^\d+$/);
  });

  it('keeps only the forms asked, case-insensitively', async () => {
    const periodic = await filings('?forms=10-K,10-Q&limit=50');

    expect(periodic.items).toEqual(expectedItems({ forms: ['10-K', '10-Q'], limit: 50 }));
    expect(new Set(periodic.items.map((i: Data) => i.formType))).toEqual(new Set(['10-K', '10-Q']));
    expect(periodic.count).toBe(periodic.items.length);
    expect((await filings('?forms=10-k,%2010-q&limit=50')).items).toEqual(periodic.items);
    const eightK = await filings('?forms=8-K&limit=5');
    expect(eightK.items.every((i: Data) => i.formType === '8-K' && /^(FORM )?8-K \(Items [\d., ]+\)$/.test(i.description))).toBe(true);
  });

  it('keeps only filings inside a date range, both ends included, echoed in source', async () => {
    // Two filing days of the recent block a few weeks apart, so filings fall on both ends.
    const days = [...new Set(history.map((f) => f.filingDate))].filter((d) => d > recentOldest);
    const [to, from] = [days[10], days[30]];
    const body = await filings(`?from=${from}&to=${to}&limit=50`);

    expect(body.items).toEqual(expectedItems({ from, to, limit: 50 }));
    expect(body.items.length).toBeGreaterThan(2);
    expect(body.items.every((i: Data) => i.filingDate >= from && i.filingDate <= to)).toBe(true);
    expect(body.items[0].filingDate).toBe(to);
    expect(body.items[body.items.length - 1].filingDate).toBe(from);
    expect(body.source).toMatchObject({ from, to });
    expect(body.count).toBe(body.items.length);
  });

  it("reads an older range from the submissions' extra pages", async () => {
    const hitsBefore = stack.upstream.paths('-submissions-').length;
    const year = yearOf(recentOldest) - 3;
    const from = `${year - 1}-01-01`;
    const to = `${year}-12-31`;
    const older = await filings(`?from=${from}&to=${to}&forms=10-K,10-Q&limit=50`);

    expect(older.items).toEqual(expectedItems({ from, to, forms: ['10-K', '10-Q'], limit: 50 }));
    expect(older.items.length).toBeGreaterThanOrEqual(6);
    expect(older.items.every((i: Data) => i.filingDate < recentOldest)).toBe(true);
    expect(stack.upstream.paths('-submissions-').length).toBeGreaterThan(hitsBefore);
  });

  it('joins the recent block and the older pages for a range across both, newest first', async () => {
    const from = `${yearOf(recentOldest) - 4}-01-01`;
    const body = await filings(`?from=${from}&forms=10-K&limit=50`);

    expect(body.items).toEqual(expectedItems({ from, forms: ['10-K'], limit: 50 }));
    const dates = body.items.map((i: Data) => i.filingDate);
    expect(dates.some((d: string) => d < recentOldest) && dates.some((d: string) => d > recentOldest)).toBe(true);
  });

  it('answers AAPL-US and aapl as AAPL, and both share classes of one registrant alike', async () => {
    const plain = await filings('?limit=7');
    expect(await filings('?limit=7', 'AAPL-US')).toEqual(plain);
    expect(await filings('?limit=7', 'aapl')).toEqual(plain);

    const classA = await filings('?limit=5', 'GOOGL');
    const classC = await filings('?limit=5', 'GOOG');
    expect(classC.items).toEqual(classA.items);
    expect([classA.source.symbol, classC.source.symbol]).toEqual(['GOOGL', 'GOOG']);
  });

  it('answers a Hong Kong stock (no SEC registrant) 404 saying it files nowhere at the SEC, unbilled, without asking EDGAR', async () => {
    const secCalls = stack.upstream.paths('/sec/').length;
    for (const symbol of ['0700', '0700-HK']) {
      const res = await client.expectError(`/stock/${symbol}/sec-filings?from=2024-01-01&to=2024-12-31`, 404, { code: 'NOT_FOUND' });
      expect(res.body.msg).toMatch(/^symbol: 0700 files nowhere at the SEC/);
    }
    expect(stack.upstream.paths('/sec/')).toHaveLength(secCalls);
  });

  it('answers a known form type the registrant never filed an empty list, searched from its first filing day to today', async () => {
    const body = await filings('?forms=N-CSR');
    expect(body).toMatchObject({ items: [], count: 0, source: { from: firstFilingDate(), to: day(Date.now()) } });
  });

  it('takes limit from 1 to 50', async () => {
    expect(await filings('?limit=1')).toMatchObject({ count: 1, limit: 1 });
    expect(await filings('?limit=50')).toMatchObject({ count: 50, limit: 50 });
  });

  describe('bad queries', () => {
    it.each([
      ['?from=2025-06-01&to=2025-05-31', 'from', '`from` after `to`'],
      ['?from=2025-13-01', 'from', 'month 13'],
      ['?from=2025-02-30', 'from', 'February 30'],
      ['?to=2025-02-29', 'to', 'February 29 of a common year'],
      ['?to=2025-00-10', 'to', 'month 0'],
      ['?from=20250101', 'from', 'no dashes'],
      ['?from=2025-1-01', 'from', 'one-digit month'],
      ['?limit=0', 'limit', 'limit below 1'],
      ['?limit=51', 'limit', 'limit above 50'],
      ['?limit=ten', 'limit', 'limit not a number'],
      ['?forms=10-K;DROP', 'forms', 'a semicolon'],
      ['?forms=10-K,%3Cscript%3E', 'forms', 'angle brackets'],
      ['?forms=10-K,-Q', 'forms', 'a form starting with a dash'],
      ['?forms=XYZ', 'forms', 'a form type EDGAR does not know'],
      ['?forms=10-K,10-X', 'forms', 'one unknown form among known ones'],
    ])('answers %s 400 naming %s (%s), unbilled', async (query, field) => {
      await client.expectInvalid(`/stock/AAPL/sec-filings${query}`, field);
    });

    it('lists the known form types in the message of an unknown one', async () => {
      const res = await client.expectError('/stock/AAPL/sec-filings?forms=10-K,xyz', 400, { code: 'VALIDATION_ERROR' });
      expect(res.body.msg).toMatch(/^forms: unknown form type "xyz"; known types .*: 10-K, 10-K405, .*8-K,.* DEF 14A,/);
    });

    it('accepts February 29 of a leap year', async () => {
      await client.ok('/stock/AAPL/sec-filings?from=2024-02-29&to=2024-02-29', 2);
    });

    it('answers a symbol that is not a stock 404 and leaves the balance and the ledger untouched by every failure', async () => {
      const before = await client.balance();
      const failed = [
        await client.expectError('/stock/BTC/sec-filings', 404, { code: ASSET_NOT_FOUND }),
        await client.expectError('/stock/NOSUCHSTOCK/sec-filings', 404, { code: ASSET_NOT_FOUND }),
        await client.expectError('/stock/AAPL/sec-filings?limit=51', 400, { code: 'VALIDATION_ERROR' }),
        await client.expectError('/stock/AAPL/sec-filings?from=2025-02-30', 400, { code: 'VALIDATION_ERROR' }),
      ];
      expect(await client.balance()).toBe(minus(before, 1));
      await expectNoLedgerLines(
        stack.t,
        failed.map((res) => res.headers['x-request-id']),
      );
    });
  });

  it("uses today for `to` and the registrant's first filing day for `from` when neither is asked", async () => {
    const body = await filings('?forms=10-K&limit=3');
    expect(body.source).toMatchObject({ from: firstFilingDate(), to: day(Date.now()) });
    expect(Date.parse(body.items[0].filingDate)).toBeGreaterThan(Date.now() - 400 * DAY_MS);
  });
});
