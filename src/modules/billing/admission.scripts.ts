import { KvScript } from '../../infra/kv/kv-store';
import { MemoryData } from '../../infra/kv/memory-data';
import { WINDOW_KEY_TTL_MS } from './billing-keys';

/** Status codes of the admission scripts' replies. */
export enum AdmitStatus {
  RATE_LIMITED = 0,
  ADMITTED = 1,
  INSUFFICIENT_CREDITS = 2,
  /** Not a script's: the call's balance could not be seeded (PostgreSQL did not answer); nothing was written for it. */
  UNAVAILABLE = 5,
}

/** ADMIT_SCRIPT's answer when the balance must be seeded and the seed it was given is not known to be fresh. */
export const NEEDS_SEED = 4;

/**
 * [status, calls counted in this window, live balance in micro-credits or '-1' when not metered,
 *  credit epoch and period the call was charged in (0 when not metered), ledger sequence of the call's
 *  last outbox line (0 when it wrote none)].
 */
export type AdmitReply = [AdmitStatus, number, string, number, number, number];

/**
 * The live balance of an account lives in its credits hash as `epoch`, `period` and one balance field
 * named after them, `|<epoch>|<period>|` (the same text as the ledger line's epoch and period fields),
 * holding BALANCE_OFFSET plus the balance in micro-credits. So a charge says by itself whether the
 * balance is the caller's current one: HINCRBY on the caller's field gives at least BALANCE_OFFSET minus
 * the cost when it is, and minus the cost when that field does not exist (a new month, an operator
 * change, no balance yet), which no balance can give. The lean script needs no read before its charge.
 * 2^50 leaves room for MAX_CREDIT_BALANCE (10^15 micro-credits) below 2^53, where Lua's doubles stay exact.
 */
export const BALANCE_OFFSET = 2 ** 50;

/** Name of the balance field of an epoch and period (see BALANCE_OFFSET). */
export const balanceField = (epoch: number | string, period: number | string) => `|${epoch}|${period}|`;

/**
 * Shared Lua helpers. Integers are printed with %d because Lua's default number format turns 1e14 into
 * "1e+14". Ledger sequence numbers never fall below the store's clock in microseconds: a store that lost
 * its data (the counter gone, or restored from an older copy) still numbers every new line above the lines
 * already folded into PostgreSQL, which only takes a balance from a newer sequence. Twins: nextSeqLocal.
 */
export const LUA_HELPERS = `
local OFFSET = ${BALANCE_OFFSET}
local function int(x) return string.format('%d', x) end
local function field(epoch, period) return '|' .. epoch .. '|' .. period .. '|' end
local function seq_base(key)
  local t = redis.call('TIME')
  return math.max(tonumber(redis.call('GET', key) or '0'), tonumber(t[1]) * 1000000 + tonumber(t[2]))
end
local function next_seq(key)
  local s = seq_base(key) + 1
  redis.call('SET', key, int(s))
  return s
end
`;

/** seq_base's twin: the stored sequence, or the clock in microseconds when that is higher. */
export function seqBaseLocal(data: MemoryData, seqKey: string): number {
  return Math.max(Number(data.get(seqKey) ?? '0'), data.timeMicros());
}

/** next_seq's twin. */
export function nextSeqLocal(data: MemoryData, seqKey: string): number {
  const seq = seqBaseLocal(data, seqKey) + 1;
  data.set(seqKey, String(seq));
  return seq;
}

/** The live balance in micro-credits, for the in-process twins (null when there is none). */
export function liveBalanceLocal(data: MemoryData, credits: string): number | null {
  const epoch = data.hget(credits, 'epoch');
  const stored = epoch === null ? null : data.hget(credits, balanceField(epoch, data.hget(credits, 'period')!));
  return stored === null ? null : Number(stored) - BALANCE_OFFSET;
}

/**
 * The whole per-request admission in one round trip (admitBatch's slow path; see ADMIT_FAST_SCRIPT):
 * count the call in the key's fixed window, and for metered accounts bring the live balance up to date
 * (operator re-seed, monthly reset), take the call's cost and append its charge to the ledger outbox at
 * once. A call over the cap takes nothing but still answers the balance, for the 429's headers. A call
 * that then fails is voided (VOID_SCRIPT). The reply is kept under the call's record key, and a second
 * run answers it unchanged (admission-record.ts).
 * A balance is seeded from the caller only with a seed read from PostgreSQL for this very call
 * (seedIsFresh '1'); otherwise the script changes nothing and answers `NEEDS_SEED,<1 if the store holds
 * the billing generation, else 0>`.
 * KEYS: window, credits, seq, outbox, record, generation
 * ARGV: cap, costMicro (-1: not metered), seedBalMicro, epoch, seedPeriod, currentPeriod, quotaMicro,
 *       requestId, accountId, endpoint, nowMs, seedIsFresh, recordTtlMs
 * Reply: AdmitReply's fields joined with ','.
 */
export const ADMIT_SCRIPT: KvScript<string> = {
  name: 'admit',
  lua: `${LUA_HELPERS}
local done = redis.call('GET', KEYS[5])
if done then return done end
local cost = tonumber(ARGV[2])
local epoch = tonumber(ARGV[4])
local state, stored
if cost >= 0 then
  -- 'bal' is where versions before the balance fields kept the balance of the stored epoch and period.
  state = redis.call('HMGET', KEYS[2], 'epoch', 'period', 'bal')
  stored = state[1] and (redis.call('HGET', KEYS[2], field(state[1], state[2])) or (state[3] and int(OFFSET + tonumber(state[3]))))
  if ((not stored) or tonumber(state[1]) < epoch) and ARGV[12] ~= '1' then
    return '${NEEDS_SEED},' .. redis.call('EXISTS', KEYS[6])
  end
end
local function finish(status, count, balance, heldEpoch, period, seq)
  local text = status .. ',' .. count .. ',' .. balance .. ',' .. int(heldEpoch) .. ',' .. int(period) .. ',' .. int(seq)
  redis.call('SET', KEYS[5], text, 'PX', ARGV[13])
  return text
end
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ${WINDOW_KEY_TTL_MS}) end
local limited = count > tonumber(ARGV[1])
if cost < 0 then return finish(limited and 0 or 1, count, '-1', 0, 0, 0) end
local current = tonumber(ARGV[6])
if state[3] then redis.call('HDEL', KEYS[2], 'bal', 'ep') end
local bal, heldEpoch, period, seq
if (not stored) or tonumber(state[1]) < epoch then
  if state[1] then redis.call('HDEL', KEYS[2], field(state[1], state[2])) end
  bal = tonumber(ARGV[3])
  period = tonumber(ARGV[5])
  heldEpoch = epoch
  redis.call('HSET', KEYS[2], 'epoch', ARGV[4], 'period', ARGV[5], field(ARGV[4], ARGV[5]), int(OFFSET + bal))
else
  bal = tonumber(stored) - OFFSET
  period = tonumber(state[2])
  heldEpoch = tonumber(state[1])
  if state[3] then redis.call('HSET', KEYS[2], field(state[1], state[2]), stored) end
end
seq = 0
-- Only a caller that knows the account's current epoch may start a new period: a replica whose cached
-- caller predates an operator change (new anchor, new quota) must not reset with the old ones.
if heldEpoch == epoch and period < current then
  local quota = tonumber(ARGV[7])
  seq = next_seq(KEYS[3])
  redis.call('RPUSH', KEYS[4], 'period_reset|' .. ARGV[9] .. '|' .. ARGV[9] .. ':e' .. ARGV[4] .. ':p' .. ARGV[6] .. '||' ..
    int(quota - bal) .. '|' .. ARGV[7] .. '|' .. ARGV[4] .. '|' .. ARGV[6] .. '|' .. int(seq) .. '|' .. ARGV[11])
  redis.call('HDEL', KEYS[2], field(ARGV[4], int(period)))
  redis.call('HSET', KEYS[2], 'period', ARGV[6], field(ARGV[4], ARGV[6]), int(OFFSET + quota))
  bal = quota
  period = current
end
-- Over the cap: nothing is taken, but a paid caller still learns its balance (X-Credits-Remaining).
if limited then return finish(0, count, int(bal), heldEpoch, period, seq) end
if bal < cost then return finish(2, count, int(bal), heldEpoch, period, seq) end
if cost > 0 then
  bal = redis.call('HINCRBY', KEYS[2], field(int(heldEpoch), int(period)), -cost) - OFFSET
  seq = next_seq(KEYS[3])
  redis.call('RPUSH', KEYS[4], 'charge|' .. ARGV[9] .. '|' .. ARGV[8] .. '|' .. ARGV[10] .. '|' .. int(-cost) .. '|' ..
    int(bal) .. '|' .. int(heldEpoch) .. '|' .. int(period) .. '|' .. int(seq) .. '|' .. ARGV[11])
end
return finish(1, count, int(bal), heldEpoch, period, seq)
`,
  local(data: MemoryData, keys: string[], argv: string[]): string {
    const [window, credits, seqKey, outbox, record, generation] = keys;
    const [cap, costArg, seedBal, epochArg, seedPeriod, currentPeriod, quota, requestId, accountId, endpoint, nowMs, seedIsFresh, recordTtl] = argv;
    const done = data.get(record);
    if (done !== null) return done;
    const cost = Number(costArg);
    const epoch = Number(epochArg);
    const storedEpoch = data.hget(credits, 'epoch');
    const storedPeriod = data.hget(credits, 'period');
    const legacy = data.hget(credits, 'bal');
    const stored = cost < 0 ? null : (liveBalanceLocal(data, credits) ?? (storedEpoch !== null && legacy !== null ? Number(legacy) : null));
    const mustSeed = stored === null || Number(storedEpoch) < epoch;
    if (cost >= 0 && mustSeed && seedIsFresh !== '1') return `${NEEDS_SEED},${data.exists(generation) ? 1 : 0}`;
    const finish = (status: AdmitStatus, count: number, balance: string, heldEpoch: number, period: number, seq: number) => {
      const text = [status, count, balance, heldEpoch, period, seq].join(',');
      data.set(record, text, Number(recordTtl));
      return text;
    };
    const count = data.incrBy(window, 1);
    if (count === 1) data.pexpire(window, WINDOW_KEY_TTL_MS);
    const limited = count > Number(cap);
    if (cost < 0) return finish(limited ? AdmitStatus.RATE_LIMITED : AdmitStatus.ADMITTED, count, '-1', 0, 0, 0);
    if (legacy !== null) {
      data.hdel(credits, 'bal');
      data.hdel(credits, 'ep');
    }
    let bal: number;
    let heldEpoch: number;
    let period: number;
    let seq = 0;
    if (mustSeed) {
      if (storedEpoch !== null) data.hdel(credits, balanceField(storedEpoch, storedPeriod!));
      bal = Number(seedBal);
      period = Number(seedPeriod);
      heldEpoch = epoch;
      data.hset(credits, { epoch: epochArg, period: seedPeriod, [balanceField(epochArg, seedPeriod)]: String(BALANCE_OFFSET + bal) });
    } else {
      bal = stored!;
      period = Number(storedPeriod);
      heldEpoch = Number(storedEpoch);
      if (legacy !== null) data.hset(credits, { [balanceField(storedEpoch!, storedPeriod!)]: String(BALANCE_OFFSET + stored!) });
    }
    if (heldEpoch === epoch && period < Number(currentPeriod)) {
      seq = nextSeqLocal(data, seqKey);
      const line = ['period_reset', accountId, `${accountId}:e${epochArg}:p${currentPeriod}`, '', String(Number(quota) - bal), quota, epochArg, currentPeriod];
      data.rpush(outbox, [...line, String(seq), nowMs].join('|'));
      data.hdel(credits, balanceField(epochArg, period));
      data.hset(credits, { period: currentPeriod, [balanceField(epochArg, currentPeriod)]: String(BALANCE_OFFSET + Number(quota)) });
      bal = Number(quota);
      period = Number(currentPeriod);
    }
    if (limited) return finish(AdmitStatus.RATE_LIMITED, count, String(bal), heldEpoch, period, seq);
    if (bal < cost) return finish(AdmitStatus.INSUFFICIENT_CREDITS, count, String(bal), heldEpoch, period, seq);
    if (cost > 0) {
      bal = data.hincrBy(credits, balanceField(heldEpoch, period), -cost) - BALANCE_OFFSET;
      seq = nextSeqLocal(data, seqKey);
      const line = ['charge', accountId, requestId, endpoint, String(-cost), String(bal), String(heldEpoch), String(period), String(seq), nowMs];
      data.rpush(outbox, line.join('|'));
    }
    return finish(AdmitStatus.ADMITTED, count, String(bal), heldEpoch, period, seq);
  },
};

/** ADMIT_SCRIPT's reply text as an AdmitReply; null for NEEDS_SEED, with whether the store holds its generation. */
export function parseAdmitReply(text: string): { reply: AdmitReply } | { needsSeed: true; generationKnown: boolean } {
  const f = text.split(',');
  if (Number(f[0]) === NEEDS_SEED) return { needsSeed: true, generationKnown: f[1] === '1' };
  return { reply: [Number(f[0]), Number(f[1]), f[2], Number(f[3]), Number(f[4]), Number(f[5])] };
}

/**
 * The live balance the next admitted call would start from, without admitting one: ADMIT_SCRIPT's balance
 * step with nothing written. That is the stored balance, unless none is stored or the caller's epoch is
 * newer (then the caller's settled balance); and the quota when that balance is of the caller's epoch and
 * an earlier period (a monthly reset no call has made yet).
 * KEYS: credits. ARGV: epoch, seedBalMicro, seedPeriod, currentPeriod, quotaMicro (as ADMIT_SCRIPT's).
 * Returns the balance in micro-credits.
 */
export const READ_BALANCE_SCRIPT: KvScript<string> = {
  name: 'read-balance',
  lua: `${LUA_HELPERS}
local epoch = tonumber(ARGV[1])
local state = redis.call('HMGET', KEYS[1], 'epoch', 'period', 'bal')
local stored = state[1] and (redis.call('HGET', KEYS[1], field(state[1], state[2])) or (state[3] and int(OFFSET + tonumber(state[3]))))
local bal, period, heldEpoch = tonumber(ARGV[2]), tonumber(ARGV[3]), epoch
if stored and tonumber(state[1]) >= epoch then
  bal, period, heldEpoch = tonumber(stored) - OFFSET, tonumber(state[2]), tonumber(state[1])
end
if heldEpoch == epoch and period < tonumber(ARGV[4]) then bal = tonumber(ARGV[5]) end
return int(bal)
`,
  local(data, [credits], [epochArg, seedBal, seedPeriod, currentPeriod, quota]) {
    const epoch = Number(epochArg);
    const storedEpoch = data.hget(credits, 'epoch');
    const legacy = data.hget(credits, 'bal');
    const stored = liveBalanceLocal(data, credits) ?? (storedEpoch !== null && legacy !== null ? Number(legacy) : null);
    let [bal, period, heldEpoch] = [Number(seedBal), Number(seedPeriod), epoch];
    if (stored !== null && Number(storedEpoch) >= epoch) [bal, period, heldEpoch] = [stored, Number(data.hget(credits, 'period')), Number(storedEpoch)];
    if (heldEpoch === epoch && period < Number(currentPeriod)) bal = Number(quota);
    return String(bal);
  },
};
