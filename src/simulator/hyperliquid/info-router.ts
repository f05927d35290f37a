import { ADDRESS_PATTERN } from '../../common/validation/address';
import { SimRequestError } from '../sim-request-error';
import { HyperliquidMarket } from './hyperliquid-market';

const DESERIALIZE_ERROR = 'Failed to deserialize the JSON body into the target type';

export type InfoRequest = Record<string, unknown> & { type: string };
type Handler = (market: HyperliquidMarket, request: InfoRequest, now: number) => unknown;

function missingField(field: string): SimRequestError {
  return new SimRequestError(422, `${DESERIALIZE_ERROR}: missing field \`${field}\``);
}

function userOf(request: InfoRequest): string {
  const user = request.user;
  if (user === undefined) throw missingField('user');
  if (typeof user !== 'string' || !ADDRESS_PATTERN.test(user)) throw new SimRequestError(422, `${DESERIALIZE_ERROR}: user: invalid address`);
  return user;
}

function coinOf(request: InfoRequest): string {
  if (typeof request.coin !== 'string') throw missingField('coin');
  return request.coin;
}

function dexOf(request: InfoRequest): string | undefined {
  const dex = request.dex;
  if (dex === undefined || dex === null) return undefined;
  if (typeof dex !== 'string') throw new SimRequestError(422, `${DESERIALIZE_ERROR}: dex: invalid type`);
  return dex;
}

function timeOf(request: InfoRequest, field: string, required: boolean): number | undefined {
  const value = request[field];
  if (value === undefined || value === null) {
    if (required) throw missingField(field);
    return undefined;
  }
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) throw new SimRequestError(422, `${DESERIALIZE_ERROR}: ${field}: invalid type`);
  return value;
}

/** Every `/info` request type the simulator answers; any other type is refused like an unknown serde variant. */
const HANDLERS: Record<string, Handler> = {
  allMids: (m, r, now) => m.allMids(now, dexOf(r)),
  meta: (m, r) => m.metaInfo(dexOf(r)),
  metaAndAssetCtxs: (m, r, now) => m.metaAndAssetCtxs(now, dexOf(r)),
  spotMeta: (m) => m.spotMeta(),
  spotMetaAndAssetCtxs: (m, _r, now) => m.spotMetaAndAssetCtxs(now),
  perpDexs: (m) => m.perpDexs(),
  outcomeMeta: (m) => m.outcomeMeta(),
  clearinghouseState: (m, r, now) => m.clearinghouseState(userOf(r), now, dexOf(r)),
  spotClearinghouseState: (m, r, now) => m.spotClearinghouseState(userOf(r), now),
  userFills: (m, r, now) => m.userFills(userOf(r), now),
  userFillsByTime: (m, r, now) => m.userFillsByTime(userOf(r), timeOf(r, 'startTime', true)!, timeOf(r, 'endTime', false), now),
  recentTrades: (m, r, now) => m.recentTrades(coinOf(r), now),
  l2Book: (m, r, now) => m.l2Book(coinOf(r), now),
};

export const INFO_TYPES = Object.keys(HANDLERS);

/** Checks the envelope of a parsed body: an object whose `type` is a known variant. */
export function parseInfoRequest(body: unknown): InfoRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new SimRequestError(422, `${DESERIALIZE_ERROR}: expected an object`);
  const type = (body as Record<string, unknown>).type;
  if (typeof type !== 'string') throw missingField('type');
  if (!Object.hasOwn(HANDLERS, type)) {
    throw new SimRequestError(422, `${DESERIALIZE_ERROR}: unknown variant \`${type}\`, expected one of ${INFO_TYPES.map((t) => `\`${t}\``).join(', ')}`);
  }
  return body as InfoRequest;
}

export function handleInfo(market: HyperliquidMarket, request: InfoRequest, now: number): unknown {
  return HANDLERS[request.type](market, request, now);
}
