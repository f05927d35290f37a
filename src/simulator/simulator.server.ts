import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { DEFAULT_PRICE_STEP_MS, DEFAULT_SEED, SimMarket, SimRequestError } from './market';
import { handleInfo, parseInfoRequest } from './info-router';
import { baseWeight, itemWeight, WeightBudget } from './weight-budget';

export const DEFAULT_WALLETS = 500;
export const DEFAULT_WEIGHT_PER_MINUTE = 1200;
const MAX_BODY_BYTES = 1_000_000;
const STATS_PREFIX = '/Mainnet';

export interface SimulatorOptions {
  port?: number;
  host?: string;
  wallets?: number;
  seed?: number;
  /** Upstream weight per minute per client IP; 0 turns the budget off (benchmarks). */
  weightPerMinute?: number;
  priceStepMs?: number;
  /** Time source; tests pin it to compare two simulators at the same instant. */
  clock?: () => number;
}

export interface SimulatorCounters {
  /** `/info` requests by `type`, plus `leaderboard` and `vaults` for the stats host. */
  requestsByType: Record<string, number>;
  weightSpent: number;
  rateLimited: number;
  rejected: number;
}

export interface RunningSimulator {
  port: number;
  host: string;
  url: string;
  /** Value for HYPERLIQUID_INFO_URL. */
  infoUrl: string;
  /** Value for HYPERLIQUID_STATS_URL. */
  statsUrl: string;
  market: SimMarket;
  counters: SimulatorCounters;
  resetCounters(): void;
  close(): Promise<void>;
}

function emptyCounters(): SimulatorCounters {
  return { requestsByType: {}, weightSpent: 0, rateLimited: 0, rejected: 0 };
}

function send(res: ServerResponse, status: number, body: string | Buffer, contentType: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': contentType, 'content-length': Buffer.byteLength(body), ...headers });
  res.end(body);
}

function readBody(req: IncomingMessage): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on('end', () => resolve(size > MAX_BODY_BYTES ? null : Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/**
 * Starts the local Hyperliquid: `POST /info` with the upstream request types and weight budget, and the stats
 * host's `GET /Mainnet/leaderboard` and `GET /Mainnet/vaults`. Usable in-process by tests, the demo and benchmarks.
 */
export async function startSimulator(options: SimulatorOptions = {}): Promise<RunningSimulator> {
  const host = options.host ?? '127.0.0.1';
  const clock = options.clock ?? Date.now;
  const market = new SimMarket({
    wallets: options.wallets ?? DEFAULT_WALLETS,
    seed: options.seed ?? DEFAULT_SEED,
    priceStepMs: options.priceStepMs ?? DEFAULT_PRICE_STEP_MS,
  });
  const budget = new WeightBudget(options.weightPerMinute ?? DEFAULT_WEIGHT_PER_MINUTE);
  const counters = emptyCounters();
  const count = (key: string) => {
    counters.requestsByType[key] = (counters.requestsByType[key] ?? 0) + 1;
  };

  const handleInfoRequest = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const raw = await readBody(req);
    if (raw === null) return send(res, 413, 'Payload Too Large', 'text/plain');
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      counters.rejected++;
      return send(res, 400, 'Failed to parse the request body as JSON', 'text/plain');
    }
    const now = clock();
    const client = req.socket.remoteAddress ?? 'unknown';
    try {
      const request = parseInfoRequest(parsed);
      count(request.type);
      const weight = baseWeight(request.type);
      const decision = budget.reserve(client, weight, now);
      if (!decision.allowed) {
        counters.rateLimited++;
        return send(res, 429, 'null', 'application/json', { 'retry-after': String(decision.retryAfterSeconds) });
      }
      const result = handleInfo(market, request, now);
      const extra = Array.isArray(result) ? itemWeight(request.type, result.length) : 0;
      budget.charge(client, extra, now);
      counters.weightSpent += weight + extra;
      send(res, 200, JSON.stringify(result), 'application/json');
    } catch (error) {
      counters.rejected++;
      if (error instanceof SimRequestError) return send(res, error.status, error.body, error.contentType);
      throw error;
    }
  };

  const handleStats = async (path: string, res: ServerResponse): Promise<void> => {
    if (path === `${STATS_PREFIX}/leaderboard`) {
      count('leaderboard');
      return send(res, 200, await market.leaderboardJson(clock()), 'application/json');
    }
    if (path === `${STATS_PREFIX}/vaults`) {
      count('vaults');
      return send(res, 200, JSON.stringify(market.vaults(clock())), 'application/json');
    }
    send(res, 404, 'Not Found', 'text/plain');
  };

  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const work = req.method === 'POST' && path === '/info'
      ? handleInfoRequest(req, res)
      : req.method === 'GET' && path.startsWith(`${STATS_PREFIX}/`)
        ? handleStats(path, res)
        : Promise.resolve(send(res, 404, 'Not Found', 'text/plain'));
    work.catch((error: unknown) => {
      // Never crash the simulator on one bad request; answer like upstream's internal error.
      process.stderr.write(`simulator: ${error instanceof Error ? error.stack : String(error)}\n`);
      if (!res.headersSent) send(res, 500, 'null', 'application/json');
    });
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  return {
    port,
    host,
    url,
    infoUrl: `${url}/info`,
    statsUrl: `${url}${STATS_PREFIX}`,
    market,
    counters,
    resetCounters: () => Object.assign(counters, emptyCounters()),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
