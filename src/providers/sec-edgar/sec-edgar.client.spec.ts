import { Logger } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { AppConfig } from '../../config/app.config';
import { MemoryKvStore } from '../../infra/kv/memory-kv.store';
import { UpstreamError } from '../kit/upstream.error';
import { ScriptedUpstream, StubReply } from '../../../test/support/scripted-upstream';
import { vendorFixture, vendorFixtureText } from '../../../test/support/vendor-fixtures';
import { SecEdgarClient, SEC_WINDOW_MS } from './sec-edgar.client';

const USER_AGENT = 'Sample Company Name AdminContact@example.com';
const TWO_HARBORS_CIK = 1465740;
const TWO_HARBORS_NAME = 'Two Harbors Investment Corp.';

/**
 * The recorded ticker excerpt has no CIK with two tickers, so Two Harbors' five (from its recorded submissions
 * body) are appended as SEC lists share classes: one entry per ticker, one CIK.
 */
function companyTickersWithTwoHarbors(): string {
  const body = vendorFixture('sec-edgar', 'company_tickers.excerpt-first-200.json');
  const { tickers } = vendorFixture('sec-edgar', 'submissions.CIK0001465740.json') as { tickers: string[] };
  tickers.forEach((ticker, i) => (body[String(200 + i)] = { cik_str: TWO_HARBORS_CIK, ticker, title: TWO_HARBORS_NAME }));
  return JSON.stringify(body);
}

/** An older page: no recording exists (SOURCES.md), so Apple's recent columns stand in, at the top level as SEC serves pages. */
function applePage(): string {
  return JSON.stringify(vendorFixture('sec-edgar', 'submissions.CIK0000320193.json').filings.recent);
}

function fixtureFor(path: string): StubReply {
  const bodies: Record<string, () => string> = {
    '/www/files/company_tickers.json': companyTickersWithTwoHarbors,
    '/data/submissions/CIK0000320193.json': () => vendorFixtureText('sec-edgar', 'submissions.CIK0000320193.json'),
    '/data/submissions/CIK0001465740.json': () => vendorFixtureText('sec-edgar', 'submissions.CIK0001465740.json'),
    '/data/submissions/CIK0000320193-submissions-001.json': applePage,
  };
  const body = bodies[path];
  return body ? { body: body() } : { status: 404, body: '<html>Not Found</html>' };
}

describe(SecEdgarClient.name, () => {
  const upstream = new ScriptedUpstream(fixtureFor);
  let kv: MemoryKvStore;
  let warn: jest.SpyInstance;

  beforeAll(() => upstream.start());
  afterAll(() => upstream.stop());

  beforeEach(() => {
    upstream.reset();
    kv = new MemoryKvStore();
    warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
  });

  afterEach(() => warn.mockRestore());

  function makeClient({ userAgent = USER_AGENT, requestsPerSecond = 8 }: { userAgent?: string; requestsPerSecond?: number } = {}) {
    const settings = {
      stockVendors: {
        filingsVendor: 'sec',
        sec: { userAgent, dataUrl: `${upstream.baseUrl}/data`, filesUrl: `${upstream.baseUrl}/www`, archivesUrl: 'https://www.sec.gov', requestsPerSecond },
      },
      marketVendors: { timeoutMs: 5_000, maxRetries: 0 },
    } as unknown as Record<string, unknown>;
    const config = { get: (key: string) => settings[key] } as unknown as ConfigService<AppConfig, true>;
    return new SecEdgarClient(config, kv);
  }

  it('maps every ticker to its registrant, several tickers to one CIK', async () => {
    const sut = makeClient();
    const tickers = await sut.tickers();
    expect(tickers.size).toBe(205);
    expect(tickers.get('AAPL')).toEqual({ cik: '0000320193', name: 'Apple Inc.' });
    for (const ticker of ['TWO', 'TWO-PA', 'TWO-PB', 'TWO-PC', 'TWOD']) expect(tickers.get(ticker)).toEqual({ cik: '0001465740', name: TWO_HARBORS_NAME });
  });

  it('reads a symbol in upper case and with a dot as SEC spells it, and answers null for a ticker SEC does not list', async () => {
    const sut = makeClient();
    expect(await sut.registrant('brk.b')).toEqual({ cik: '0001067983', name: 'BERKSHIRE HATHAWAY INC' });
    expect(await sut.registrant('0700.HK')).toBeNull();
  });

  it('loads the ticker map once, then serves it from the KV store and memory', async () => {
    const first = makeClient();
    await first.registrant('AAPL');
    await first.registrant('MSFT');
    const otherReplica = makeClient();
    expect(await otherReplica.registrant('TWO-PB')).toEqual({ cik: '0001465740', name: TWO_HARBORS_NAME });
    expect(upstream.requested()).toEqual([{ path: '/www/files/company_tickers.json', query: {} }]);
  });

  it('sends the declared User-Agent on every request and spends one per request from the per-second budget', async () => {
    const sut = makeClient();
    await sut.tickers();
    await sut.submissions('320193');
    await sut.submissionsFile('CIK0000320193-submissions-001.json');
    expect(upstream.received.map((request) => request.headers['user-agent'])).toEqual([USER_AGENT, USER_AGENT, USER_AGENT]);
    const now = Date.now();
    const spent = await Promise.all([now, now - SEC_WINDOW_MS, now - 2 * SEC_WINDOW_MS].map((at) => kv.get(sut.budget.windowKey(at))));
    expect(spent.reduce((sum, value) => sum + Number(value ?? 0), 0)).toBe(3);
    expect(sut.budget.windowKey(now)).toBe(`budget:sec-edgar:${Math.floor(now / SEC_WINDOW_MS)}`);
  });

  it('asks data.sec.gov for the padded CIK and reads both recorded submissions bodies', async () => {
    const sut = makeClient();
    const apple = await sut.submissions('320193');
    const twoHarbors = await sut.submissions('0001465740');
    expect(upstream.requested().map((r) => r.path)).toEqual(['/data/submissions/CIK0000320193.json', '/data/submissions/CIK0001465740.json']);
    expect(apple).toMatchObject({ cik: '0000320193', name: 'Apple Inc.', tickers: ['AAPL'] });
    expect(apple.recent).toHaveLength(1005);
    expect(twoHarbors.tickers).toEqual(['TWO', 'TWO-PC', 'TWO-PB', 'TWO-PA', 'TWOD']);
    expect(twoHarbors.files[0].name).toBe('CIK0001465740-submissions-001.json');
  });

  it('reads an older page by the name the submissions list gives', async () => {
    const sut = makeClient();
    const { files } = await sut.submissions('320193');
    const rows = await sut.submissionsFile(files[0].name);
    expect(rows).toHaveLength(1005);
    expect(upstream.requested()[1].path).toBe('/data/submissions/CIK0000320193-submissions-001.json');
  });

  it('refuses a page name not in the form SEC gives, so no other text of a response reaches a URL', () => {
    expect(() => makeClient().submissionsFile('../files/company_tickers.json')).toThrow(RangeError);
  });

  it("builds the document URL on the SEC's public site (not the host read from) from the unpadded CIK, the accession without dashes and the primary document", () => {
    const sut = makeClient();
    expect(sut.documentUrl('0000320193', { accessionNumber: '0000320193-25-000079', primaryDocument: 'aapl-20250927.htm' })).toBe(
      'https://www.sec.gov/Archives/edgar/data/320193/000032019325000079/aapl-20250927.htm',
    );
    expect(sut.documentUrl('0000320193', { accessionNumber: '0001059235-26-000004', primaryDocument: 'xslF345X05/wk-form4_1772148856.xml' })).toBe(
      'https://www.sec.gov/Archives/edgar/data/320193/000105923526000004/xslF345X05/wk-form4_1772148856.xml',
    );
  });

  it('fails with an UpstreamError naming the status, never the body, when SEC refuses', async () => {
    const sut = makeClient();
    upstream.queued.push({ status: 403, body: '<html>Your Request Originates from an Undeclared Automated Tool</html>' });
    const error = await sut.submissions('320193').catch((err: unknown) => err);
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error).toMatchObject({ provider: 'sec-edgar', kind: 'http', upstreamStatus: 403 });
    expect((error as Error).message).not.toContain('Undeclared');
  });

  it('sends nothing without a User-Agent: SEC would block the address', async () => {
    const sut = makeClient({ userAgent: '' });
    await expect(sut.submissions('320193')).rejects.toThrow(/SEC_USER_AGENT is not set/);
    expect(upstream.received).toEqual([]);
  });
});
