import { createServer, request } from 'node:http';
import { AddressInfo } from 'node:net';
import { RunningSimulator, startSimulator } from '../../src/simulator/simulator.server';
import { createTestApp, TestApp } from './create-test-app';
import { runJob } from './hl-stack';
import { get } from './http';
import { resetDb } from './reset-db';
import { testConfig } from './test-env';

/** A decimal string as the contract serves it: never an exponent. */
export const DECIMAL = /^-?\d+(\.\d+)?$/;
export const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
export const ASSET_KEYS = [
  'id',
  'symbol',
  'name',
  'type',
  'price',
  'change1h',
  'change24h',
  'change7d',
  'volume24h',
  'marketCap',
  'high24h',
  'low24h',
  'sparkline7d',
  'market',
  'stockCode',
  'currency',
  'updatedAt',
];
export const ASSET_TYPES = ['CRYPTO', 'STOCK', 'ETF', 'FOREX', 'COMMODITY'];
export const CATALOGUE_JOBS = ['hl.markets', 'markets.crypto', 'markets.tradfi'];

type Data = Record<string, any>;

/** Checks one Asset (contract 2.3 plus market, stockCode, currency, updatedAt); `extra` names detail fields. */
export function expectAsset(asset: Data, extra: string[] = []): void {
  expect(Object.keys(asset).sort()).toEqual([...ASSET_KEYS, ...extra].sort());
  expect(Number.isInteger(asset.id)).toBe(true);
  expect(ASSET_TYPES).toContain(asset.type);
  for (const field of ['price', 'change1h', 'change24h', 'change7d', 'volume24h', 'marketCap', 'high24h', 'low24h']) {
    if (asset[field] !== null) expect({ [field]: asset[field] }).toEqual({ [field]: expect.stringMatching(DECIMAL) });
  }
  expect(asset.price).not.toBeNull();
  expect(Array.isArray(asset.sparkline7d)).toBe(true);
  for (const point of asset.sparkline7d) expect(point).toMatch(DECIMAL);
  expect(asset.updatedAt).toMatch(ISO_MS);
  expect(asset.currency).toMatch(/^[A-Z]{3}$/);
  if (asset.type === 'STOCK') expect(asset.stockCode).toBe(`${asset.symbol}-${asset.market}`);
  else expect(asset.stockCode).toBeNull();
}

/** Records every request an app sends upstream, and can play dead. */
export interface CountingProxy {
  url: string;
  /** Paths requested since the last reset, in order. */
  hits: string[];
  /** While true, every request is answered by a dropped connection. */
  down: boolean;
  /** Resolves with the path of the next request the proxy receives. */
  nextHit(): Promise<string>;
  close(): Promise<void>;
}

/** A pass-through HTTP proxy in front of `target`, so a test can see whether a route reached the upstream. */
export async function startCountingProxy(target: string): Promise<CountingProxy> {
  const waiters: Array<(path: string) => void> = [];
  const server = createServer((req, res) => {
    const path = req.url ?? '/';
    proxy.hits.push(path);
    waiters.splice(0).forEach((wake) => wake(path));
    if (proxy.down) return void req.socket.destroy();
    const upstream = request(`${target}${req.url}`, { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const proxy: CountingProxy = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits: [],
    down: false,
    nextHit: () => new Promise<string>((resolve) => waiters.push(resolve)),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  return proxy;
}

export interface MarketsStack {
  sim: RunningSimulator;
  /** What the app sends to the simulator passes here. */
  upstream: CountingProxy;
  t: TestApp;
  close(): Promise<void>;
}

/**
 * The simulator behind a counting proxy, the app pointed at it, and a catalogue filled by the real jobs. The
 * vendors' per-minute budgets are off (0) on both sides: these tests are about the routes, not about pacing.
 */
export async function startMarketsStack(): Promise<MarketsStack> {
  const sim = await startSimulator({ wallets: 50, coingeckoCallsPerMinute: 0, yahooCallsPerMinute: 0 });
  const upstream = await startCountingProxy(sim.url);
  const env = Object.fromEntries(Object.entries(sim.env).map(([name, value]) => [name, value.replaceAll(sim.url, upstream.url)]));
  const t = await createTestApp(testConfig(env));
  await resetDb(t.db);
  for (const job of CATALOGUE_JOBS) expect((await runJob(t, job)).status).toBe('ok');
  upstream.hits.length = 0;
  return {
    sim,
    upstream,
    t,
    close: async () => {
      await t.close();
      await upstream.close();
      await sim.close();
    },
  };
}

/** Calls and checks for one API key. */
export function marketsClient(t: TestApp, key: string) {
  const call = (path: string) => get(t, path, key);

  /** 200 in the success envelope, billed `cost`; returns the response. */
  async function ok(path: string, cost?: number) {
    const res = await call(path);
    expect({ path, status: res.status, body: res.status === 200 ? 'ok' : res.body }).toEqual({ path, status: 200, body: 'ok' });
    expect(res.body.code).toBe('0');
    expect(res.body.msg).toBe('success');
    if (cost !== undefined) expect(res.headers['x-credits-cost']).toBe(String(cost));
    return res;
  }

  /** 400 VALIDATION_ERROR whose msg starts with `field`, unbilled. */
  async function expectInvalid(path: string, field: string): Promise<void> {
    const res = await call(path);
    expect({ path, status: res.status, code: res.body.code }).toEqual({ path, status: 400, code: 'VALIDATION_ERROR' });
    expect(res.body.msg).toMatch(new RegExp(`^${field}\\b`));
    expect(res.body.data).toBeNull();
    expect(res.headers['x-credits-cost']).toBe('0');
  }

  return { call, ok, expectInvalid };
}
