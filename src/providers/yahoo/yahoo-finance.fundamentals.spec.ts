import { Logger } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { createServer, IncomingMessage, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { AppConfig } from '../../config/app.config';
import { MemoryKvStore } from '../../infra/kv/memory-kv.store';
import { UpstreamError } from '../kit/upstream.error';
import { YahooFinanceClient } from './yahoo-finance.client';
import { vendorFixtureText } from '../../../test/support/vendor-fixtures';

const COOKIE = 'A3=cookie-secret-77aa';
const CRUMBS = ['crumbFirst0001', 'crumbSecond002'];
const INVALID_CRUMB = JSON.stringify({ finance: { result: null, error: { code: 'Unauthorized', description: 'Invalid Crumb' } } });
const NOT_FOUND = JSON.stringify({ quoteSummary: { result: null, error: { code: 'Not Found', description: 'Quote not found for symbol: NOPE' } } });

type Reply = { status: number; body: string };
type Seen = { path: string; query: URLSearchParams; cookie: string | undefined };

/** Yahoo's cookie page, getcrumb, quoteSummary (the recorded all-modules body) and the time series. */
class FundamentalsStub {
  private server!: Server;
  url = '';
  seen: Seen[] = [];
  queued: Reply[] = [];
  private crumbs = 0;

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const reply = this.answer(req);
      res.writeHead(reply.status, { 'content-type': 'application/json', ...(req.url === '/cookie' ? { 'set-cookie': `${COOKIE}; Path=/` } : {}) });
      res.end(reply.body);
    });
    await new Promise<void>((done) => this.server.listen(0, '127.0.0.1', done));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  reset(): void {
    this.seen = [];
    this.queued = [];
    this.crumbs = 0;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((done) => this.server.close(() => done()));
  }

  private answer(req: IncomingMessage): Reply {
    const url = new URL(req.url ?? '/', 'http://stub');
    this.seen.push({ path: url.pathname, query: url.searchParams, cookie: req.headers.cookie });
    if (url.pathname === '/cookie') return { status: 404, body: '<html></html>' };
    if (url.pathname === '/v1/test/getcrumb') return { status: 200, body: CRUMBS[Math.min(this.crumbs++, CRUMBS.length - 1)] };
    const queued = this.queued.shift();
    if (queued) return queued;
    if (url.pathname.startsWith('/v10/finance/quoteSummary/')) return { status: 200, body: vendorFixtureText('yahoo', 'quoteSummary.AAPL.all-modules.json') };
    if (url.pathname.startsWith('/ws/fundamentals-timeseries/'))
      return { status: 200, body: vendorFixtureText('yahoo', 'fundamentalsTimeSeries.AAPL.financials-annual.json') };
    return { status: 404, body: '{}' };
  }
}

describe(`${YahooFinanceClient.name} quoteSummary and fundamentalsTimeSeries`, () => {
  const stub = new FundamentalsStub();
  const makeClient = () => {
    const marketVendors = {
      yahoo: { queryUrl: stub.url, cookieUrl: `${stub.url}/cookie`, callsPerMinute: 1_000 },
      timeoutMs: 2_000,
      maxRetries: 0,
    } as AppConfig['marketVendors'];
    return new YahooFinanceClient(new ConfigService<AppConfig, true>({ marketVendors } as unknown as AppConfig), new MemoryKvStore());
  };
  const summaryRequests = () => stub.seen.filter((seen) => seen.path.startsWith('/v10/'));

  beforeAll(() => stub.start());
  afterAll(() => stub.close());
  beforeEach(() => {
    stub.reset();
    jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => jest.restoreAllMocks());

  it('asks quoteSummary for the modules, unformatted, with the crumb and the cookie', async () => {
    const summary = await makeClient().quoteSummary({ symbol: '0700.HK', modules: ['summaryDetail', 'fundOwnership'] });

    expect(summary.summaryDetail?.marketCap).toBe('3688676720640');
    expect(summary.fundOwnership?.holders).toHaveLength(10);
    expect(Object.keys(summary).sort()).toEqual(['fundOwnership', 'summaryDetail']);
    const [request] = summaryRequests();
    expect(request.path).toBe('/v10/finance/quoteSummary/0700.HK');
    expect(request.query.get('modules')).toBe('summaryDetail,fundOwnership');
    expect(request.query.get('formatted')).toBe('false');
    expect(request.query.get('crumb')).toBe(CRUMBS[0]);
    expect(request.cookie).toBe(COOKIE);
  });

  it('renews a refused crumb once and repeats the call', async () => {
    stub.queued.push({ status: 401, body: INVALID_CRUMB });
    const summary = await makeClient().quoteSummary({ symbol: 'AAPL', modules: ['price'] });
    expect(summary.price?.currency).toBe('USD');
    expect(summaryRequests().map((seen) => seen.query.get('crumb'))).toEqual(CRUMBS);
  });

  it('fails an unknown symbol as http 404, naming neither the crumb nor Yahoo’s text', async () => {
    stub.queued.push({ status: 404, body: NOT_FOUND });
    const error: UpstreamError = await makeClient()
      .quoteSummary({ symbol: 'NOPE', modules: ['price'] })
      .then(
        () => Promise.reject(new Error('expected a failure')),
        (err: UpstreamError) => err,
      );
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error).toMatchObject({ kind: 'http', upstreamStatus: 404 });
    expect(error.message).not.toContain(CRUMBS[0]);
    expect(error.message).not.toContain('Quote not found');
  });

  it('reads the time series without a session, types and period as query parameters', async () => {
    const series = await makeClient().fundamentalsTimeSeries({
      symbol: 'AAPL',
      types: ['annualTotalRevenue', 'quarterlyTotalRevenue'],
      period1: new Date('2020-01-01T00:00:00Z'),
      period2: new Date('2025-02-21T12:30:00.900Z'),
    });

    expect(series.find((entry) => entry.type === 'annualTotalRevenue')?.points).toHaveLength(3);
    expect(stub.seen.map((seen) => seen.path)).toEqual(['/ws/fundamentals-timeseries/v1/finance/timeseries/AAPL']);
    const [request] = stub.seen;
    expect(request.query.get('type')).toBe('annualTotalRevenue,quarterlyTotalRevenue');
    expect([request.query.get('period1'), request.query.get('period2')]).toEqual(['1577836800', '1740141000']);
    expect(request.query.get('crumb')).toBeNull();
    expect(request.cookie).toBeUndefined();
  });
});
