import { randomUUID } from 'node:crypto';
import { IncomingMessage } from 'node:http';
import { ApiCaller } from '../auth/api-caller';
import { EndpointName } from '../billing/credit-costs';

/** What the pipeline learns about one request as it passes through the guards and interceptors. */
export interface RequestState {
  requestId: string;
  caller?: ApiCaller;
  admission?: Admission;
}

export interface Admission {
  endpoint: EndpointName;
  costMicro: number;
  accountId: string;
  /** Usage period of the call (the meter it counted in). */
  period: number;
  /** Credit epoch and period the charge was taken in; a refund returns credits only to that same balance. */
  chargedEpoch: number;
  chargedPeriod: number;
  /** Live balance after the hold, micro-credits; null for unmetered (Free) callers. */
  balanceMicro: string | null;
  settled: boolean;
}

const STATE = Symbol('requestState');

/**
 * A UUIDv7 (RFC 9562): 48-bit millisecond time, then randomness from node's pooled randomUUID. Ids that
 * grow with time keep the ledger's unique reference index appending at its right edge instead of
 * splitting pages all over it, which is what the billed route's database cost is mostly made of.
 */
export function uuidV7(now = Date.now()): string {
  const time = now.toString(16).padStart(12, '0');
  return `${time.slice(0, 8)}-${time.slice(8, 12)}-7${randomUUID().slice(15)}`;
}

type WithState = IncomingMessage & { [STATE]?: RequestState };

/**
 * The node request underneath whatever the adapter hands us (Express' req is one; Fastify wraps it in
 * `request.raw`), so state set in middleware, guards, interceptors and the filter is the same object.
 */
export function rawRequest(req: unknown): WithState {
  const candidate = req as { raw?: IncomingMessage };
  return (candidate.raw ?? req) as WithState;
}

export function requestState(req: unknown): RequestState {
  const raw = rawRequest(req);
  let state = raw[STATE];
  if (!state) {
    // Always minted here, never taken from the client: it keys the credit hold and the ledger row, so a
    // caller-chosen id could collide with another call and merge two charges into one.
    state = { requestId: uuidV7() };
    raw[STATE] = state;
  }
  return state;
}

/** The X-Request-Id header, set by each adapter's own first hook (app.factory.ts) from requestState's id. */
export const REQUEST_ID_HEADER = 'X-Request-Id';
