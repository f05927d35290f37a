import { randomBytes } from 'node:crypto';
import { IncomingMessage } from 'node:http';

/**
 * What the pipeline learns about one request as it passes through. Common code knows only the id; the
 * key pipeline adds its own fields to this same object (call-state.ts of the access module).
 */
export interface RequestState {
  requestId: string;
}

const STATE = Symbol('requestState');

/** 48 random bits naming this process: the node part of every id it mints (see uuidV7). */
const PROCESS_BITS = randomBytes(6).toString('hex');
/** 26-bit counter behind rand_a and the top of rand_b, started at a random value. */
let counter = randomBytes(4).readUInt32BE(0) & 0x3ffffff;
let headMs = -1;
const HEX_DIGIT = Array.from({ length: 16 }, (_, i) => i.toString(16));
const HEX_BYTE = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));
let head = '';

/**
 * A UUIDv7 (RFC 9562): the 48-bit millisecond time, then a 26-bit counter (its "fixed-length dedicated
 * counter", method 1 of section 6.2) and 48 random bits drawn once per process. Ids that grow with time
 * keep the ledger's unique reference index appending at its right edge instead of splitting pages all
 * over it, which is what the billed route's database cost is mostly made of. Unique within the process
 * (the counter goes round every 67 million ids, never within one millisecond) and across processes by
 * the random part. Minted on every request: the time part is formatted once per millisecond, and no
 * random bytes are drawn per id (a random UUID per id cost ~0.5 µs).
 */
export function uuidV7(now = Date.now()): string {
  if (now !== headMs) {
    const time = now.toString(16).padStart(12, '0');
    head = `${time.slice(0, 8)}-${time.slice(8, 12)}-7`;
    headMs = now;
  }
  counter = (counter + 1) & 0x3ffffff;
  // rand_a: the counter's top 12 bits; then the variant (binary 10) and its low 14 bits. Hex digits from
  // tables: Number#toString(16), twice per id, was most of the cost of minting one.
  const randA = counter >>> 14;
  const randB = 0x8000 | (counter & 0x3fff);
  return `${head}${HEX_DIGIT[randA >>> 8]}${HEX_BYTE[randA & 0xff]}-${HEX_BYTE[randB >>> 8]}${HEX_BYTE[randB & 0xff]}-${PROCESS_BITS}`;
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
