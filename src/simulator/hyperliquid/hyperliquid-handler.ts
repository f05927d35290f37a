import { IncomingMessage, ServerResponse } from 'node:http';
import { readBody, send } from '../http-io';
import { SimRequestError } from '../sim-request-error';
import { ProtocolContext, StartedProtocol } from '../simulator-protocol';
import { HyperliquidMarket } from './hyperliquid-market';
import { handleInfo, parseInfoRequest } from './info-router';
import { baseWeight, itemWeight, WeightBudget } from './weight-budget';

export const INFO_PATH = '/info';
export const STATS_PATH = '/Mainnet';
/** `GET <stats>/builder_fills/{builder}/{YYYYMMDD}.csv.lz4`: one builder's fills of one UTC day. */
const BUILDER_FILLS_PATH = new RegExp(`^${STATS_PATH}/builder_fills/([^/]+)/([^/]+)\\.csv\\.lz4$`);
/** What the stats host's bucket answers for a file it does not have (or will not show yet). */
const ACCESS_DENIED = '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>AccessDenied</Code><Message>Access Denied</Message></Error>';
/** Mainnet's limit, and the simulator's unless told otherwise. */
export const MAINNET_WEIGHT_PER_MINUTE = 1200;

export interface HyperliquidCounters {
  /** `/info` requests by `type`, plus `leaderboard`, `vaults` and `builder_fills` for the stats host. */
  requestsByType: Record<string, number>;
  weightSpent: number;
  rateLimited: number;
  rejected: number;
}

export interface HyperliquidSimulation extends StartedProtocol {
  market: HyperliquidMarket;
  counters: HyperliquidCounters;
  resetCounters(): void;
}

function emptyCounters(): HyperliquidCounters {
  return { requestsByType: {}, weightSpent: 0, rateLimited: 0, rejected: 0 };
}

/**
 * The local Hyperliquid: `POST /info` with the upstream request types and weight budget, and the stats host's
 * `GET /Mainnet/leaderboard`, `GET /Mainnet/vaults` and the daily builder files
 * `GET /Mainnet/builder_fills/{builder}/{YYYYMMDD}.csv.lz4`.
 */
export function startHyperliquid({ world, options, clock }: ProtocolContext): HyperliquidSimulation {
  const market = new HyperliquidMarket(world);
  const budget = new WeightBudget(options.weightPerMinute ?? MAINNET_WEIGHT_PER_MINUTE);
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
    if (path === `${STATS_PATH}/leaderboard`) {
      count('leaderboard');
      return send(res, 200, await market.leaderboardJson(clock()), 'application/json');
    }
    if (path === `${STATS_PATH}/vaults`) {
      count('vaults');
      return send(res, 200, JSON.stringify(market.vaults(clock())), 'application/json');
    }
    if (path.startsWith(`${STATS_PATH}/builder_fills/`)) {
      count('builder_fills');
      // The files sit in a bucket that answers 403 for any key it does not have, not 404.
      const name = BUILDER_FILLS_PATH.exec(path);
      const file = name ? market.builderFills(name[1], name[2], clock()) : null;
      return file ? send(res, 200, file, 'application/octet-stream') : send(res, 403, ACCESS_DENIED, 'application/xml');
    }
    send(res, 404, 'Not Found', 'text/plain');
  };

  return {
    market,
    counters,
    resetCounters: () => Object.assign(counters, emptyCounters()),
    handle: async (req, res, path) => {
      if (req.method === 'POST' && path === INFO_PATH) return handleInfoRequest(req, res);
      if (req.method === 'GET' && path.startsWith(`${STATS_PATH}/`)) return handleStats(path, res);
      send(res, 404, 'Not Found', 'text/plain');
    },
  };
}
