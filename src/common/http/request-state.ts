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
  metered: boolean;
  accountId: string;
  period: number;
  /** Live balance after the hold, micro-credits; null for unmetered (Free) callers. */
  balanceMicro: string | null;
  settled: boolean;
}

const STATE = Symbol('requestState');
const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:-]{1,64}$/;

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
    const incoming = raw.headers?.['x-request-id'];
    const requestId = typeof incoming === 'string' && REQUEST_ID_PATTERN.test(incoming) ? incoming : randomUUID();
    state = { requestId };
    raw[STATE] = state;
  }
  return state;
}
