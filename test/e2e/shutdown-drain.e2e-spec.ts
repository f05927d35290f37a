import { Agent, get as httpGet, IncomingHttpHeaders } from 'node:http';
import { connect, Socket } from 'node:net';
import { createTestApp, TestApp } from '../support/create-test-app';
import { makeAccount, TestAccount } from '../support/factories';
import { PUBLIC } from '../support/http';
import { freePort, killSpawned, Spawned, spawnTs, waitFor } from '../support/child-process';
import { TEST_ADAPTER, TEST_DATABASE_URL, TEST_REDIS_URL, testConfig, uniqueKeyPrefix } from '../support/test-env';
import { HELD_CALL, HeldUpstream } from '../support/held-upstream';

// Each spawn compiles with ts-node and starts the whole app: seconds, more on a busy machine.
const START_TIMEOUT_MS = 60_000;
/** The stop itself takes a few seconds at most (the longest is the 1.5 s grace period). */
const STOP_TIMEOUT_MS = 15_000;
/** Far below the server's 65 s keep-alive timeout: a socket closed within it was closed by the drain. */
const PROMPTLY_MS = 5_000;
const HELD_ROUTE = `${PUBLIC}${HELD_CALL}`;
/** No vendor but the held CoinGecko one is ever reached; nothing listens on port 9. */
const NO_VENDOR = 'http://127.0.0.1:9';

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
}

/** One GET on its own keep-alive connection: the socket as soon as it is assigned, and the answer once read. */
function getKeepAlive(port: number, path: string, headers: Record<string, string> = {}): { socket: Promise<Socket>; answer: Promise<Answer> } {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const req = httpGet({ host: '127.0.0.1', port, path, headers, agent });
  const socket = new Promise<Socket>((resolve) => req.once('socket', resolve));
  const answer = new Promise<Answer>((resolve, reject) => {
    req.once('error', reject);
    req.once('response', (res) => {
      res.resume();
      res.once('end', () => resolve({ status: res.statusCode!, headers: res.headers }));
    });
  });
  return { socket, answer };
}

/** Resolves when the other side closes `socket`; rejects when it is still open after `ms`. */
function closedWithin(socket: Socket, ms: number): Promise<void> {
  if (socket.destroyed) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`connection still open ${ms} ms after the stop`)), ms);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** How a new connection to `port` ends: 'refused', or 'accepted'. */
function tryConnect(port: number): Promise<'refused' | 'accepted'> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve('accepted');
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED' ? 'refused' : 'accepted'));
  });
}

function exitWithin(server: Spawned, ms: number): Promise<number | null> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>(
    (_, reject) => (timer = setTimeout(() => reject(new Error(`still running ${ms} ms after the stop:\n${server.output()}`)), ms)),
  );
  return Promise.race([server.exited, late]).finally(() => clearTimeout(timer));
}

describe(`Stopping a replica drains its connections (${TEST_ADAPTER})`, () => {
  let t: TestApp;
  let caller: TestAccount;
  let upstream: HeldUpstream;
  let server: Spawned | undefined;

  beforeAll(async () => {
    t = await createTestApp(testConfig());
  });
  beforeEach(async () => {
    caller = await makeAccount(t, { tier: 'pro' });
    upstream = new HeldUpstream();
    await upstream.start();
  });
  afterEach(async () => {
    await killSpawned(server);
    await upstream.stop();
  });
  afterAll(() => t.close());

  async function startServer(graceMs: number): Promise<number> {
    const port = await freePort();
    server = spawnTs('src/main.ts', {
      NODE_ENV: 'test',
      LOG_LEVEL: 'log',
      PORT: String(port),
      HTTP_HOST: '127.0.0.1',
      HTTP_ADAPTER: TEST_ADAPTER,
      HTTP_SHUTDOWN_GRACE_MS: String(graceMs),
      DATABASE_URL: TEST_DATABASE_URL,
      REDIS_URL: TEST_REDIS_URL,
      REDIS_KEY_PREFIX: uniqueKeyPrefix(),
      JOBS_ENABLED: 'false',
      COINGECKO_API_URL: upstream.url,
      BINANCE_API_URL: NO_VENDOR,
      YAHOO_QUERY_URL: NO_VENDOR,
      YAHOO_COOKIE_URL: NO_VENDOR,
      HYPERLIQUID_INFO_URL: NO_VENDOR,
    });
    await waitFor('/health/ready', async () => (await fetch(`http://127.0.0.1:${port}/health/ready`)).status === 200, START_TIMEOUT_MS, server);
    return port;
  }

  /** A keep-alive connection that made one call and now waits, and a second one with a call held at the upstream. */
  async function openConnections(port: number) {
    const idle = getKeepAlive(port, '/health/live');
    expect((await idle.answer).headers.connection).toBe('keep-alive');
    const busy = getKeepAlive(port, HELD_ROUTE, { 'x-api-key': caller.key });
    await upstream.arrived();
    return { idleSocket: await idle.socket, busySocket: await busy.socket, busyAnswer: busy.answer };
  }

  it('answers the call in flight with Connection: close, closes the idle connection at once, refuses new ones, then exits 0 with the call billed', async () => {
    const port = await startServer(20_000);
    const { idleSocket, busySocket, busyAnswer } = await openConnections(port);
    let answered = false;
    void busyAnswer.then(
      () => (answered = true),
      () => (answered = true),
    );

    server!.child.kill('SIGTERM');
    await closedWithin(idleSocket, PROMPTLY_MS);
    // The listening socket closes in the same turn as the idle connection, a few microseconds after it: a
    // client quick enough may still slip in between, so the refusal is awaited (briefly), not sampled once.
    await waitFor('new connections to be refused', async () => (await tryConnect(port)) === 'refused', PROMPTLY_MS);
    // The drain came first: the call is still in flight (nothing stopped its upstream read), and the process waits for it.
    expect(answered).toBe(false);
    expect(server!.child.exitCode).toBeNull();

    upstream.release();
    const answer = await busyAnswer;
    expect({ status: answer.status, connection: answer.headers.connection }).toEqual({ status: 200, connection: 'close' });
    await closedWithin(busySocket, PROMPTLY_MS);
    expect(await exitWithin(server!, STOP_TIMEOUT_MS)).toBe(0);
    expect(server!.output()).not.toMatch(/ERROR/);

    // The flushes ran after the answer: its charge and its usage are in PostgreSQL.
    const charges = await t.db.query(`SELECT type, reference_id, endpoint FROM credit_transactions WHERE account_id = $1 AND type <> 'adjustment'`, [
      caller.account.id,
    ]);
    expect(charges).toEqual([{ type: 'charge', reference_id: answer.headers['x-request-id'], endpoint: 'markets.global-stats' }]);
    const usage = await t.db.query(`SELECT endpoint, calls::int AS calls FROM usage_counters WHERE account_id = $1`, [caller.account.id]);
    expect(usage).toEqual([{ endpoint: 'markets.global-stats', calls: 1 }]);
  }, 90_000);

  it('closes a connection whose call is still running when the grace period ends, exits 0, and charges nothing for the cut call', async () => {
    const port = await startServer(1_500);
    const { idleSocket, busySocket, busyAnswer } = await openConnections(port);
    const cut = expect(busyAnswer).rejects.toThrow(/socket hang up|ECONNRESET/);

    server!.child.kill('SIGTERM');
    await closedWithin(idleSocket, PROMPTLY_MS);
    await closedWithin(busySocket, PROMPTLY_MS);
    await cut;
    expect(await exitWithin(server!, STOP_TIMEOUT_MS)).toBe(0);
    expect(server!.output()).toContain('HTTP_SHUTDOWN_GRACE_MS');
    // The cut call failed once the upstream clients aborted their reads, and was refunded before the flushes.
    const [{ charged }] = await t.db.query(
      `SELECT trim_scale(coalesce(sum(amount), 0))::text AS charged FROM credit_transactions WHERE account_id = $1 AND type <> 'adjustment'`,
      [caller.account.id],
    );
    expect(charged).toBe('0');
    const [{ calls }] = await t.db.query(`SELECT coalesce(sum(calls), 0)::int AS calls FROM usage_counters WHERE account_id = $1`, [caller.account.id]);
    expect(calls).toBe(0);
  }, 90_000);
});
