import { createHmac, hash, timingSafeEqual } from 'node:crypto';
import { AppError } from '../errors/app-error';
import { BoundedMap } from '../memo/bounded-map';

/**
 * Longest token decode() will look at. Checked before any decoding so a 10 kB query string costs nothing;
 * the cursor query DTO uses the same bound.
 */
export const CURSOR_MAX_LENGTH = 1024;

/** First payload byte. Bump it when the payload or MAC layout changes so old tokens fail cleanly. */
const FORMAT_VERSION = 1;
/** HMAC-SHA256 truncated to 128 bits: keeps tokens short while forgery stays out of reach. */
const MAC_BYTES = 16;
/** 72 bits of SHA-256: only has to tell sort configurations apart, the MAC already stops forgery. */
const BINDING_HASH_BYTES = 9;
const MIN_SECRET_LENGTH = 16;
const BASE64URL_SEGMENT = /^[A-Za-z0-9_-]+$/;
/**
 * Tokens minted and tokens verified, remembered: a cursor is a pure function of its binding and position,
 * and many clients walk the same pages of the same snapshot, so signing or checking one again is the same
 * work for the same answer. The HMAC and the hashing were about a tenth of a holders page's CPU.
 */
const REMEMBERED_TOKENS = 10_000;
const REMEMBERED_BINDINGS = 4_096;

/**
 * What a cursor is only valid for: the endpoint plus every parameter that shapes the ordering or the page
 * size (coin, sortBy/sort, order, limit...). Pass effective values (defaults already applied), so that
 * `?order=desc` and an omitted order resolve to the same binding.
 */
export type CursorBinding = { readonly endpoint: string } & Readonly<Record<string, string | number>>;

/**
 * Where the next page starts. `key` is the keyset position (last row's sort values, ending with the
 * unique tie-breaker); `rank` is how many rows were already returned, so that after a data refresh the
 * endpoint can resume at the same rank in the new snapshot instead of at a key that may have moved.
 */
export interface CursorPosition {
  rank: number;
  key: (string | number)[];
}

/** On-the-wire payload after the version byte; short names keep the token small. */
interface CursorPayload {
  b: string;
  r: number;
  k: (string | number)[];
}

/** Mints and checks the opaque, HMAC-signed cursors: base64url(version + JSON) '.' base64url(MAC). */
export class CursorCodec {
  /** `<binding hash>|<rank>|<key JSON>` -> token. */
  private readonly minted = new BoundedMap<string, string>(REMEMBERED_TOKENS);
  /** Token -> its payload, for tokens whose signature checked out (a failed one is never remembered). */
  private readonly verified = new BoundedMap<string, CursorPayload>(REMEMBERED_TOKENS);

  constructor(private readonly secret: string) {
    // A short secret makes the MAC guessable; fail at boot, not on the first forged cursor.
    if (typeof secret !== 'string' || secret.length < MIN_SECRET_LENGTH) {
      throw new Error(`CursorCodec secret must be at least ${MIN_SECRET_LENGTH} characters`);
    }
  }

  encode(binding: CursorBinding, position: CursorPosition): string {
    // Bad positions here are server bugs, not client input: plain errors, not 400s.
    if (!isPosition(position)) throw new Error('CursorCodec.encode: invalid position');
    const b = bindingHash(binding);
    const key = JSON.stringify(position.key);
    return this.minted.getOrSet(`${b}|${position.rank}|${key}`, () => this.sign(`{"b":"${b}","r":${position.rank},"k":${key}}`));
  }

  /** Every failure is AppError.validation('cursor', ...); no other error escapes, whatever the input. */
  decode(token: string, expected: CursorBinding): CursorPosition {
    if (typeof token !== 'string' || token.length === 0) throw invalid('must be a non-empty string');
    if (token.length > CURSOR_MAX_LENGTH) throw invalid(`is longer than ${CURSOR_MAX_LENGTH} characters`);
    const payload = this.verified.getOrSet(token, () => this.verify(token));
    if (payload.b !== bindingHash(expected)) {
      throw invalid('belongs to another endpoint, coin, sort, order or limit; keep the same query and limit, or restart without a cursor');
    }
    return { rank: payload.r, key: payload.k };
  }

  private sign(payloadJson: string): string {
    const bytes = Buffer.concat([Buffer.from([FORMAT_VERSION]), Buffer.from(payloadJson, 'utf8')]);
    const token = `${bytes.toString('base64url')}.${this.mac(bytes).toString('base64url')}`;
    // decode() rejects anything longer, so minting such a token would strand the client.
    if (token.length > CURSOR_MAX_LENGTH) throw new Error('CursorCodec.encode: sort key too large for a cursor');
    return token;
  }

  /** The payload of a well-formed token with a valid signature; its key is frozen, as it is shared by every decode. */
  private verify(token: string): CursorPayload {
    const parts = token.split('.');
    if (parts.length !== 2) throw invalid('is not a valid cursor');
    const bytes = fromBase64url(parts[0]);
    const mac = fromBase64url(parts[1]);
    if (!bytes || !mac || bytes.length < 2) throw invalid('is not a valid cursor');

    // The version decides how the rest is read, so it is checked before the MAC.
    if (bytes[0] !== FORMAT_VERSION) throw invalid('has an unsupported format version; restart without a cursor');

    // Verify before parsing: hand-made or edited tokens never reach JSON.parse.
    if (mac.length !== MAC_BYTES || !timingSafeEqual(mac, this.mac(bytes))) {
      throw invalid('is not a valid cursor (signature check failed)');
    }

    const payload = parsePayload(bytes.subarray(1));
    if (!payload) throw invalid('has a malformed payload');
    Object.freeze(payload.k);
    return payload;
  }

  private mac(bytes: Buffer): Buffer {
    return createHmac('sha256', this.secret).update(bytes).digest().subarray(0, MAC_BYTES);
  }
}

function invalid(problem: string): AppError {
  return AppError.validation('cursor', problem);
}

/**
 * Strict base64url: Buffer.from() silently ignores bad characters and unused trailing bits, which would let
 * several spellings decode to the same bytes; requiring the canonical spelling makes every edited char count.
 */
function fromBase64url(segment: string): Buffer | null {
  if (!BASE64URL_SEGMENT.test(segment)) return null;
  const bytes = Buffer.from(segment, 'base64url');
  return bytes.toString('base64url') === segment ? bytes : null;
}

function parsePayload(json: Buffer): CursorPayload | null {
  let value: unknown;
  try {
    value = JSON.parse(json.toString('utf8'));
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const { b, r, k } = value as Record<string, unknown>;
  if (typeof b !== 'string' || !isPosition({ rank: r, key: k })) return null;
  return { b, r: r as number, k: k as (string | number)[] };
}

function isPosition(position: { rank: unknown; key: unknown } | null | undefined): boolean {
  if (!position) return false;
  const { rank, key } = position;
  return (
    Number.isSafeInteger(rank) &&
    (rank as number) >= 0 &&
    Array.isArray(key) &&
    key.every((v) => typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v)))
  );
}

/**
 * Short hash of the key-sorted binding, so the binding is compared without being readable in the token.
 * Values keep their JSON type: the number 100 and the string '100' are different bindings.
 */
const bindingHashes = new BoundedMap<string, string>(REMEMBERED_BINDINGS);

function bindingHash(binding: CursorBinding): string {
  if (typeof binding?.endpoint !== 'string' || binding.endpoint === '') {
    throw new Error('CursorCodec: binding needs a non-empty endpoint name');
  }
  const entries = Object.keys(binding)
    .sort()
    .map((name) => {
      const value: unknown = binding[name];
      if (typeof value !== 'string' && !(typeof value === 'number' && Number.isFinite(value))) {
        throw new Error(`CursorCodec: binding field "${name}" must be a string or a finite number`);
      }
      return [name, value];
    });
  // The first BINDING_HASH_BYTES (a multiple of 3) bytes are the first 4/3 as many base64url characters.
  return bindingHashes.getOrSet(JSON.stringify(entries), (text) => hash('sha256', text, 'base64url').slice(0, (BINDING_HASH_BYTES / 3) * 4));
}
