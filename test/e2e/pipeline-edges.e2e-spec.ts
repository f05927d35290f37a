import { randomBytes } from 'node:crypto';
import { AddressInfo, connect, Socket } from 'node:net';
import request from 'supertest';
import { LedgerFlusherService } from '../../src/modules/billing/ledger-flusher.service';
import { AccountRepository } from '../../src/modules/account/account.repository';
import { generateApiKey, hashApiKey } from '../../src/modules/account/api-key-format';
import { createTestApp, TestApp } from '../support/create-test-app';
import { makeAccount } from '../support/factories';
import { get, PUBLIC, waitForFreshWindow } from '../support/http';
import { resetDb } from '../support/reset-db';
import { testConfig } from '../support/test-env';

/** Listens on a random local port (once per app) and answers the port: raw sockets need a listening server. */
async function listen(t: TestApp): Promise<number> {
  const server = t.app.getHttpServer();
  if (!server.listening) await t.app.listen(0, '127.0.0.1');
  return (server.address() as AddressInfo).port;
}

interface RawExchange {
  /** Everything the server sent, as text. */
  text: string;
  /** Milliseconds from connecting until the server closed the connection (Infinity if it never did). */
  closedAfterMs: number;
}

/** Writes `payload` on a fresh connection and reads until the server closes it, or `waitMs` passes. */
function rawExchange(port: number, payload: string, waitMs = 3000): Promise<RawExchange> {
  return new Promise((resolve) => {
    const started = Date.now();
    let text = '';
    const socket: Socket = connect(port, '127.0.0.1', () => socket.write(payload));
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ text, closedAfterMs: Infinity });
    }, waitMs);
    socket.on('data', (chunk) => (text += chunk.toString()));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ text, closedAfterMs: Date.now() - started });
    });
  });
}

/** The status, lower-cased headers and JSON body of a raw HTTP response. */
function parseRaw(text: string): { status: number; headers: Record<string, string>; body: unknown } {
  const [head, body] = text.split('\r\n\r\n');
  const [statusLine, ...lines] = head.split('\r\n');
  const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
  return { status: Number(statusLine.split(' ')[1]), headers, body: body ? JSON.parse(body) : undefined };
}

describe('Public API pipeline edges', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp(testConfig({ LEDGER_FLUSH_INTERVAL_MS: '60000' }));
    await resetDb(t.db);
  });
  afterAll(() => t.close());

  describe('HEAD', () => {
    it('answers like GET, headers and all but no body, counts in the window, and is never billed nor in /usage', async () => {
      const { key, account } = await makeAccount(t, { tier: 'pro' });
      await waitForFreshWindow();
      const head = await request(t.server as never)
        .head(`${PUBLIC}/account/vip`)
        .set('x-api-key', key);
      expect(head.status).toBe(200);
      expect(head.text ?? '').toBe('');
      expect(head.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      expect(head.headers['x-ratelimit-limit']).toBe('200');
      expect(head.headers['x-ratelimit-remaining']).toBe('199');
      expect(head.headers['x-credits-cost']).toBe('0');
      expect(head.headers['x-credits-remaining']).toBe('10000000');
      expect(
        (
          await request(t.server as never)
            .head(`${PUBLIC}/account/vip`)
            .set('x-api-key', key)
        ).headers['x-ratelimit-remaining'],
      ).toBe('198');

      const usage = await get(t, '/usage', key);
      expect(usage.headers['x-ratelimit-remaining']).toBe('197');
      expect(usage.body.data.map((row: { endpoint: string }) => row.endpoint)).not.toContain('account.vip');
      const credits = await get(t, '/account/credits', key);
      expect(credits.body.data.balance).toBe('9999999');
      await t.app.get(LedgerFlusherService).flush();
      const charges = await t.db.query(`SELECT endpoint FROM credit_transactions WHERE account_id = $1 AND type = 'charge'`, [account.id]);
      expect(charges).toEqual([{ endpoint: 'account.credits' }]);
    });

    it('answers 403 where its GET would, once the credits are gone', async () => {
      const { key } = await makeAccount(t, { tier: 'pro', credits: '0' });
      const head = await request(t.server as never)
        .head(`${PUBLIC}/account/vip`)
        .set('x-api-key', key);
      expect(head.status).toBe(403);
      expect(head.headers['x-credits-remaining']).toBe('0');
      expect((await get(t, '/account/vip', key)).status).toBe(403);
    });

    it('refuses a HEAD with an unknown parameter as its GET would', async () => {
      const { key } = await makeAccount(t, { tier: 'pro' });
      const head = await request(t.server as never)
        .head(`${PUBLIC}/account/vip?bogus=1`)
        .set('x-api-key', key);
      expect(head.status).toBe(400);
      expect(head.headers['x-credits-cost']).toBe('0');
    });
  });

  describe('requests no route answers', () => {
    it("answers other methods on a public route 404 in the envelope, unbilled, with the key's rate-limit headers", async () => {
      const { key } = await makeAccount(t, { tier: 'pro' });
      await waitForFreshWindow();
      for (const method of ['post', 'put', 'patch', 'delete', 'options'] as const) {
        const res = await request(t.server as never)
          [method](`${PUBLIC}/account/credits`)
          .set('x-api-key', key);
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ code: 'NOT_FOUND', msg: expect.any(String), data: null });
        expect(res.headers['x-credits-cost']).toBe('0');
        expect(res.headers['x-credits-remaining']).toBe('10000000');
        expect(res.headers['x-ratelimit-limit']).toBe('200');
      }
      const after = await get(t, '/account/credits', key);
      expect(after.body.data.balance).toBe('9999999');
      // The five count in the window: they are requests of this key.
      expect(after.headers['x-ratelimit-remaining']).toBe('194');
    });

    it('gives a 404 for an unknown route called with a valid key the rate-limit headers, and none without a key', async () => {
      const { key } = await makeAccount(t, { tier: 'free' });
      const res = await get(t, '/nope', key);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ code: 'NOT_FOUND', msg: 'route not found', data: null });
      expect(res.headers['x-ratelimit-limit']).toBe('60');
      expect(Number(res.headers['x-ratelimit-remaining'])).toBeLessThan(60);
      expect(res.headers['x-ratelimit-reset']).toMatch(/^\d+$/);
      expect(res.headers['x-credits-remaining']).toBeUndefined();
      const keyless = await get(t, '/nope');
      expect(keyless.status).toBe(404);
      expect(keyless.headers['x-ratelimit-limit']).toBeUndefined();
    });

    it('answers a key over its cap 429 on an unknown route too', async () => {
      const { key } = await makeAccount(t, { tier: 'free' });
      await waitForFreshWindow();
      await Promise.all(Array.from({ length: 60 }, () => get(t, '/usage', key)));
      const res = await get(t, '/nope', key);
      expect(res.status).toBe(429);
      expect(res.body.code).toBe('RATE_LIMITED');
      expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(res.headers['x-ratelimit-remaining']).toBe('0');
    });
  });

  describe('request bodies', () => {
    it.each([`${PUBLIC}/account`, `${PUBLIC}/nope`, '/nope'])('answers malformed JSON posted to %s 400 naming body', async (path) => {
      const res = await request(t.server as never)
        .post(path)
        .set('content-type', 'application/json')
        .send('{"coin": BTC');
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ code: 'VALIDATION_ERROR', msg: 'body: malformed JSON', data: null });
      expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    });

    it.each(['', 'Content-Type: application/json\r\n'])('refuses a declared body over the limit at once with 413 and closes (%s)', async (contentType) => {
      const port = await listen(t);
      const { text, closedAfterMs } = await rawExchange(
        port,
        `POST ${PUBLIC}/account HTTP/1.1\r\nHost: localhost\r\n${contentType}Content-Length: 200000\r\n\r\n`,
      );
      expect(closedAfterMs).toBeLessThan(1000);
      const res = parseRaw(text);
      expect(res.status).toBe(413);
      expect(res.body).toEqual({ code: 'VALIDATION_ERROR', msg: 'body: larger than the 102400-byte limit', data: null });
      expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    });
  });

  describe("node's own refusals", () => {
    it('answers headers over the limit 431 in the envelope with a request id', async () => {
      const port = await listen(t);
      const { text, closedAfterMs } = await rawExchange(port, `GET ${PUBLIC}/account HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
      expect(closedAfterMs).toBeLessThan(1000);
      const res = parseRaw(text);
      expect(res.status).toBe(431);
      expect(res.body).toEqual({ code: 'VALIDATION_ERROR', msg: expect.stringMatching(/^headers: /), data: null });
      expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      expect(res.headers['content-type']).toContain('application/json');
    });

    it('answers a malformed request line 400 in the envelope', async () => {
      const port = await listen(t);
      const res = parseRaw((await rawExchange(port, 'NOT HTTP AT ALL\r\n\r\n')).text);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ code: 'VALIDATION_ERROR', msg: expect.stringMatching(/^request: /), data: null });
      expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    });

    it('keeps idle keep-alive connections past the headers timeout by default (above a 60 s balancer)', () => {
      const server = t.app.getHttpServer() as { keepAliveTimeout: number; headersTimeout: number; requestTimeout: number };
      expect(server.keepAliveTimeout).toBeGreaterThan(60_000);
      expect(server.requestTimeout).toBeLessThanOrEqual(60_000);
      expect(server.headersTimeout).toBeLessThanOrEqual(server.requestTimeout);
    });
  });
});

describe('Public API pipeline edges: timeouts', () => {
  let t: TestApp;
  let port: number;

  beforeAll(async () => {
    t = await createTestApp(testConfig({ HTTP_HEADERS_TIMEOUT_MS: '1000', HTTP_REQUEST_TIMEOUT_MS: '2000' }));
    port = await listen(t);
  });
  afterAll(() => t.close());

  it('answers headers not received in time 408 in the envelope within seconds', async () => {
    const { text, closedAfterMs } = await rawExchange(port, `GET ${PUBLIC}/account HTTP/1.1\r\nHost: localhost\r\n`, 5000);
    expect(closedAfterMs).toBeLessThan(3000);
    const res = parseRaw(text);
    expect(res.status).toBe(408);
    expect(res.body).toEqual({ code: 'VALIDATION_ERROR', msg: expect.stringMatching(/^request: /), data: null });
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('does not cut an idle keep-alive connection at the headers or request timeout', async () => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    socket.on('data', (chunk) => (text += chunk.toString()));
    const ask = `GET /health/live HTTP/1.1\r\nHost: localhost\r\n\r\n`;
    socket.write(ask);
    await new Promise((resolve) => setTimeout(resolve, 3000));
    expect(socket.destroyed).toBe(false);
    socket.write(ask);
    await new Promise((resolve) => setTimeout(resolve, 300));
    socket.destroy();
    expect(text.match(/HTTP\/1\.1 200/g)).toHaveLength(2);
  });
});

describe('Public API pipeline edges: unknown keys', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp(testConfig());
  });
  afterAll(() => t.close());

  it('makes a handful of database queries for 1,000 random keys from one client, whatever X-Forwarded-For says, and keeps its valid key working', async () => {
    const { key } = await makeAccount(t, { tier: 'pro' });
    expect((await get(t, '/account/vip', key)).status).toBe(200);
    const repository = t.app.get(AccountRepository);
    const junk = Array.from({ length: 1000 }, () => generateApiKey().plaintext);
    const junkHashes = new Set(junk.map(hashApiKey));
    const lookups = jest.spyOn(repository, 'findCallersByKeyHashes');
    const statuses: number[] = [];
    try {
      for (let i = 0; i < junk.length; i += 50) {
        const batch = await Promise.all(
          junk.slice(i, i + 50).map((junkKey) => get(t, '/account/vip', junkKey).set('x-forwarded-for', `198.51.100.${randomBytes(1)[0]}`)),
        );
        for (const res of batch) {
          statuses.push(res.status);
          expect(res.body.data).toBeNull();
          if (res.status === 429) expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
        }
        // A key the client already used keeps working in the middle of the flood.
        expect((await get(t, '/account/vip', key)).status).toBe(200);
      }
      const junkQueries = lookups.mock.calls.filter(([hashes]) => hashes.some((hash) => junkHashes.has(hash)));
      expect(junkQueries.length).toBeLessThanOrEqual(10);
    } finally {
      lookups.mockRestore();
    }
    expect(statuses.every((status) => status === 401 || status === 429)).toBe(true);
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThan(900);
  });
});

describe('Public API pipeline edges: behind a trusted proxy', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp(testConfig({ TRUST_PROXY: 'true', API_KEY_FAILED_LOOKUPS_PER_MINUTE: '2' }));
  });
  afterAll(() => t.close());

  it('limits unknown keys per X-Forwarded-For client when TRUST_PROXY says to believe it', async () => {
    const from = (client: string) => get(t, '/account', generateApiKey().plaintext).set('x-forwarded-for', client);
    expect((await from('203.0.113.1')).status).toBe(401);
    expect((await from('203.0.113.1')).status).toBe(401);
    expect((await from('203.0.113.1')).status).toBe(429);
    expect((await from('203.0.113.2')).status).toBe(401);
  });
});
