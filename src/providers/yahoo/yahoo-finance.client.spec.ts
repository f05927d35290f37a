import { Logger } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { createServer, IncomingMessage, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { AppConfig } from '../../config/app.config';
import { MemoryKvStore } from '../../infra/kv/memory-kv.store';
import { UpstreamError } from '../kit/upstream.error';
import { YahooFinanceClient } from './yahoo-finance.client';
import { BACKOFF_KEY } from './yahoo-session';
import { vendorFixtureText } from '../../../test/support/vendor-fixtures';

const fixtureText = (name: string): string => vendorFixtureText('yahoo', name);

const COOKIE_VALUE = 'cookie-secret-d4e5f6';
const CRUMBS = ['crumbFirst0001', 'crumbSecond002'];

type Reply = { status: number; body: string; headers?: Record<string, string> };
type Seen = { path: string; query: URLSearchParams; cookie: string | undefined };

/** Yahoo as the handshake sees it: a cookie page, getcrumb, and the quote, chart and spark endpoints. */
class YahooStub {
  server!: Server;
  url = '';
  seen: Seen[] = [];
  /** Replies given once each, per path, before the defaults. */
  queued = new Map<string, Reply[]>();
  private crumbsIssued = 0;

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const reply = this.answer(req);
      res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
      res.end(reply.body);
    });
    await new Promise<void>((done) => this.server.listen(0, '127.0.0.1', done));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  queue(path: string, ...replies: Reply[]): void {
    this.queued.set(path, [...(this.queued.get(path) ?? []), ...replies]);
  }

  reset(): void {
    this.seen = [];
    this.queued.clear();
    this.crumbsIssued = 0;
  }

  paths(): string[] {
    return this.seen.map((s) => s.path);
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((done) => this.server.close(() => done()));
  }

  private answer(req: IncomingMessage): Reply {
    const url = new URL(req.url ?? '/', 'http://stub');
    this.seen.push({ path: url.pathname, query: url.searchParams, cookie: req.headers.cookie });
    const queued = this.queued.get(url.pathname)?.shift();
    if (queued) return queued;
    if (url.pathname === '/cookie') {
      return { status: 404, body: '<html>not found</html>', headers: { 'set-cookie': `A3=${COOKIE_VALUE}; Max-Age=31557600; Path=/; HttpOnly` } };
    }
    if (url.pathname === '/v1/test/getcrumb') {
      if (req.headers.cookie !== `A3=${COOKIE_VALUE}`) return { status: 401, body: '' };
      return { status: 200, body: CRUMBS[Math.min(this.crumbsIssued++, CRUMBS.length - 1)] };
    }
    if (url.pathname === '/v7/finance/quote') return { status: 200, body: fixtureText('quote.AAPL.json') };
    if (url.pathname.startsWith('/v8/finance/chart/')) return { status: 200, body: fixtureText('chart.0700.HK.1h.5d.json') };
    if (url.pathname === '/v7/finance/spark') return { status: 200, body: fixtureText('spark.0700.HK+TCEHY+HKD=X.json') };
    return { status: 404, body: '{}' };
  }
}

const INVALID_CRUMB = JSON.stringify({ finance: { result: null, error: { code: 'Unauthorized', description: 'Invalid Crumb' } } });

describe(YahooFinanceClient.name, () => {
  const stub = new YahooStub();
  let kv: MemoryKvStore;
  let warnings: string[];

  const makeClient = () => {
    const marketVendors: AppConfig['marketVendors'] = {
      yahoo: { queryUrl: stub.url, cookieUrl: `${stub.url}/cookie`, callsPerMinute: 1_000 },
      timeoutMs: 2_000,
      maxRetries: 0,
    } as AppConfig['marketVendors'];
    return new YahooFinanceClient(new ConfigService<AppConfig, true>({ marketVendors } as unknown as AppConfig), kv);
  };
  const failureOf = (promise: Promise<unknown>): Promise<UpstreamError> =>
    promise.then(
      () => Promise.reject(new Error('expected a failure')),
      (err) => err,
    );

  beforeAll(() => stub.start());
  afterAll(() => stub.close());
  beforeEach(() => {
    kv = new MemoryKvStore();
    stub.reset();
    warnings = [];
    jest.spyOn(Logger.prototype, 'warn').mockImplementation((message: unknown) => void warnings.push(String(message)));
  });
  afterEach(() => jest.restoreAllMocks());

  it('fetches the cookie, then the crumb with it, then the quote with crumb= and the cookie', async () => {
    const sut = makeClient();
    const quotes = await sut.quote({ symbols: ['AAPL'] });

    expect(quotes.map((q) => [q.symbol, q.price])).toEqual([['AAPL', '244.6']]);
    expect(stub.paths()).toEqual(['/cookie', '/v1/test/getcrumb', '/v7/finance/quote']);
    expect(stub.seen[1].cookie).toBe(`A3=${COOKIE_VALUE}`);
    const quoteRequest = stub.seen[2];
    expect(quoteRequest.query.get('symbols')).toBe('AAPL');
    expect(quoteRequest.query.get('crumb')).toBe(CRUMBS[0]);
    expect(quoteRequest.cookie).toBe(`A3=${COOKIE_VALUE}`);
  });

  it('reuses the crumb for the next calls', async () => {
    const sut = makeClient();
    await sut.quote({ symbols: ['AAPL'] });
    await sut.quote({ symbols: ['QQQ'] });
    expect(stub.paths().filter((p) => p === '/v1/test/getcrumb')).toHaveLength(1);
  });

  it('sends a long symbol list in batches of 50', async () => {
    const symbols = Array.from({ length: 120 }, (_, i) => `S${i}`);
    await makeClient().quote({ symbols });
    const batches = stub.seen.filter((s) => s.path === '/v7/finance/quote').map((s) => s.query.get('symbols')!.split(',').length);
    expect(batches).toEqual([50, 50, 20]);
  });

  it('refuses "Too Many Requests" as a crumb and backs off without asking again', async () => {
    stub.queue('/v1/test/getcrumb', { status: 200, body: 'Too Many Requests' });
    const sut = makeClient();

    await expect(sut.quote({ symbols: ['AAPL'] })).rejects.toMatchObject({ kind: 'http', upstreamStatus: 429 });
    expect(await kv.get(BACKOFF_KEY)).not.toBeNull();
    const before = stub.seen.length;
    await expect(sut.quote({ symbols: ['AAPL'] })).rejects.toMatchObject({ upstreamStatus: 429 });
    expect(stub.seen.length).toBe(before);
    expect(stub.paths()).not.toContain('/v7/finance/quote');
  });

  it('backs off after a 429 on getcrumb, across replicas', async () => {
    stub.queue('/v1/test/getcrumb', { status: 429, body: 'Too Many Requests' });
    await expect(makeClient().quote({ symbols: ['AAPL'] })).rejects.toMatchObject({ upstreamStatus: 429 });
    const before = stub.seen.length;
    await expect(makeClient().quote({ symbols: ['AAPL'] })).rejects.toMatchObject({ upstreamStatus: 429 });
    expect(stub.seen.length).toBe(before);
  });

  it.each([
    ['an HTML page', '<!doctype html><html><body>Oops</body></html>'],
    ['an empty body', ''],
    ['whitespace', '   \n'],
  ])('refuses %s as a crumb, as a shape error', async (_what, body) => {
    stub.queue('/v1/test/getcrumb', { status: 200, body });
    await expect(makeClient().quote({ symbols: ['AAPL'] })).rejects.toMatchObject({ kind: 'shape', provider: 'yahoo' });
    expect(stub.paths()).not.toContain('/v7/finance/quote');
  });

  it('reports a consent redirect on the cookie page as a provider error', async () => {
    stub.queue('/cookie', { status: 302, body: '', headers: { location: 'https://guce.yahoo.com/consent?brandType=nonEu' } });
    const error = await failureOf(makeClient().quote({ symbols: ['AAPL'] }));
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error).toMatchObject({ kind: 'http', upstreamStatus: 302 });
    expect(error.message).toContain('consent');
  });

  it('reports a cookie page that sets no cookie as a provider error', async () => {
    stub.queue('/cookie', { status: 200, body: '<html>welcome</html>' });
    await expect(makeClient().quote({ symbols: ['AAPL'] })).rejects.toMatchObject({ kind: 'shape', provider: 'yahoo' });
  });

  it.each([
    ['a 401', { status: 401, body: INVALID_CRUMB }],
    ['"Invalid Crumb" in a 200 body', { status: 200, body: INVALID_CRUMB }],
  ])('renews an expired crumb once after %s and repeats the call', async (_what, reply) => {
    stub.queue('/v7/finance/quote', reply);
    const quotes = await makeClient().quote({ symbols: ['AAPL'] });

    expect(quotes).toHaveLength(1);
    expect(stub.paths()).toEqual(['/cookie', '/v1/test/getcrumb', '/v7/finance/quote', '/cookie', '/v1/test/getcrumb', '/v7/finance/quote']);
    expect(stub.seen[5].query.get('crumb')).toBe(CRUMBS[1]);
  });

  it('gives up when the renewed crumb is refused too', async () => {
    stub.queue('/v7/finance/quote', { status: 403, body: INVALID_CRUMB }, { status: 403, body: INVALID_CRUMB });
    await expect(makeClient().quote({ symbols: ['AAPL'] })).rejects.toMatchObject({ kind: 'http', upstreamStatus: 403 });
    expect(stub.paths().filter((p) => p === '/v7/finance/quote')).toHaveLength(2);
  });

  it('shares one crumb between two clients on one store (two replicas), one after the other', async () => {
    await makeClient().quote({ symbols: ['AAPL'] });
    await makeClient().quote({ symbols: ['AAPL'] });
    expect(stub.paths().filter((p) => p === '/v1/test/getcrumb')).toHaveLength(1);
    expect(stub.seen.filter((s) => s.path === '/v7/finance/quote').map((s) => s.query.get('crumb'))).toEqual([CRUMBS[0], CRUMBS[0]]);
  });

  it('does one handshake when two clients need the crumb at once', async () => {
    const [a, b] = [makeClient(), makeClient()];
    await Promise.all([a.quote({ symbols: ['AAPL'] }), b.quote({ symbols: ['AAPL'] }), a.quote({ symbols: ['QQQ'] })]);
    expect(stub.paths().filter((p) => p === '/cookie')).toHaveLength(1);
    expect(stub.paths().filter((p) => p === '/v1/test/getcrumb')).toHaveLength(1);
  });

  it('puts the cookie and the crumb in no error message and no log line', async () => {
    const errors: UpstreamError[] = [];
    stub.queue('/v7/finance/quote', { status: 401, body: INVALID_CRUMB }, { status: 401, body: INVALID_CRUMB });
    errors.push(await failureOf(makeClient().quote({ symbols: ['AAPL'] })));
    stub.queue('/v7/finance/quote', { status: 200, body: '<html>' + CRUMBS[1] + '</html>' });
    errors.push(await failureOf(makeClient().quote({ symbols: ['AAPL'] })));
    await kv.del('yahoo:session');
    stub.queue('/v1/test/getcrumb', { status: 500, body: CRUMBS[0] });
    errors.push(await failureOf(makeClient().quote({ symbols: ['AAPL'] })));

    expect(errors.every((e) => e instanceof UpstreamError)).toBe(true);
    const texts = [...errors.map((e) => `${e.message} ${String(e.cause ?? '')}`), ...warnings];
    expect(texts.length).toBeGreaterThan(3);
    for (const text of texts) {
      for (const secret of [COOKIE_VALUE, ...CRUMBS]) expect(text).not.toContain(secret);
    }
  });

  it('reads a chart without the crumb', async () => {
    const candles = await makeClient().chart({ symbol: '0700.HK', interval: '1h', range: '5d' });
    expect(candles).toHaveLength(35);
    expect(stub.paths()).toEqual(['/v8/finance/chart/0700.HK']);
    expect(stub.seen[0].query.get('interval')).toBe('1h');
    expect(stub.seen[0].query.get('range')).toBe('5d');
  });

  it('reads spark closes for many symbols in one call', async () => {
    const series = await makeClient().spark({ symbols: ['0700.HK', 'TCEHY', 'HKD=X'], interval: '1d', range: '5d' });
    expect(series.find((s) => s.symbol === '0700.HK')?.closes).toHaveLength(5);
    expect(stub.seen.map((s) => s.query.get('symbols'))).toEqual(['0700.HK,TCEHY,HKD=X']);
  });
});
