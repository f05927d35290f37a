import { createHmac } from 'node:crypto';
import { AppError } from '../errors/app-error';
import { ErrorCode } from '../errors/error-code';
import { CURSOR_MAX_LENGTH, CursorBinding, CursorCodec, CursorPosition } from './cursor-codec';

const SECRET = 'test-secret-0123456789';
const binding: CursorBinding = { endpoint: 'hl.perp.holders', coin: 'BTC', sortBy: 'value', order: 'desc', limit: 100 };
const position: CursorPosition = { rank: 200, key: ['1234.5', '0xabc'] };

/** Asserts the contract error: an AppError with code VALIDATION_ERROR whose message names the `cursor` field. */
function expectCursorRejected(fn: () => unknown, problem: RegExp = /./): void {
  expect(fn).toThrow(AppError);
  expect(fn).toThrow(expect.objectContaining({ code: ErrorCode.VALIDATION_ERROR, message: expect.stringMatching(/^cursor: /) }));
  expect(fn).toThrow(problem);
}

/** Mints a token with the codec's wire format but an arbitrary payload, as a server bug or a future version would. */
function signRaw(version: number, json: string, secret = SECRET): string {
  const bytes = Buffer.concat([Buffer.from([version]), Buffer.from(json, 'utf8')]);
  const mac = createHmac('sha256', secret).update(bytes).digest().subarray(0, 16);
  return `${bytes.toString('base64url')}.${mac.toString('base64url')}`;
}

/** The binding hash the codec stored in a real token, so raw payloads can carry a valid one. */
function bindingHashOf(token: string): string {
  return JSON.parse(Buffer.from(token.split('.')[0], 'base64url').subarray(1).toString('utf8')).b;
}

describe('CursorCodec', () => {
  const sut = new CursorCodec(SECRET);

  it('refuses a secret shorter than 16 characters', () => {
    expect(() => new CursorCodec('short-secret')).toThrow(/at least 16/);
  });

  it('round-trips the rank and the keyset position', () => {
    const token = sut.encode(binding, position);
    expect(sut.decode(token, binding)).toEqual(position);
  });

  it('mints an opaque base64url token that does not show the binding in clear', () => {
    const token = sut.encode(binding, position);
    expect(token).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    const payload = Buffer.from(token.split('.')[0], 'base64url').toString('utf8');
    expect(payload).not.toMatch(/BTC|holders|desc/);
  });

  it('accepts the same binding whatever the key order', () => {
    const token = sut.encode(binding, position);
    const reordered: CursorBinding = { limit: 100, order: 'desc', sortBy: 'value', coin: 'BTC', endpoint: 'hl.perp.holders' };
    expect(sut.decode(token, reordered)).toEqual(position);
  });

  it('round-trips numeric keys and the first-page rank 0', () => {
    const first: CursorPosition = { rank: 0, key: [-1.5, 42, 'id-7'] };
    expect(sut.decode(sut.encode(binding, first), binding)).toEqual(first);
  });

  it.each([
    ['coin', { coin: 'ETH' }],
    ['order', { order: 'asc' }],
    ['sort', { sortBy: 'size' }],
    ['limit', { limit: 50 }],
    ['endpoint', { endpoint: 'hl.spot.holders' }],
    ['limit typed as a string', { limit: '100' }],
  ])('rejects a cursor minted for another %s', (_what, change) => {
    const token = sut.encode(binding, position);
    expectCursorRejected(() => sut.decode(token, { ...binding, ...change }), /another .*sort.*limit/);
  });

  it('rejects a cursor minted with an extra binding field', () => {
    const token = sut.encode({ ...binding, window: '24h' }, position);
    expectCursorRejected(() => sut.decode(token, binding), /belongs to another/);
  });

  it('rejects a token with any single character changed, in the payload or in the MAC', () => {
    const token = sut.encode(binding, position);
    for (let i = 0; i < token.length; i++) {
      const swapped = token[i] === 'A' ? 'B' : 'A';
      const tampered = token.slice(0, i) + swapped + token.slice(i + 1);
      expectCursorRejected(() => sut.decode(tampered, binding));
    }
  });

  it('rejects a tampered MAC', () => {
    const [payload, mac] = sut.encode(binding, position).split('.');
    const flipped = Buffer.from(mac, 'base64url');
    flipped[0] ^= 0x01;
    expectCursorRejected(() => sut.decode(`${payload}.${flipped.toString('base64url')}`, binding), /signature/);
  });

  it('rejects another spelling of the same MAC bytes (unused trailing base64url bits)', () => {
    const token = sut.encode(binding, position);
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    // 16 MAC bytes take 22 chars: the last char carries 4 unused bits, so flipping its lowest bit keeps the bytes.
    const respelled = token.slice(0, -1) + alphabet[alphabet.indexOf(token.slice(-1)) ^ 1];
    const [, mac] = token.split('.');
    expect(Buffer.from(respelled.split('.')[1], 'base64url')).toEqual(Buffer.from(mac, 'base64url'));
    expectCursorRejected(() => sut.decode(respelled, binding));
  });

  it('rejects a hand-made token: base64url JSON without a MAC', () => {
    const json = JSON.stringify({ b: bindingHashOf(sut.encode(binding, position)), r: 0, k: ['1'] });
    const bytes = Buffer.concat([Buffer.from([1]), Buffer.from(json)]).toString('base64url');
    expectCursorRejected(() => sut.decode(bytes, binding));
    expectCursorRejected(() => sut.decode(`${bytes}.`, binding));
    expectCursorRejected(() => sut.decode(`${bytes}.${Buffer.alloc(16).toString('base64url')}`, binding), /signature/);
    expectCursorRejected(() => sut.decode(Buffer.from(json).toString('base64url'), binding));
  });

  it('rejects a cursor signed with another secret', () => {
    const other = new CursorCodec('another-secret-0123456789');
    expectCursorRejected(() => sut.decode(other.encode(binding, position), binding), /signature/);
  });

  it('rejects a cursor from an unsupported format version', () => {
    const hash = bindingHashOf(sut.encode(binding, position));
    const token = signRaw(2, JSON.stringify({ b: hash, r: 0, k: ['1'] }));
    expectCursorRejected(() => sut.decode(token, binding), /version/);
  });

  it.each([
    ['not JSON', '{nope'],
    ['a JSON array', '[1,2]'],
    ['no binding hash', JSON.stringify({ r: 0, k: [] })],
    ['a negative rank', JSON.stringify({ b: 'x', r: -1, k: [] })],
    ['a fractional rank', JSON.stringify({ b: 'x', r: 1.5, k: [] })],
    ['a string rank', JSON.stringify({ b: 'x', r: '3', k: [] })],
    ['a key that is not an array', JSON.stringify({ b: 'x', r: 0, k: 'abc' })],
    ['a key holding an object', JSON.stringify({ b: 'x', r: 0, k: [{}] })],
    ['a key holding null', JSON.stringify({ b: 'x', r: 0, k: [null] })],
  ])('rejects a signed payload with %s', (_what, json) => {
    expectCursorRejected(() => sut.decode(signRaw(1, json), binding), /malformed/);
  });

  it('rejects an over-long token before decoding it', () => {
    expectCursorRejected(() => sut.decode('A'.repeat(10_000), binding), /longer than 1024/);
    expectCursorRejected(() => sut.decode('A'.repeat(CURSOR_MAX_LENGTH + 1), binding), /longer than/);
  });

  it.each(['', '.', '....', 'a.b', 'abc', 'AAAA.AAAA.AAAA', '%%%.$$$', 'eyJhIjoxfQ==.AAAA', 'AAAA.AAAA', '\u0000\u0001', 'éèà.ü', ' ', 'null'])(
    'rejects the garbage string %j',
    (garbage) => {
      expectCursorRejected(() => sut.decode(garbage, binding));
    },
  );

  it('rejects non-string cursors coming from untyped callers', () => {
    for (const value of [undefined, null, 42, ['a'], {}]) {
      expectCursorRejected(() => sut.decode(value as unknown as string, binding));
    }
  });

  it('refuses to mint a cursor that decode would reject as too long', () => {
    expect(() => sut.encode(binding, { rank: 1, key: ['x'.repeat(2000)] })).toThrow(/too large/);
  });

  it('refuses to mint a cursor from an invalid position', () => {
    expect(() => sut.encode(binding, { rank: -1, key: [] })).toThrow(/invalid position/);
    expect(() => sut.encode(binding, { rank: 0, key: [Number.NaN] })).toThrow(/invalid position/);
  });

  describe('remembering tokens it minted or checked', () => {
    it('mints what a codec that remembers nothing would mint', () => {
      const remembered = [sut.encode(binding, position), sut.encode(binding, position)];
      expect(remembered).toEqual([new CursorCodec(SECRET).encode(binding, position), new CursorCodec(SECRET).encode(binding, position)]);
    });

    it('still checks a remembered token against the binding of every request', () => {
      const token = sut.encode(binding, position);
      expect(sut.decode(token, binding)).toEqual(position);

      expectCursorRejected(() => sut.decode(token, { ...binding, coin: 'ETH' }), /belongs to another/);
      expect(sut.decode(token, binding)).toEqual(position);
    });

    it('refuses a tampered token however often it comes back', () => {
      const token = sut.encode(binding, position);
      const tampered = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
      expectCursorRejected(() => sut.decode(tampered, binding), /signature/);
      expectCursorRejected(() => sut.decode(tampered, binding), /signature/);
    });

    it('hands out a key no caller can change for the next one', () => {
      const token = sut.encode(binding, position);
      const first = sut.decode(token, binding);
      expect(() => (first.key as unknown[]).push('x')).toThrow(TypeError);
      expect(sut.decode(token, binding).key).toEqual(position.key);
    });
  });
});
