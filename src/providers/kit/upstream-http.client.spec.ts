import { Logger } from '@nestjs/common';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { MemoryKvStore } from '../../infra/kv/memory-kv.store';
import { upstreamCalls, upstreamDuration, upstreamErrors } from '../../infra/metrics/metrics';
import { UpstreamError } from './upstream.error';
import { RequestBudget } from './request-budget';
import { SchemaReader } from './schema-reader';
import { UpstreamHttpClient, UpstreamHttpClientOptions } from './upstream-http.client';

type Reply = { status: number; body: string; headers?: Record<string, string> } | 'hang';

const { asObject } = new SchemaReader('acme');
const parsePrice = (body: unknown) => asObject(body, 'price').decimal('price');

async function counter(metric: typeof upstreamCalls | typeof upstreamErrors, labels: Record<string, string>): Promise<number> {
  const { values } = await metric.get();
  return values.find((v) => Object.entries(labels).every(([k, x]) => (v.labels as Record<string, unknown>)[k] === x))?.value ?? 0;
}

describe(UpstreamHttpClient.name, () => {
  let server: Server;
  let url: string;
  let replies: Reply[];
  let requests: { url: string; headers: Record<string, unknown> }[];
  let provider: string;
  let warn: jest.SpyInstance;
  let clients: UpstreamHttpClient[];

  beforeAll(async () => {
    server = createServer((req, res) => {
      requests.push({ url: req.url ?? '', headers: req.headers });
      const reply = replies.shift() ?? { status: 200, body: '{"price":"1.5"}' };
      if (reply === 'hang') return;
      res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
      res.end(reply.body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  beforeEach(() => {
    replies = [];
    requests = [];
    clients = [];
    provider = `acme${Math.random().toString(36).slice(2, 8)}`;
    warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => {
    clients.forEach((client) => client.close());
    warn.mockRestore();
  });

  const makeClient = (options: Partial<UpstreamHttpClientOptions> = {}) => {
    const client = new UpstreamHttpClient({ provider, timeoutMs: 1_000, maxRetries: 2, sleep: async () => undefined, ...options });
    clients.push(client);
    return client;
  };
  const kv = new MemoryKvStore();
  const makeBudget = (weightPerWindow: number) => new RequestBudget({ kv, provider, weightPerWindow, windowMs: 60_000 });
  /** Weight in the budget's current window (and the previous one, in case a minute turned mid-test). */
  const spent = async (budget: RequestBudget) => {
    const values = await Promise.all([Date.now(), Date.now() - 60_000].map((at) => kv.get(budget.windowKey(at))));
    return values.reduce((sum, value) => sum + Number(value ?? 0), 0);
  };

  it("returns the checked body, sends the client's and the call's headers, and counts one ok call with its duration", async () => {
    const sut = makeClient({ headers: { 'x-api-key': 'k1' } });

    const price = await sut.request({ label: 'price', url: `${url}/p`, headers: { 'user-agent': 'us contact@example.com' }, parse: parsePrice });

    expect(price).toBe('1.5');
    expect(requests[0].headers).toMatchObject({ 'x-api-key': 'k1', 'user-agent': 'us contact@example.com', accept: 'application/json' });
    expect(await counter(upstreamCalls, { provider, outcome: 'ok' })).toBe(1);
    const { values } = await upstreamDuration.get();
    expect(values.find((v) => v.labels.provider === provider && v.metricName?.endsWith('_count'))?.value).toBe(1);
  });

  it('counts each failed attempt by kind and the call once by its outcome, and warns once naming the call', async () => {
    replies = [{ status: 503, body: '' }, 'hang', { status: 500, body: '' }];
    const sut = makeClient({ timeoutMs: 100 });

    await expect(sut.request({ label: 'price', url: `${url}/p`, parse: parsePrice })).rejects.toMatchObject({ kind: 'http', upstreamStatus: 500 });

    expect(requests).toHaveLength(3);
    expect(await counter(upstreamErrors, { provider, kind: 'http' })).toBe(2);
    expect(await counter(upstreamErrors, { provider, kind: 'timeout' })).toBe(1);
    expect(await counter(upstreamCalls, { provider, outcome: 'http' })).toBe(1);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('price failed (http)'));
  });

  it('reports a body of the wrong shape as kind shape, naming the provider and path', async () => {
    replies = [{ status: 200, body: '{"price":12}' }];
    const error = await makeClient()
      .request({ label: 'price', url: `${url}/p`, parse: parsePrice })
      .catch((err: unknown) => err);
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error).toMatchObject({ kind: 'shape', provider: 'acme', message: 'acme: price.price: expected decimal string, got number' });
    expect(await counter(upstreamCalls, { provider, outcome: 'shape' })).toBe(1);
  });

  it('spends its weight from the budget before every attempt, retries included, and charges the surcharge after', async () => {
    const budget = makeBudget(100);
    replies = [{ status: 429, body: '', headers: { 'retry-after': '0' } }];
    const sut = makeClient({ budget });

    await sut.request({ label: 'list', url: `${url}/p`, weight: 5, parse: parsePrice, surcharge: () => 7 });

    expect(requests).toHaveLength(2);
    expect(await spent(budget)).toBe(2 * 5 + 7);
  });

  it('fails with kind budget, sending nothing, when the budget has no room within maxBudgetWaitMs', async () => {
    const budget = makeBudget(10);
    await budget.spend(10);
    const sut = makeClient({ budget, maxBudgetWaitMs: 0 });

    await expect(sut.request({ label: 'price', url: `${url}/p`, parse: parsePrice })).rejects.toMatchObject({ kind: 'budget' });

    expect(requests).toHaveLength(0);
    expect(await counter(upstreamCalls, { provider, outcome: 'budget' })).toBe(1);
  });

  it('ends a call in flight as aborted on close, without a warning', async () => {
    replies = ['hang'];
    const sut = makeClient({ timeoutMs: 10_000 });
    const call = sut.request({ label: 'price', url: `${url}/p`, parse: parsePrice });
    await new Promise((resolve) => setTimeout(resolve, 50));

    sut.close();

    await expect(call).rejects.toMatchObject({ kind: 'aborted' });
    expect(warn).not.toHaveBeenCalled();
    expect(await counter(upstreamCalls, { provider, outcome: 'aborted' })).toBe(1);
  });

  it('hands parse the raw text of a feed', async () => {
    replies = [{ status: 200, body: '<rss><channel/></rss>' }];
    const text = await makeClient().request({ label: 'feed', url: `${url}/rss`, responseType: 'text', parse: (body) => String(body) });
    expect(text).toBe('<rss><channel/></rss>');
  });
  it('sends a conditional GET with the caller validators and hands parse a 304 with its headers, spending the budget', async () => {
    const budget = makeBudget(10);
    replies = [{ status: 304, body: '', headers: { etag: '"v1"' } }];
    const sut = makeClient({ budget });

    const answer = await sut.conditionalGet({
      label: 'feed',
      url: `${url}/rss`,
      responseType: 'text',
      headers: { 'if-none-match': '"v1"', 'if-modified-since': 'Sat, 13 Dec 2025 11:05:41 GMT' },
      parse: ({ status, body, headers }) => ({ status, body, etag: headers.get('etag') }),
    });

    expect(answer).toEqual({ status: 304, body: null, etag: '"v1"' });
    expect(requests[0].headers).toMatchObject({ 'if-none-match': '"v1"', 'if-modified-since': 'Sat, 13 Dec 2025 11:05:41 GMT' });
    expect(await spent(budget)).toBe(1);
    expect(await counter(upstreamCalls, { provider, outcome: 'ok' })).toBe(1);
  });

  it('hands a conditional GET answered 200 the text, its status and its headers', async () => {
    replies = [{ status: 200, body: '<rss/>', headers: { etag: '"v2"' } }];
    const answer = await makeClient().conditionalGet({
      label: 'feed',
      url: `${url}/rss`,
      responseType: 'text',
      parse: ({ status, body, headers }) => ({ status, body, etag: headers.get('etag') }),
    });
    expect(answer).toEqual({ status: 200, body: '<rss/>', etag: '"v2"' });
  });

  it('hands parse an accepted status with a null body, counting an ok call without a warning', async () => {
    replies = [{ status: 403, body: '<Error/>' }];
    const answer = await makeClient().getAccepting({
      label: 'file',
      url: `${url}/file.lz4`,
      responseType: 'bytes',
      acceptStatuses: [403],
      parse: ({ status, body }) => ({ status, body }),
    });
    expect(answer).toEqual({ status: 403, body: null });
    expect(requests).toHaveLength(1);
    expect(await counter(upstreamCalls, { provider, outcome: 'ok' })).toBe(1);
    expect(warn).not.toHaveBeenCalled();
  });

  it('hands an accepting GET answered 200 the bytes', async () => {
    replies = [{ status: 200, body: 'abc' }];
    const answer = await makeClient().getAccepting({
      label: 'file',
      url: `${url}/file.lz4`,
      responseType: 'bytes',
      acceptStatuses: [403],
      parse: ({ status, body }) => ({ status, bytes: [...(body as Buffer)] }),
    });
    expect(answer).toEqual({ status: 200, bytes: [0x61, 0x62, 0x63] });
  });

  it('reports a status the accepting GET did not accept as kind http', async () => {
    replies = [{ status: 401, body: '' }];
    const call = makeClient().getAccepting({ label: 'file', url: `${url}/file.lz4`, acceptStatuses: [403], parse: () => 'answered' });
    await expect(call).rejects.toMatchObject({ kind: 'http', upstreamStatus: 401 });
  });

  it('counts a conditional GET whose parse refuses the body as kind shape', async () => {
    replies = [{ status: 200, body: '<html></html>' }];
    const refuse = () => {
      throw new UpstreamError({ provider: 'acme', kind: 'shape', message: 'not a feed' });
    };
    await expect(makeClient().conditionalGet({ label: 'feed', url: `${url}/rss`, responseType: 'text', parse: refuse })).rejects.toMatchObject({
      kind: 'shape',
    });
    expect(await counter(upstreamCalls, { provider, outcome: 'shape' })).toBe(1);
  });
});
