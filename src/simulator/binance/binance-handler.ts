import { IncomingMessage, ServerResponse } from 'node:http';
import { send } from '../http-io';
import { clientOf, queryOf, sendJson } from '../json-reply';
import { SimRequestError } from '../sim-request-error';
import { ProtocolContext, StartedProtocol } from '../simulator-protocol';
import { WeightBudget } from '../hyperliquid/weight-budget';
import { klines } from './klines';

export const BINANCE_PATH = '/binance';
/** Binance spot's REQUEST_WEIGHT limit per minute per IP; the simulator's unless told otherwise. */
export const BINANCE_SPOT_WEIGHT_PER_MINUTE = 6000;
const KLINES_WEIGHT = 2;
const LIGHT_WEIGHT = 1;

export interface BinanceCounters {
  requestsByPath: Record<string, number>;
  weightSpent: number;
  rateLimited: number;
  rejected: number;
}

export interface BinanceSimulation extends StartedProtocol {
  counters: BinanceCounters;
  resetCounters(): void;
}

function emptyCounters(): BinanceCounters {
  return { requestsByPath: {}, weightSpent: 0, rateLimited: 0, rejected: 0 };
}

/** The local Binance spot REST API under `/binance`: klines (plus ping and time), with its weight budget. */
export function startBinance({ world, options, clock }: ProtocolContext): BinanceSimulation {
  const limit = options.binanceWeightPerMinute ?? BINANCE_SPOT_WEIGHT_PER_MINUTE;
  const budget = new WeightBudget(limit);
  const counters = emptyCounters();

  const handle = async (req: IncomingMessage, res: ServerResponse, path: string): Promise<void> => {
    const endpoint = path.slice(BINANCE_PATH.length);
    const weight = endpoint === '/api/v3/klines' ? KLINES_WEIGHT : LIGHT_WEIGHT;
    if (req.method !== 'GET' || !['/api/v3/klines', '/api/v3/ping', '/api/v3/time'].includes(endpoint)) {
      return send(res, 404, '<html><body><h2>404 Not found</h2></body></html>', 'text/html');
    }
    const now = clock();
    const client = clientOf(req.socket.remoteAddress);
    const decision = budget.reserve(client, weight, now);
    const used = () => String(budget.enabled ? budget.spent(client, now) : 0);
    if (!decision.allowed) {
      counters.rateLimited++;
      const msg = `Too much request weight used; current limit is ${limit} request weight per 1 MINUTE. Please use WebSocket Streams for live updates to avoid polling the API.`;
      return sendJson(res, 429, { code: -1003, msg }, { 'retry-after': String(decision.retryAfterSeconds), 'x-mbx-used-weight-1m': used() });
    }
    counters.requestsByPath[endpoint] = (counters.requestsByPath[endpoint] ?? 0) + 1;
    counters.weightSpent += weight;
    const headers = { 'x-mbx-used-weight': used(), 'x-mbx-used-weight-1m': used() };
    try {
      if (endpoint === '/api/v3/ping') return sendJson(res, 200, {}, headers);
      if (endpoint === '/api/v3/time') return sendJson(res, 200, { serverTime: now }, headers);
      sendJson(res, 200, klines(world.markets, queryOf(req.url), now), headers);
    } catch (error) {
      counters.rejected++;
      if (error instanceof SimRequestError) return send(res, error.status, error.body, error.contentType, headers);
      throw error;
    }
  };

  return { counters, resetCounters: () => Object.assign(counters, emptyCounters()), handle };
}
