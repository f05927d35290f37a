import { getEventListeners } from 'node:events';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { fetchJson, FetchJsonOptions, fetchUpstream, parseRetryAfter, RETRY_AFTER_CAP_MS } from './fetch-json';
import { UpstreamError } from './upstream.error';

type Handler = (req: IncomingMessage, res: ServerResponse, attempt: number) => void;

/** A tiny upstream whose behaviour per attempt is scripted by the test. */
async function startServer(handler: Handler): Promise<{ url: string; attempts: () => number; bodies: string[]; close: () => Promise<void> }> {
  let attempts = 0;
  const bodies: string[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      attempts += 1;
      bodies.push(body);
      handler(req, res, attempts);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/info`,
    attempts: () => attempts,
    bodies,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

describe(fetchJson.name, () => {
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  const sleeps: number[] = [];
  const base = (url: string): FetchJsonOptions => ({
    url,
    method: 'POST',
    body: { type: 'allMids' },
    timeoutMs: 2_000,
    maxRetries: 3,
    provider: 'test',
    sleep: async (ms) => void sleeps.push(ms),
    random: () => 0.5,
  });

  beforeEach(() => (sleeps.length = 0));
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('posts the JSON body and returns the parsed response', async () => {
    server = await startServer((req, res) => json(res, 200, { method: req.method, type: req.headers['content-type'] }));
    await expect(fetchJson(base(server.url))).resolves.toEqual({ method: 'POST', type: 'application/json' });
    expect(JSON.parse(server.bodies[0])).toEqual({ type: 'allMids' });
  });

  it('retries a 500 twice and succeeds on the third attempt with growing backoff', async () => {
    server = await startServer((_req, res, attempt) => (attempt <= 2 ? json(res, 500, null) : json(res, 200, { ok: true })));
    await expect(fetchJson({ ...base(server.url), backoffBaseMs: 100 })).resolves.toEqual({ ok: true });
    expect(server.attempts()).toBe(3);
    // equal jitter with random 0.5: 3/4 of 100 then of 200
    expect(sleeps).toEqual([75, 150]);
  });

  it('honours Retry-After seconds on a 429', async () => {
    server = await startServer((_req, res, attempt) => (attempt === 1 ? json(res, 429, null, { 'retry-after': '2' }) : json(res, 200, [])));
    await expect(fetchJson(base(server.url))).resolves.toEqual([]);
    expect(server.attempts()).toBe(2);
    expect(sleeps).toEqual([2_000]);
  });

  it('caps a long Retry-After', async () => {
    server = await startServer((_req, res, attempt) => (attempt === 1 ? json(res, 503, null, { 'retry-after': '3600' }) : json(res, 200, 1)));
    await expect(fetchJson(base(server.url))).resolves.toBe(1);
    expect(sleeps).toEqual([RETRY_AFTER_CAP_MS]);
  });

  it('does not retry a 404 and reports the status without the body', async () => {
    server = await startServer((_req, res) => json(res, 404, { secret: 'do-not-log' }));
    const error = await fetchJson(base(server.url)).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error).toMatchObject({ kind: 'http', upstreamStatus: 404, provider: 'test' });
    expect((error as Error).message).not.toContain('do-not-log');
    expect(server.attempts()).toBe(1);
    expect(sleeps).toEqual([]);
  });

  it('gives up after maxRetries with the last error', async () => {
    server = await startServer((_req, res) => json(res, 502, null));
    await expect(fetchJson({ ...base(server.url), maxRetries: 2 })).rejects.toMatchObject({ kind: 'http', upstreamStatus: 502 });
    expect(server.attempts()).toBe(3);
  });

  it('times out a hanging upstream as kind timeout, retrying each attempt', async () => {
    server = await startServer(() => undefined); // never answers
    await expect(fetchJson({ ...base(server.url), timeoutMs: 100, maxRetries: 1 })).rejects.toMatchObject({ kind: 'timeout', provider: 'test' });
    expect(server.attempts()).toBe(2);
  });

  it('times out a body that stalls after the headers', async () => {
    server = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"partial":');
    });
    await expect(fetchJson({ ...base(server.url), timeoutMs: 100, maxRetries: 0 })).rejects.toMatchObject({ kind: 'timeout' });
  });

  it('reports a refused connection as kind network after retrying', async () => {
    server = await startServer(() => undefined);
    const { url } = server;
    await server.close();
    server = undefined;
    await expect(fetchJson({ ...base(url), maxRetries: 1 })).rejects.toMatchObject({ kind: 'network' });
    expect(sleeps).toHaveLength(1);
  });

  it('reports a body that is not JSON as kind shape without retrying', async () => {
    server = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html>maintenance</html>');
    });
    await expect(fetchJson(base(server.url))).rejects.toMatchObject({ kind: 'shape' });
    expect(server.attempts()).toBe(1);
  });

  it('awaits beforeAttempt before every attempt, retries included', async () => {
    server = await startServer((_req, res, attempt) => (attempt <= 2 ? json(res, 503, null) : json(res, 200, { ok: true })));
    const calls: Array<{ attempt: number; requestsSoFar: number }> = [];
    const { attempts } = server;
    const beforeAttempt = async (attempt: number) => void calls.push({ attempt, requestsSoFar: attempts() });

    await expect(fetchJson({ ...base(server.url), beforeAttempt })).resolves.toEqual({ ok: true });

    expect(calls).toEqual([
      { attempt: 1, requestsSoFar: 0 },
      { attempt: 2, requestsSoFar: 1 },
      { attempt: 3, requestsSoFar: 2 },
    ]);
  });

  it('ends the call with what beforeAttempt throws, sending nothing more', async () => {
    server = await startServer((_req, res) => json(res, 503, null));
    const refused = new UpstreamError({ provider: 'test', kind: 'budget', message: 'no weight left' });
    const beforeAttempt = async (attempt: number) => {
      if (attempt === 2) throw refused;
    };

    await expect(fetchJson({ ...base(server.url), beforeAttempt })).rejects.toBe(refused);
    expect(server.attempts()).toBe(1);
  });

  it('stops when the caller aborts', async () => {
    server = await startServer(() => undefined);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    await expect(fetchJson({ ...base(server.url), timeoutMs: 5_000, signal: controller.signal })).rejects.toMatchObject({
      kind: 'aborted',
      name: 'AbortError',
    });
    expect(server.attempts()).toBe(1);
  });

  it("reports an attempt the caller's deadline cut short as kind timeout: the upstream did not answer in the time it had", async () => {
    server = await startServer(() => undefined); // never answers
    const deadline = AbortSignal.timeout(50);
    await expect(fetchJson({ ...base(server.url), timeoutMs: 5_000, signal: deadline })).rejects.toMatchObject({ kind: 'timeout', name: 'UpstreamError' });
    expect(server.attempts()).toBe(1);
  });

  it("keeps the last failure when the caller's deadline passes during the backoff", async () => {
    server = await startServer((_req, res) => json(res, 503, null));
    const deadline = AbortSignal.timeout(50);
    const waitForDeadline = (_ms: number, signal?: AbortSignal) => new Promise<void>((_resolve, reject) => signal?.addEventListener('abort', reject));
    await expect(fetchJson({ ...base(server.url), sleep: waitForDeadline, signal: deadline })).rejects.toMatchObject({ kind: 'http', upstreamStatus: 503 });
    expect(server.attempts()).toBe(1);
  });

  it("waits out its retries without adding a listener per call to the caller's signal", async () => {
    server = await startServer((_req, res) => json(res, 503, null));
    const controller = new AbortController();
    const calls = Array.from({ length: 20 }, () => fetchJson({ ...base(server!.url), maxRetries: 1, sleep: undefined, signal: controller.signal }));
    await new Promise((resolve) => setTimeout(resolve, 200));

    expect(getEventListeners(controller.signal, 'abort').length).toBeLessThanOrEqual(1);
    controller.abort();
    const settled = await Promise.allSettled(calls);
    expect(settled.every((s) => s.status === 'rejected' && (s.reason as UpstreamError).kind === 'aborted')).toBe(true);
  });
});

describe(fetchUpstream.name, () => {
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  const sleeps: number[] = [];
  const feedGet = (url: string): FetchJsonOptions => ({
    url,
    responseType: 'text',
    headers: { 'if-none-match': '"v1"' },
    timeoutMs: 2_000,
    maxRetries: 2,
    provider: 'test',
    sleep: async (ms) => void sleeps.push(ms),
  });

  beforeEach(() => (sleeps.length = 0));
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('returns the status and the response headers with the body', async () => {
    server = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/rss+xml', etag: '"v2"', 'last-modified': 'Sat, 13 Dec 2025 11:05:41 GMT' });
      res.end('<rss/>');
    });
    const response = await fetchUpstream(feedGet(server.url));
    expect(response.status).toBe(200);
    expect(response.body).toBe('<rss/>');
    expect(response.headers.get('etag')).toBe('"v2"');
    expect(response.headers.get('last-modified')).toBe('Sat, 13 Dec 2025 11:05:41 GMT');
  });

  it('answers a 304 with a null body and its headers when the call accepts it', async () => {
    server = await startServer((req, res) => {
      res.writeHead(304, { etag: String(req.headers['if-none-match']) });
      res.end();
    });
    const response = await fetchUpstream({ ...feedGet(server.url), acceptNotModified: true });
    expect(response).toMatchObject({ status: 304, body: null });
    expect(response.headers.get('etag')).toBe('"v1"');
    expect(server.attempts()).toBe(1);
  });

  it('returns the body as bytes, unaltered, for a binary file', async () => {
    const bytes = Buffer.from([0x04, 0x22, 0x4d, 0x18, 0xff, 0x00, 0xc3]);
    server = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      res.end(bytes);
    });
    const response = await fetchUpstream({ ...feedGet(server.url), responseType: 'bytes' });
    expect(Buffer.isBuffer(response.body)).toBe(true);
    expect(response.body).toEqual(bytes);
  });

  it('answers an accepted status with a null body, without retrying', async () => {
    server = await startServer((_req, res) => {
      res.writeHead(403, { 'content-type': 'application/xml' });
      res.end('<Error><Code>AccessDenied</Code></Error>');
    });
    const response = await fetchUpstream({ ...feedGet(server.url), responseType: 'bytes', acceptStatuses: [403, 404] });
    expect(response).toMatchObject({ status: 403, body: null });
    expect(server.attempts()).toBe(1);
  });

  it('still retries a 5xx when other statuses are accepted', async () => {
    server = await startServer((_req, res, attempt) => {
      res.writeHead(attempt === 1 ? 503 : 403);
      res.end();
    });
    const response = await fetchUpstream({ ...feedGet(server.url), acceptStatuses: [403] });
    expect(response.status).toBe(403);
    expect(server.attempts()).toBe(2);
  });

  it('fails on a 304 the call did not ask for, without retrying', async () => {
    server = await startServer((_req, res) => {
      res.writeHead(304);
      res.end();
    });
    await expect(fetchUpstream(feedGet(server.url))).rejects.toMatchObject({ kind: 'http', upstreamStatus: 304 });
    expect(server.attempts()).toBe(1);
    expect(sleeps).toEqual([]);
  });
});

describe(parseRetryAfter.name, () => {
  it('reads delta-seconds and HTTP dates, and ignores garbage', () => {
    expect(parseRetryAfter('3')).toBe(3_000);
    expect(parseRetryAfter(new Date(10_000).toUTCString(), 4_000)).toBe(6_000);
    expect(parseRetryAfter('soon')).toBeUndefined();
    expect(parseRetryAfter(null)).toBeUndefined();
  });
});
