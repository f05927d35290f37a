import { createServer, request } from 'node:http';
import { AddressInfo } from 'node:net';
import { Decimal } from '../../src/common/decimal/decimal';
import { ModuleImport } from '../../src/app.module';
import { AppConfig } from '../../src/config/app.config';
import { LedgerFlusherService } from '../../src/modules/billing/ledger-flusher.service';
import { RunningSimulator, startSimulator } from '../../src/simulator/simulator.server';
import { SimulatorOptions } from '../../src/simulator/simulator-options';
import { createTestApp, TestApp } from './create-test-app';
import { runJob } from './hl-stack';
import { get } from './http';
import { CATALOGUE_JOBS, marketsClient } from './markets-stack';
import { resetDb } from './reset-db';
import { testConfig } from './test-env';

export const UPSTREAM_ERROR_BODY = { code: 'MARKET_UPSTREAM_ERROR', msg: 'upstream data source unavailable', data: null };
export const ASSET_NOT_FOUND = 'MARKET_ASSET_NOT_FOUND';

/** One request the proxy saw: its path and query, and when it arrived (epoch ms). */
export interface ProxyHit {
  path: string;
  at: number;
}

/** Which requests a rule answers 500 instead of forwarding: a substring or a pattern of the path and query. */
export type FailRule = string | RegExp;

/**
 * A pass-through proxy in front of the simulator that records every request and answers 500 to those a rule
 * matches, so one vendor call of a composite answer can fail while the others go through.
 */
export interface RuledProxy {
  url: string;
  hits: ProxyHit[];
  /** Paths seen since the last reset, in order. */
  paths(pattern?: FailRule): string[];
  fail(rule: FailRule): void;
  /** Forwards everything again. */
  heal(): void;
  close(): Promise<void>;
}

const matches = (path: string, rule: FailRule) => (typeof rule === 'string' ? path.includes(rule) : rule.test(path));

export async function startRuledProxy(target: string): Promise<RuledProxy> {
  const rules: FailRule[] = [];
  const hits: ProxyHit[] = [];
  const server = createServer((req, res) => {
    const path = req.url ?? '/';
    hits.push({ path, at: Date.now() });
    if (rules.some((rule) => matches(path, rule))) {
      req.resume();
      res.writeHead(500, { 'content-type': 'application/json' });
      return void res.end('{"error":"simulated failure"}');
    }
    const upstream = request(`${target}${path}`, { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits,
    paths: (pattern) => hits.map((hit) => hit.path).filter((path) => pattern === undefined || matches(path, pattern)),
    fail: (rule) => void rules.push(rule),
    heal: () => void rules.splice(0),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export interface StocksStack {
  sim: RunningSimulator;
  upstream: RuledProxy;
  /** The settings the app was made from (the simulator's, pointed at the proxy, then the suite's): for another app on the same upstream. */
  env: Record<string, string>;
  /** The app's settings: a second app made from them shares the first one's KV prefix (its caches and budgets). */
  config: AppConfig;
  t: TestApp;
  close(): Promise<void>;
}

export interface StocksStackOptions {
  /** Settings over the simulator's (`--print-env`), pointed at the proxy. */
  env?: Record<string, string>;
  /** Global modules for the app (a fake cache clock). */
  imports?: ModuleImport[];
  sim?: SimulatorOptions;
}

/**
 * The simulator behind a ruled proxy, the app pointed at it, and a catalogue filled by the real jobs. The
 * per-minute vendor budgets are off on both sides, as in the Markets stack.
 */
export async function startStocksStack({ env = {}, imports = [], sim: simOptions = {} }: StocksStackOptions = {}): Promise<StocksStack> {
  const sim = await startSimulator({ wallets: 50, coingeckoCallsPerMinute: 0, yahooCallsPerMinute: 0, ...simOptions });
  const upstream = await startRuledProxy(sim.url);
  const simEnv = Object.fromEntries(Object.entries(sim.env).map(([name, value]) => [name, value.replaceAll(sim.url, upstream.url)]));
  const appEnv = { ...simEnv, ...env };
  const config = testConfig(appEnv);
  const t = await createTestApp(config, imports);
  await resetDb(t.db);
  for (const job of CATALOGUE_JOBS) {
    const result = await runJob(t, job);
    expect([result.name, result.status, result.error ?? null]).toEqual([job, 'ok', null]);
  }
  upstream.hits.length = 0;
  return {
    sim,
    upstream,
    env: appEnv,
    config,
    t,
    close: async () => {
      await t.close();
      await upstream.close();
      await sim.close();
    },
  };
}

/** The Markets client plus the checks the Stocks suites share. */
export function stocksClient(t: TestApp, key: string) {
  const client = marketsClient(t, key);

  const balance = async (): Promise<string> => (await get(t, '/account/credits', key)).body.data.balance;

  /** An error answer with exactly `body`, unbilled. */
  async function expectError(path: string, status: number, body: { code: string; msg?: string }) {
    const res = await client.call(path);
    expect({ path, status: res.status, code: res.body.code, data: res.body.data }).toEqual({ path, status, code: body.code, data: null });
    if (body.msg !== undefined) expect(res.body.msg).toBe(body.msg);
    expect(res.headers['x-credits-cost']).toBe('0');
    return res;
  }

  return { ...client, balance, expectError };
}

/** A balance after spending `credits`. */
export const minus = (balance: string, credits: number) => new Decimal(balance).minus(credits).toFixed();

/** Failed calls leave no line in the ledger: nothing charged, nothing to refund. */
export async function expectNoLedgerLines(t: TestApp, requestIds: unknown[]): Promise<void> {
  await t.app.get(LedgerFlusherService).flush();
  expect(requestIds.every((id) => typeof id === 'string' && id.length > 0)).toBe(true);
  const rows = await t.db.query(`SELECT type, endpoint FROM credit_transactions WHERE reference_id::text = ANY($1::text[])`, [requestIds]);
  expect(rows).toEqual([]);
}
