import {
  AuthKeys,
  challengeValue,
  ChallengeOutcome,
  CONSUME_CHALLENGE_SCRIPT,
  COUNT_WINDOW_SCRIPT,
  CREATE_SESSION_SCRIPT,
  ISSUE_CHALLENGE_SCRIPT,
  ROTATE_SESSION_SCRIPT,
} from '../../src/modules/auth/auth.scripts';
import { KvStore } from '../../src/infra/kv/kv-store';
import { MemoryKvStore } from '../../src/infra/kv/memory-kv.store';
import { RedisKvStore } from '../../src/infra/kv/redis-kv.store';
import { uniqueKeyPrefix } from '../support/test-env';

/** The sign-in scripts: each case runs unchanged on real Redis and on the in-process twin, expecting the same replies. */
const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
const ADDRESS = '0x8ba1f109551bd432803012645ac136ddd64dba72';
const T0 = 1_800_000_000_000;

describe.each([
  ['redis', () => RedisKvStore.connect(REDIS_URL, uniqueKeyPrefix()) as KvStore],
  ['memory', () => new MemoryKvStore() as KvStore],
])('auth scripts on %s', (_name, connect) => {
  let kv: KvStore;

  beforeAll(() => {
    kv = connect();
  });
  afterAll(() => kv.close());

  describe('ISSUE_CHALLENGE_SCRIPT', () => {
    const outstanding = AuthKeys.outstandingChallenges();
    const TTL = 300_000;
    const issue = (nonce: string, nowMs: number, max = 3) =>
      kv.run(
        ISSUE_CHALLENGE_SCRIPT,
        [AuthKeys.challenge(nonce), outstanding],
        [nonce, challengeValue(nowMs + TTL, ADDRESS, nonce), nowMs, nowMs + TTL, TTL, max],
      );
    const consume = (nonce: string, nowMs: number) =>
      kv.run(CONSUME_CHALLENGE_SCRIPT, [AuthKeys.challenge(nonce), outstanding], [ADDRESS, nonce, nowMs, nonce]);

    beforeEach(() => kv.del(outstanding, ...['a', 'b', 'c', 'd', 'e'].map(AuthKeys.challenge)));

    it('stores up to max outstanding challenges over every caller, then answers the oldest one’s expiry', async () => {
      expect(await issue('a', T0)).toEqual(['issued']);
      expect(await issue('b', T0 + 1_000)).toEqual(['issued']);
      expect(await issue('c', T0 + 2_000)).toEqual(['issued']);
      expect(await issue('d', T0 + 3_000)).toEqual(['full', String(T0 + TTL)]);
      expect(await kv.get(AuthKeys.challenge('d'))).toBeNull();
      expect(await kv.get(AuthKeys.challenge('a'))).toBe(challengeValue(T0 + TTL, ADDRESS, 'a'));
    });

    it('frees a place when a challenge is consumed, or expires by the clock it is given', async () => {
      for (const [n, nonce] of ['a', 'b', 'c'].entries()) await issue(nonce, T0 + n * 1_000);
      expect(await consume('b', T0 + 3_000)).toBe(ChallengeOutcome.CONSUMED);
      expect(await issue('d', T0 + 3_000)).toEqual(['issued']);
      expect(await issue('e', T0 + 3_000)).toEqual(['full', String(T0 + TTL)]);
      expect(await issue('e', T0 + TTL)).toEqual(['issued']);
    });

    it('refuses a nonce that is live already', async () => {
      expect(await issue('a', T0)).toEqual(['issued']);
      expect(await issue('a', T0)).toEqual(['taken']);
    });
  });

  describe('CONSUME_CHALLENGE_SCRIPT', () => {
    const key = AuthKeys.challenge('nonce0001');
    const consume = (address: string, message: string, nowMs: number) =>
      kv.run(CONSUME_CHALLENGE_SCRIPT, [key, AuthKeys.outstandingChallenges()], [address, message, nowMs, 'nonce0001']);

    beforeEach(() => kv.set(key, challengeValue(T0 + 300_000, ADDRESS, 'the|message'), 60_000));

    it('consumes the issued text once', async () => {
      expect(await consume(ADDRESS, 'the|message', T0)).toBe(ChallengeOutcome.CONSUMED);
      expect(await consume(ADDRESS, 'the|message', T0)).toBe(ChallengeOutcome.UNKNOWN);
    });

    it('refuses another text or address and leaves the challenge usable', async () => {
      expect(await consume(ADDRESS, 'the|messag', T0)).toBe(ChallengeOutcome.MISMATCH);
      expect(await consume(ADDRESS.replace('72', '73'), 'the|message', T0)).toBe(ChallengeOutcome.MISMATCH);
      expect(await consume(ADDRESS, 'the|message', T0)).toBe(ChallengeOutcome.CONSUMED);
    });

    it('drops a challenge from its expiry on, by the clock it is given', async () => {
      expect(await consume(ADDRESS, 'the|message', T0 + 300_000)).toBe(ChallengeOutcome.UNKNOWN);
      expect(await kv.get(key)).toBeNull();
    });
  });

  describe('ROTATE_SESSION_SCRIPT', () => {
    const key = AuthKeys.session('sid-1');
    /** `token` is the presented token's sub, iat and exp: by default what was issued for j1 (and for j2, 1000 to 4000). */
    const rotate = (jti: string, next: string, nowMs: number, token: [string, number, number] = jti === 'j1' ? [ADDRESS, 100, 3700] : [ADDRESS, 1000, 4000]) =>
      kv.run(ROTATE_SESSION_SCRIPT, [key], [jti, next, nowMs, 10_000, 1000, 5000, ...token]);

    beforeEach(() => kv.run(CREATE_SESSION_SCRIPT, [key], ['acc', ADDRESS, 'j1', 100, 3700, 4000, 60_000]));

    it('replaces the current token, capping its expiry at the session end', async () => {
      expect(await rotate('j1', 'j2', T0)).toEqual(['rotated', 'j2', '1000', '4000']);
      expect((await kv.hgetall(key)).jti).toBe('j2');
    });

    it('answers the same successor to the replaced token within the grace, and ends the session after it', async () => {
      await rotate('j1', 'j2', T0);
      expect(await rotate('j1', 'j3', T0 + 9_999)).toEqual(['retry', 'j2', '1000', '4000']);
      expect(await rotate('j1', 'j3', T0 + 10_000)).toEqual(['reused']);
      expect(await kv.hgetall(key)).toEqual({});
      expect(await rotate('j2', 'j4', T0)).toEqual(['ended']);
    });

    it('refuses the current or just-replaced token with another sub, iat or exp than issued, leaving the session as it was', async () => {
      for (const token of [
        [ADDRESS, 100, 3700 + 86_400],
        [ADDRESS, 99, 3700],
        [ADDRESS.replace('72', '73'), 100, 3700],
      ] as const) {
        expect(await rotate('j1', 'j2', T0, [...token])).toEqual(['forged']);
      }
      expect(await rotate('j1', 'j2', T0)).toEqual(['rotated', 'j2', '1000', '4000']);
      expect(await rotate('j1', 'j3', T0 + 1, [ADDRESS, 100, 3700 + 86_400])).toEqual(['forged']);
      expect(await rotate('j1', 'j3', T0 + 1)).toEqual(['retry', 'j2', '1000', '4000']);
      expect(await rotate('j2', 'j3', T0 + 2, [ADDRESS, 1000, 9000])).toEqual(['forged']);
      expect((await kv.hgetall(key)).jti).toBe('j2');
    });

    it('ends the session on a token it never had', async () => {
      expect(await rotate('forged', 'j2', T0)).toEqual(['reused']);
      expect(await rotate('j1', 'j2', T0)).toEqual(['ended']);
    });
  });

  it('COUNT_WINDOW_SCRIPT counts calls in one window', async () => {
    const key = AuthKeys.window('ip:127.0.0.1', 1);
    expect(await kv.run(COUNT_WINDOW_SCRIPT, [key], [65_000])).toBe(1);
    expect(await kv.run(COUNT_WINDOW_SCRIPT, [key], [65_000])).toBe(2);
  });
});
