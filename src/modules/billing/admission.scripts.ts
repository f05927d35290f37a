import { KvScript } from '../../infra/kv/kv-store';
import { MemoryData } from '../../infra/kv/memory-data';
import { WINDOW_KEY_TTL_MS } from './billing-keys';

/** Status codes returned by ADMIT_SCRIPT as the first element. */
export enum AdmitStatus {
  RATE_LIMITED = 0,
  ADMITTED = 1,
  INSUFFICIENT_CREDITS = 2,
}

/**
 * [status, calls counted in this window, live balance in micro-credits or '-1' when not metered,
 *  credit epoch and period the call was charged in (0 when not metered)].
 */
export type AdmitReply = [AdmitStatus, number, string, number, number];

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

// Shared Lua helpers: integers are printed with %d because Lua's default number format turns 1e14 into "1e+14".
export const LUA_HELPERS = `
local OFFSET = ${BALANCE_OFFSET}
local function int(x) return string.format('%d', x) end
local function field(epoch, period) return '|' .. epoch .. '|' .. period .. '|' end
`;

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
 * once. A call over the cap takes nothing but still answers the balance, for the 429's headers. A call that then fails is voided by REFUND, which gives the credits back and appends a void the
 * ledger flusher cancels the charge with; a call whose process dies mid-way stays charged (it was
 * admitted and most likely answered).
 * Usage meters are counted in memory and added in batches (UsageMeterService, ADD_USAGE_SCRIPT).
 * KEYS: window, credits, seq, outbox
 * ARGV: cap, costMicro (-1: not metered), seedBalMicro, epoch, seedPeriod, currentPeriod, quotaMicro,
 *       requestId, accountId, endpoint, nowMs
 */
export const ADMIT_SCRIPT: KvScript<AdmitReply> = {
  name: 'admit',
  lua: `${LUA_HELPERS}
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ${WINDOW_KEY_TTL_MS}) end
local limited = count > tonumber(ARGV[1])
local cost = tonumber(ARGV[2])
if limited and cost < 0 then return {0, count, '-1', 0, 0} end
local balance, heldEpoch, period = '-1', 0, 0
if cost >= 0 then
  local epoch = tonumber(ARGV[4])
  local current = tonumber(ARGV[6])
  -- 'bal' is where versions before the balance fields kept the balance of the stored epoch and period.
  local state = redis.call('HMGET', KEYS[2], 'epoch', 'period', 'bal')
  local stored = state[1] and (redis.call('HGET', KEYS[2], field(state[1], state[2])) or (state[3] and int(OFFSET + tonumber(state[3]))))
  if state[3] then redis.call('HDEL', KEYS[2], 'bal', 'ep') end
  local bal
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
  -- Only a caller that knows the account's current epoch may start a new period: a replica whose cached
  -- caller predates an operator change (new anchor, new quota) must not reset with the old ones.
  if heldEpoch == epoch and period < current then
    local quota = tonumber(ARGV[7])
    redis.call('RPUSH', KEYS[4], 'period_reset|' .. ARGV[9] .. '|' .. ARGV[9] .. ':e' .. ARGV[4] .. ':p' .. ARGV[6] .. '||' ..
      int(quota - bal) .. '|' .. ARGV[7] .. '|' .. ARGV[4] .. '|' .. ARGV[6] .. '|' .. int(redis.call('INCR', KEYS[3])) .. '|' .. ARGV[11])
    redis.call('HDEL', KEYS[2], field(ARGV[4], int(period)))
    redis.call('HSET', KEYS[2], 'period', ARGV[6], field(ARGV[4], ARGV[6]), int(OFFSET + quota))
    bal = quota
    period = current
  end
  -- Over the cap: nothing is taken, but a paid caller still learns its balance (X-Credits-Remaining).
  if limited then return {0, count, int(bal), heldEpoch, period} end
  if bal < cost then return {2, count, int(bal), heldEpoch, period} end
  if cost > 0 then
    bal = redis.call('HINCRBY', KEYS[2], field(int(heldEpoch), int(period)), -cost) - OFFSET
    redis.call('RPUSH', KEYS[4], 'charge|' .. ARGV[9] .. '|' .. ARGV[8] .. '|' .. ARGV[10] .. '|' .. int(-cost) .. '|' ..
      int(bal) .. '|' .. int(heldEpoch) .. '|' .. int(period) .. '|' .. int(redis.call('INCR', KEYS[3])) .. '|' .. ARGV[11])
  end
  balance = int(bal)
end
return {1, count, balance, heldEpoch, period}
`,
  local(data: MemoryData, keys: string[], argv: string[]): AdmitReply {
    const [window, credits, seqKey, outbox] = keys;
    const [cap, costArg, seedBal, epochArg, seedPeriod, currentPeriod, quota, requestId, accountId, endpoint, nowMs] = argv;
    const count = data.incrBy(window, 1);
    if (count === 1) data.pexpire(window, WINDOW_KEY_TTL_MS);
    const limited = count > Number(cap);
    const cost = Number(costArg);
    if (limited && cost < 0) return [AdmitStatus.RATE_LIMITED, count, '-1', 0, 0];
    let balance = '-1';
    let heldEpoch = 0;
    let period = 0;
    if (cost >= 0) {
      const epoch = Number(epochArg);
      const current = Number(currentPeriod);
      const storedEpoch = data.hget(credits, 'epoch');
      const storedPeriod = data.hget(credits, 'period');
      const legacy = data.hget(credits, 'bal');
      const stored = liveBalanceLocal(data, credits) ?? (storedEpoch !== null && legacy !== null ? Number(legacy) : null);
      if (legacy !== null) {
        data.hdel(credits, 'bal');
        data.hdel(credits, 'ep');
      }
      let bal: number;
      if (stored === null || Number(storedEpoch) < epoch) {
        if (storedEpoch !== null) data.hdel(credits, balanceField(storedEpoch, storedPeriod!));
        bal = Number(seedBal);
        period = Number(seedPeriod);
        heldEpoch = epoch;
        data.hset(credits, { epoch: epochArg, period: seedPeriod, [balanceField(epochArg, seedPeriod)]: String(BALANCE_OFFSET + bal) });
      } else {
        bal = stored;
        period = Number(storedPeriod);
        heldEpoch = Number(storedEpoch);
        if (legacy !== null) data.hset(credits, { [balanceField(storedEpoch!, storedPeriod!)]: String(BALANCE_OFFSET + stored) });
      }
      if (heldEpoch === epoch && period < current) {
        const seq = data.incrBy(seqKey, 1);
        data.rpush(
          outbox,
          [
            'period_reset',
            accountId,
            `${accountId}:e${epochArg}:p${currentPeriod}`,
            '',
            String(Number(quota) - bal),
            quota,
            epochArg,
            currentPeriod,
            String(seq),
            nowMs,
          ].join('|'),
        );
        data.hdel(credits, balanceField(epochArg, period));
        data.hset(credits, { period: currentPeriod, [balanceField(epochArg, currentPeriod)]: String(BALANCE_OFFSET + Number(quota)) });
        bal = Number(quota);
        period = current;
      }
      if (limited) return [AdmitStatus.RATE_LIMITED, count, String(bal), heldEpoch, period];
      if (bal < cost) return [AdmitStatus.INSUFFICIENT_CREDITS, count, String(bal), heldEpoch, period];
      if (cost > 0) {
        bal = data.hincrBy(credits, balanceField(heldEpoch, period), -cost) - BALANCE_OFFSET;
        const seq = data.incrBy(seqKey, 1);
        data.rpush(
          outbox,
          ['charge', accountId, requestId, endpoint, String(-cost), String(bal), String(heldEpoch), String(period), String(seq), nowMs].join('|'),
        );
      }
      balance = String(bal);
    }
    return [AdmitStatus.ADMITTED, count, balance, heldEpoch, period];
  },
};

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

/**
 * Undo the charge of an admitted call that failed: return the credits to the balance (unless an operator
 * change or a monthly reset replaced that balance in between) and append a void, which the ledger
 * flusher cancels the charge with. Called at most once per call (AdmissionService keeps a settled flag).
 * KEYS: credits, seq, outbox.
 * ARGV: requestId, accountId, endpoint, costMicro, epoch and period of the charge (from the admission
 *       reply), nowMs.
 * Returns the balance in micro-credits, or '-1' when there is none.
 */
export const REFUND_SCRIPT: KvScript<string> = {
  name: 'refund',
  lua: `${LUA_HELPERS}
local cost = tonumber(ARGV[4])
local state = redis.call('HMGET', KEYS[1], 'epoch', 'period')
local bal = '-1'
local stored = state[1] and redis.call('HGET', KEYS[1], field(state[1], state[2]))
if stored then
  if state[1] == ARGV[5] and state[2] == ARGV[6] then bal = int(redis.call('HINCRBY', KEYS[1], field(state[1], state[2]), cost) - OFFSET)
  else bal = int(tonumber(stored) - OFFSET) end
end
redis.call('RPUSH', KEYS[3], 'void|' .. ARGV[2] .. '|' .. ARGV[1] .. '|' .. ARGV[3] .. '|' .. int(cost) .. '|' .. bal .. '|' ..
  (state[1] or '-1') .. '|' .. (state[2] or '-1') .. '|' .. int(redis.call('INCR', KEYS[2])) .. '|' .. ARGV[7])
return bal
`,
  local(data, [credits, seqKey, outbox], [requestId, accountId, endpoint, costArg, epoch, period, nowMs]) {
    const cost = Number(costArg);
    const heldEpoch = data.hget(credits, 'epoch');
    const heldPeriod = data.hget(credits, 'period');
    const stored = liveBalanceLocal(data, credits);
    let after = '-1';
    if (stored !== null) {
      after = heldEpoch === epoch && heldPeriod === period ? String(data.hincrBy(credits, balanceField(epoch, period), cost) - BALANCE_OFFSET) : String(stored);
    }
    const seq = data.incrBy(seqKey, 1);
    data.rpush(outbox, ['void', accountId, requestId, endpoint, String(cost), after, heldEpoch ?? '-1', heldPeriod ?? '-1', String(seq), nowMs].join('|'));
    return after;
  },
};

/**
 * Removes the first `count` outbox lines only if the head still is what the caller read (first and last
 * line): a drainer whose lease expired mid-batch cannot trim lines another drainer has not written yet.
 * KEYS: outbox. ARGV: count, firstLine, lastLine. Returns 1 when trimmed.
 */
export const TRIM_OUTBOX_HEAD_SCRIPT: KvScript<number> = {
  name: 'trim-outbox-head',
  lua: `
local n = tonumber(ARGV[1])
if redis.call('LINDEX', KEYS[1], 0) ~= ARGV[2] or redis.call('LINDEX', KEYS[1], n - 1) ~= ARGV[3] then return 0 end
redis.call('LTRIM', KEYS[1], n, -1)
return 1
`,
  local(data, [outbox], [count, first, last]) {
    const n = Number(count);
    const head = data.lrange(outbox, 0, n - 1);
    if (head.length !== n || head[0] !== first || head[n - 1] !== last) return 0;
    data.ltrim(outbox, n, -1);
    return 1;
  },
};

/**
 * Raises the ledger sequence to at least `floor` (the highest sequence PostgreSQL has folded into an
 * account): the fold only moves a balance for a newer sequence, so a counter that started again from 0 (an
 * in-process store after a restart, a Redis that lost its data) would leave every balance where it was.
 * Never lowers it: with several replicas starting, the running ones may already be past the floor.
 * KEYS: seq. ARGV: floor. Returns the sequence after the call.
 */
export const RAISE_SEQ_FLOOR_SCRIPT: KvScript<number> = {
  name: 'raise-seq-floor',
  lua: `
local current = tonumber(redis.call('GET', KEYS[1]) or '0')
local floor = tonumber(ARGV[1])
if current >= floor then return current end
redis.call('SET', KEYS[1], ARGV[1])
return floor
`,
  local(data, [seqKey], [floorArg]) {
    const current = Number(data.get(seqKey) ?? '0');
    const floor = Number(floorArg);
    if (current >= floor) return current;
    data.set(seqKey, floorArg);
    return floor;
  },
};
