import { KvScript } from '../../infra/kv/kv-store';

/** Where the backend's sign-in state lives in the KV store. */
export const AuthKeys = {
  challenge: (nonce: string) => `auth:challenge:${nonce}`,
  /** Sorted set of the live challenges' nonces, scored by expiry (epoch ms): what bounds them all together. */
  outstandingChallenges: () => 'auth:challenges',
  session: (sessionId: string) => `auth:session:${sessionId}`,
  window: (bucket: string, windowIndex: number) => `auth:rl:${bucket}:${windowIndex}`,
} as const;

/** A stored challenge: `<expiresAtMs>|<lower-case address>|<message>` (the address is fixed-length, the message last). */
export function challengeValue(expiresAtMs: number, address: string, message: string): string {
  return `${expiresAtMs}|${address}|${message}`;
}

/** ISSUE_CHALLENGE_SCRIPT's answer: stored; refused at the bound, with the oldest live challenge's expiry (epoch ms); or the nonce taken. */
export type IssueChallengeReply = ['issued'] | ['full', string] | ['taken'];

/**
 * Stores a new challenge unless `max` are outstanding already, over every client together: the per-client
 * window bounds one address (IPv6 by /64), not an attacker holding many. Expired nonces leave the count
 * first, by the caller's clock, and a consumed one at once (CONSUME_CHALLENGE_SCRIPT).
 * KEYS: challenge, outstanding. ARGV: nonce, value, nowMs, expiresAtMs, ttlMs, max.
 */
export const ISSUE_CHALLENGE_SCRIPT: KvScript<IssueChallengeReply> = {
  name: 'auth-issue-challenge',
  lua: `
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', ARGV[3])
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[6]) then
  return {'full', redis.call('ZRANGE', KEYS[2], 0, 0, 'WITHSCORES')[2]}
end
if not redis.call('SET', KEYS[1], ARGV[2], 'NX', 'PX', ARGV[5]) then return {'taken'} end
redis.call('ZADD', KEYS[2], ARGV[4], ARGV[1])
redis.call('PEXPIRE', KEYS[2], ARGV[5])
return {'issued'}
`,
  local(data, [challenge, outstanding], [nonce, value, nowMs, expiresAtMs, ttlMs, max]) {
    data.zremRangeByScoreUpTo(outstanding, Number(nowMs));
    if (data.zcard(outstanding) >= Number(max)) return ['full', String(data.zfirst(outstanding)!.score)];
    if (data.exists(challenge)) return ['taken'];
    data.set(challenge, value, Number(ttlMs));
    data.zadd(outstanding, Number(expiresAtMs), nonce);
    data.pexpire(outstanding, Number(ttlMs));
    return ['issued'];
  },
};

export enum ChallengeOutcome {
  /** Unknown nonce: never issued, expired, or used already. */
  UNKNOWN = 0,
  CONSUMED = 1,
  /** The nonce is live but the message or address is not what was issued for it; the challenge stays usable. */
  MISMATCH = -1,
}

/**
 * Consumes a challenge if it is live and `address|message` is exactly what was issued. Atomic, so two
 * sign-ins racing with one signed challenge get one session between them. An expired one is dropped (the
 * key's TTL is only its garbage collection: the clock that decides is the caller's). Either way the nonce
 * leaves the outstanding count.
 * KEYS: challenge, outstanding. ARGV: address, message, nowMs, nonce.
 */
export const CONSUME_CHALLENGE_SCRIPT: KvScript<ChallengeOutcome> = {
  name: 'auth-consume-challenge',
  lua: `
local v = redis.call('GET', KEYS[1])
if not v then return 0 end
local bar = string.find(v, '|', 1, true)
if tonumber(ARGV[3]) >= tonumber(string.sub(v, 1, bar - 1)) then
  redis.call('DEL', KEYS[1])
  redis.call('ZREM', KEYS[2], ARGV[4])
  return 0
end
if string.sub(v, bar + 1) ~= ARGV[1] .. '|' .. ARGV[2] then return -1 end
redis.call('DEL', KEYS[1])
redis.call('ZREM', KEYS[2], ARGV[4])
return 1
`,
  local(data, [key, outstanding], [address, message, nowMs, nonce]) {
    const value = data.get(key);
    if (value === null) return ChallengeOutcome.UNKNOWN;
    const bar = value.indexOf('|');
    if (Number(nowMs) >= Number(value.slice(0, bar))) {
      data.del(key);
      data.zrem(outstanding, nonce);
      return ChallengeOutcome.UNKNOWN;
    }
    if (value.slice(bar + 1) !== `${address}|${message}`) return ChallengeOutcome.MISMATCH;
    data.del(key);
    data.zrem(outstanding, nonce);
    return ChallengeOutcome.CONSUMED;
  },
};

/**
 * A new session record (hash): account, address, the current token's jti/iat/exp, the session's end.
 * KEYS: session. ARGV: accountId, address, jti, iat, exp, endsAt (epoch seconds), ttlMs.
 */
export const CREATE_SESSION_SCRIPT: KvScript<number> = {
  name: 'auth-create-session',
  lua: `
redis.call('HSET', KEYS[1], 'account', ARGV[1], 'address', ARGV[2], 'jti', ARGV[3], 'iat', ARGV[4], 'exp', ARGV[5], 'endsAt', ARGV[6])
redis.call('PEXPIRE', KEYS[1], ARGV[7])
return 1
`,
  local(data, [key], [account, address, jti, iat, exp, endsAt, ttlMs]) {
    data.hset(key, { account, address, jti, iat, exp, endsAt });
    data.pexpire(key, Number(ttlMs));
    return 1;
  },
};

/** A token's own claims, as the KV store keeps numbers (decimal strings). */
export interface PresentedToken {
  sub: string;
  iat: string;
  exp: string;
}

/**
 * Whether a token names the wallet, issue time and expiry its session record says the server issued: a token
 * re-signed with the secret (a year's `exp`, say) is refused though its signature holds. ROTATE_SESSION_SCRIPT's
 * Lua compares the same three fields.
 */
export function isIssuedToken(issued: { address: string | null; iat: string | null; exp: string | null }, token: PresentedToken): boolean {
  return issued.address === token.sub && issued.iat === token.iat && issued.exp === token.exp;
}

/** ROTATE_SESSION_SCRIPT's answer: what happened, and the token the caller should be given (jti, iat, exp). */
export type RotateReply = ['rotated' | 'retry', string, string, string] | ['reused'] | ['ended'] | ['forged'];

/**
 * Refresh-token rotation with reuse detection (RFC 9700 4.14.2) on the session's one current token:
 * - the current jti: it is replaced by `newJti` (exp capped at the session's end), the old one remembered;
 * - the jti just replaced, within `graceMs` of that: the same successor again (its response was lost);
 * - anything else signed for this session: a stolen or replayed token, so the whole session ends.
 * The current or just-replaced jti with another sub, iat or exp than issued (isIssuedToken) is 'forged': refused,
 * the session left as it is.
 * KEYS: session. ARGV: presentedJti, newJti, nowMs, graceMs, newIat, newExp (epoch seconds), presented sub, iat, exp.
 */
export const ROTATE_SESSION_SCRIPT: KvScript<RotateReply> = {
  name: 'auth-rotate-session',
  lua: `
local s = redis.call('HMGET', KEYS[1], 'jti', 'prev', 'rotatedAt', 'iat', 'exp', 'endsAt', 'address', 'prevIat', 'prevExp')
if not s[1] then return {'ended'} end
if s[1] == ARGV[1] then
  if s[7] ~= ARGV[7] or s[4] ~= ARGV[8] or s[5] ~= ARGV[9] then return {'forged'} end
  local exp = math.min(tonumber(ARGV[6]), tonumber(s[6]))
  redis.call('HSET', KEYS[1], 'jti', ARGV[2], 'prev', ARGV[1], 'rotatedAt', ARGV[3], 'iat', ARGV[5], 'exp', string.format('%d', exp),
    'prevIat', s[4], 'prevExp', s[5])
  return {'rotated', ARGV[2], ARGV[5], string.format('%d', exp)}
end
if s[2] == ARGV[1] then
  if s[7] ~= ARGV[7] or s[8] ~= ARGV[8] or s[9] ~= ARGV[9] then return {'forged'} end
  if tonumber(ARGV[3]) - tonumber(s[3]) < tonumber(ARGV[4]) then return {'retry', s[1], s[4], s[5]} end
end
redis.call('DEL', KEYS[1])
return {'reused'}
`,
  local(data, [key], [presented, newJti, nowMs, graceMs, newIat, newExp, sub, iat, exp]) {
    const current = data.hget(key, 'jti');
    if (current === null) return ['ended'];
    const field = (name: string) => data.hget(key, name);
    const token = { sub, iat, exp };
    if (current === presented) {
      if (!isIssuedToken({ address: field('address'), iat: field('iat'), exp: field('exp') }, token)) return ['forged'];
      const nextExp = String(Math.min(Number(newExp), Number(field('endsAt'))));
      data.hset(key, { jti: newJti, prev: presented, rotatedAt: nowMs, iat: newIat, exp: nextExp, prevIat: field('iat')!, prevExp: field('exp')! });
      return ['rotated', newJti, newIat, nextExp];
    }
    if (field('prev') === presented) {
      if (!isIssuedToken({ address: field('address'), iat: field('prevIat'), exp: field('prevExp') }, token)) return ['forged'];
      if (Number(nowMs) - Number(field('rotatedAt')) < Number(graceMs)) return ['retry', current, field('iat')!, field('exp')!];
    }
    data.del(key);
    return ['reused'];
  },
};

/** Counts one call in a fixed one-minute window; answers the count. KEYS: window. ARGV: ttlMs. */
export const COUNT_WINDOW_SCRIPT: KvScript<number> = {
  name: 'auth-count-window',
  lua: `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return count
`,
  local(data, [key], [ttlMs]) {
    const count = data.incrBy(key, 1);
    if (count === 1) data.pexpire(key, Number(ttlMs));
    return count;
  },
};
