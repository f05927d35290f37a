import { Logger } from '@nestjs/common';
import { createServer, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { upstreamCalls, upstreamErrors } from '../../infra/metrics/metrics';
import { CIRCUIT_RETRY_MS, UpstreamCircuit } from './upstream-circuit';
import { UpstreamHttpClient } from './upstream-http.client';

/** A reply the test scripts: a status, a dropped connection, or held until the test answers it. */
type Reply = { status: number; body: string } | 'drop' | 'hold';

const OK = { status: 200, body: '{"price":"1.5"}' };

async function counter(metric: typeof upstreamCalls | typeof upstreamErrors, labels: Record<string, string>): Promise<number> {
  const { values } = await metric.get();
  return values.find((v) => Object.entries(labels).every(([k, x]) => (v.labels as Record<string, unknown>)[k] === x))?.value ?? 0;
}

describe(UpstreamCircuit.name, () => {
  let server: Server;
  let url: string;
  let replies: Reply[];
  let requests: number;
  let held: ServerResponse[];
  let heldArrived: (() => void) | undefined;
  let provider: string;
  let now: number;
  let clients: UpstreamHttpClient[];
  let logs: jest.SpyInstance[];

  beforeAll(async () => {
    server = createServer((req, res) => {
      requests += 1;
      const reply = replies.shift() ?? OK;
      if (reply === 'drop') return void req.socket.destroy();
      if (reply === 'hold') {
        held.push(res);
        return heldArrived?.();
      }
      res.writeHead(reply.status, { 'content-type': 'application/json' });
      res.end(reply.body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/price`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  beforeEach(() => {
    replies = [];
    requests = 0;
    held = [];
    clients = [];
    now = Date.UTC(2027, 0, 15);
    provider = `acme${Math.random().toString(36).slice(2, 8)}`;
    logs = (['warn', 'log', 'debug'] as const).map((level) => jest.spyOn(Logger.prototype, level).mockImplementation(() => undefined));
  });
  afterEach(() => {
    clients.forEach((client) => client.close());
    logs.forEach((log) => log.mockRestore());
  });

  const makeClient = () => {
    const circuit = new UpstreamCircuit({ provider, now: () => now });
    const client = new UpstreamHttpClient({ provider, timeoutMs: 5_000, maxRetries: 2, sleep: async () => undefined, circuit });
    clients.push(client);
    return client;
  };
  const call = (client: UpstreamHttpClient, signal?: AbortSignal) => client.request({ label: 'price', url, parse: (body) => body, signal });
  const nextHeld = () => new Promise<void>((resolve) => (heldArrived = resolve));

  /** A client whose circuit a refused call (every attempt dropped) has just opened. */
  async function openedClient() {
    const sut = makeClient();
    replies.push('drop', 'drop', 'drop');
    await expect(call(sut)).rejects.toMatchObject({ kind: 'network' });
    return sut;
  }

  it('fails every call at once after one failed for the network, sending nothing, counted as outcome circuit and not as attempts', async () => {
    const sut = await openedClient();
    expect(requests).toBe(3);

    for (let i = 0; i < 4; i++) await expect(call(sut)).rejects.toMatchObject({ kind: 'circuit', provider, retryable: false });
    now += CIRCUIT_RETRY_MS - 1;
    await expect(call(sut)).rejects.toMatchObject({ kind: 'circuit' });

    expect(requests).toBe(3);
    expect(await counter(upstreamCalls, { provider, outcome: 'circuit' })).toBe(5);
    expect(await counter(upstreamCalls, { provider, outcome: 'network' })).toBe(1);
    expect(await counter(upstreamErrors, { provider, kind: 'network' })).toBe(3);
  });

  it('lets one trial through once the interval is over, without retries, failing the others meanwhile, and closes on its answer', async () => {
    const sut = await openedClient();
    now += CIRCUIT_RETRY_MS;
    replies.push('hold');
    const arrived = nextHeld();

    const trial = call(sut);
    await arrived;
    await expect(call(sut)).rejects.toMatchObject({ kind: 'circuit' });
    held[0].writeHead(200, { 'content-type': 'application/json' }).end('{"price":"2"}');

    await expect(trial).resolves.toEqual({ price: '2' });
    await expect(call(sut)).resolves.toEqual({ price: '1.5' });
    expect(requests).toBe(5);
  });

  it('stays open another interval when its trial fails, the trial asking once', async () => {
    const sut = await openedClient();
    now += CIRCUIT_RETRY_MS;
    replies.push('drop');

    await expect(call(sut)).rejects.toMatchObject({ kind: 'network' });
    expect(requests).toBe(4);
    now += CIRCUIT_RETRY_MS - 1;
    await expect(call(sut)).rejects.toMatchObject({ kind: 'circuit' });
    now += 1;
    await expect(call(sut)).resolves.toEqual({ price: '1.5' });
    expect(requests).toBe(5);
  });

  it("opens when the caller's deadline passes while the upstream hangs", async () => {
    const sut = makeClient();
    replies.push('hold');

    await expect(call(sut, AbortSignal.timeout(50))).rejects.toMatchObject({ kind: 'timeout' });
    await expect(call(sut)).rejects.toMatchObject({ kind: 'circuit' });
    expect(requests).toBe(1);
  });

  it('opens on an answer for the whole service (a 503, retries spent)', async () => {
    const sut = makeClient();
    replies.push({ status: 503, body: 'null' }, { status: 503, body: 'null' }, { status: 503, body: 'null' });

    await expect(call(sut)).rejects.toMatchObject({ kind: 'http', upstreamStatus: 503 });
    await expect(call(sut)).rejects.toMatchObject({ kind: 'circuit' });
  });

  it("stays closed on an answer that is that request's own: a 404, a 500, a body that is not JSON", async () => {
    const sut = makeClient();
    replies.push(
      { status: 404, body: 'null' },
      { status: 500, body: 'null' },
      { status: 500, body: 'null' },
      { status: 500, body: 'null' },
      { status: 200, body: '<html>' },
    );

    await expect(call(sut)).rejects.toMatchObject({ kind: 'http', upstreamStatus: 404 });
    await expect(call(sut)).rejects.toMatchObject({ kind: 'http', upstreamStatus: 500 });
    await expect(call(sut)).rejects.toMatchObject({ kind: 'shape' });
    await expect(call(sut)).resolves.toEqual({ price: '1.5' });
    expect(requests).toBe(6);
  });

  it('still owes the trial when the caller stopped before the upstream could answer it', async () => {
    const sut = await openedClient();
    now += CIRCUIT_RETRY_MS;
    const stopped = new AbortController();
    stopped.abort();

    await expect(call(sut, stopped.signal)).rejects.toMatchObject({ kind: 'aborted' });
    await expect(call(sut)).resolves.toEqual({ price: '1.5' });
  });
});
