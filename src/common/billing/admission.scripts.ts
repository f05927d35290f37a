import { KvScript } from '../../infra/kv/kv-store';
import { MemoryData } from '../../infra/kv/memory-data';

/** Status codes returned by ADMIT_SCRIPT as the first element. */
export enum AdmitStatus {
  RATE_LIMITED = 0,
  ADMITTED = 1,
  INSUFFICIENT_CREDITS = 2,
}

/** [status, calls counted in this window, live balance in micro-credits or '-1' when not metered]. */
export type AdmitReply = [AdmitStatus, number, string];

// Shared Lua helpers: integers are printed with %d because Lua's default number format turns 1e14 into "1e+14".
const LUA_HELPERS = `
local function int(x) return string.format('%d', x) end
local function split(s)
  local out, from = {}, 1
  while true do
    local i = string.find(s, '|', from, true)
    if not i then out[#out + 1] = string.sub(s, from); return out end
    out[#out + 1] = string.sub(s, from, i - 1)
    from = i + 1
  end
end
`;

/**
 * The whole per-request admission in one round trip: count the call in the key's fixed window, and for
 * metered accounts bring the live balance up to date (operator re-seed, monthly reset), then hold the
 * call's cost. The hold becomes a ledger entry when the call succeeds (COMMIT_HOLDS) or is given back
 * when it fails (REFUND).
 * KEYS: window, credits, holds, usage, seq, outbox, usageDirty
 * ARGV: cap, windowTtlMs, metered, costMicro, seedBalMicro, epoch, seedPeriod, currentPeriod, quotaMicro,
 *       requestId, accountId, endpoint, nowMs, usageTtlMs, usageDirtyMember
 */
export const ADMIT_SCRIPT: KvScript<AdmitReply> = {
  name: 'admit',
  lua: `${LUA_HELPERS}
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
if count > tonumber(ARGV[1]) then return {0, count, '-1'} end
local metered = ARGV[3] == '1'
local cost = tonumber(ARGV[4])
local balance = '-1'
if metered then
  local epoch = tonumber(ARGV[6])
  local state = redis.call('HMGET', KEYS[2], 'bal', 'epoch', 'period')
  local bal, period, heldEpoch
  local current = tonumber(ARGV[8])
  if (not state[1]) or tonumber(state[2]) < epoch then
    bal = tonumber(ARGV[5])
    period = tonumber(ARGV[7])
    heldEpoch = epoch
    redis.call('HSET', KEYS[2], 'bal', ARGV[5], 'epoch', ARGV[6], 'period', ARGV[7])
  else
    bal = tonumber(state[1])
    period = tonumber(state[3])
    heldEpoch = tonumber(state[2])
  end
  -- Only a caller that knows the account's current epoch may start a new period: a replica whose cached
  -- caller predates an operator change (new anchor, new quota) must not reset with the old ones.
  if heldEpoch == epoch and period < current then
    local seq = redis.call('INCR', KEYS[5])
    redis.call('RPUSH', KEYS[6], table.concat({'period_reset', ARGV[11], ARGV[11] .. ':e' .. ARGV[6] .. ':p' .. ARGV[8], '',
      int(tonumber(ARGV[9]) - bal), ARGV[9], ARGV[6], ARGV[8], int(seq), ARGV[13]}, '|'))
    redis.call('HSET', KEYS[2], 'bal', ARGV[9], 'period', ARGV[8])
    bal = tonumber(ARGV[9])
    period = current
  end
  if bal < cost then return {2, count, int(bal)} end
  if cost > 0 then
    bal = redis.call('HINCRBY', KEYS[2], 'bal', -cost)
    local seq = redis.call('INCR', KEYS[5])
    redis.call('HSET', KEYS[3], ARGV[10], table.concat({'charge', ARGV[11], ARGV[10], ARGV[12],
      int(-cost), int(bal), int(heldEpoch), int(period), int(seq), ARGV[13]}, '|'))
  end
  balance = int(bal)
end
redis.call('HINCRBY', KEYS[4], ARGV[12], 1)
if metered and cost > 0 then redis.call('HINCRBY', KEYS[4], ARGV[12] .. '#credits', cost) end
redis.call('PEXPIRE', KEYS[4], ARGV[14])
redis.call('SADD', KEYS[7], ARGV[15])
return {1, count, balance}
`,
  local(data: MemoryData, keys: string[], argv: string[]): AdmitReply {
    const [window, credits, holds, usage, seqKey, outbox, usageDirty] = keys;
    const [cap, windowTtlMs, meteredFlag, costArg, seedBal, epochArg, seedPeriod, currentPeriod, quota] = argv;
    const [requestId, accountId, endpoint, nowMs, usageTtlMs, usageDirtyMember] = argv.slice(9);
    const count = data.incrBy(window, 1);
    if (count === 1) data.pexpire(window, Number(windowTtlMs));
    if (count > Number(cap)) return [AdmitStatus.RATE_LIMITED, count, '-1'];
    const metered = meteredFlag === '1';
    const cost = Number(costArg);
    let balance = '-1';
    if (metered) {
      const epoch = Number(epochArg);
      const current = Number(currentPeriod);
      let bal: number;
      let period: number;
      let heldEpoch: number;
      const storedBal = data.hget(credits, 'bal');
      if (storedBal === null || Number(data.hget(credits, 'epoch')) < epoch) {
        bal = Number(seedBal);
        period = Number(seedPeriod);
        heldEpoch = epoch;
        data.hset(credits, { bal: seedBal, epoch: epochArg, period: seedPeriod });
      } else {
        bal = Number(storedBal);
        period = Number(data.hget(credits, 'period'));
        heldEpoch = Number(data.hget(credits, 'epoch'));
      }
      if (heldEpoch === epoch && period < current) {
        const seq = data.incrBy(seqKey, 1);
        data.rpush(outbox, ['period_reset', accountId, `${accountId}:e${epochArg}:p${currentPeriod}`, '', String(Number(quota) - bal), quota, epochArg, currentPeriod, String(seq), nowMs].join('|'));
        data.hset(credits, { bal: quota, period: currentPeriod });
        bal = Number(quota);
        period = current;
      }
      if (bal < cost) return [AdmitStatus.INSUFFICIENT_CREDITS, count, String(bal)];
      if (cost > 0) {
        bal = data.hincrBy(credits, 'bal', -cost);
        const seq = data.incrBy(seqKey, 1);
        data.hset(holds, { [requestId]: ['charge', accountId, requestId, endpoint, String(-cost), String(bal), String(heldEpoch), String(period), String(seq), nowMs].join('|') });
      }
      balance = String(bal);
    }
    data.hincrBy(usage, endpoint, 1);
    if (metered && cost > 0) data.hincrBy(usage, `${endpoint}#credits`, cost);
    data.pexpire(usage, Number(usageTtlMs));
    data.sadd(usageDirty, usageDirtyMember);
    return [AdmitStatus.ADMITTED, count, balance];
  },
};

/**
 * Undo an admitted call that failed: take its usage back and, when it held credits, return them to the
 * balance (unless an operator change or a monthly reset replaced that balance in between).
 * The meter is marked for the PostgreSQL copy again, so the durable usage loses the failed call too.
 * KEYS: credits, holds, usage, usageDirty. ARGV: requestId, endpoint, usageDirtyMember.
 * Returns the balance in micro-credits or '-1'.
 */
export const REFUND_SCRIPT: KvScript<string> = {
  name: 'refund',
  lua: `${LUA_HELPERS}
redis.call('HINCRBY', KEYS[3], ARGV[2], -1)
redis.call('SADD', KEYS[4], ARGV[3])
local hold = redis.call('HGET', KEYS[2], ARGV[1])
if not hold then return '-1' end
redis.call('HDEL', KEYS[2], ARGV[1])
local f = split(hold)
local amount = tonumber(f[5])
redis.call('HINCRBY', KEYS[3], ARGV[2] .. '#credits', amount)
local state = redis.call('HMGET', KEYS[1], 'epoch', 'period', 'bal')
if state[1] == f[7] and state[2] == f[8] then
  return int(redis.call('HINCRBY', KEYS[1], 'bal', -amount))
end
return state[3] or '-1'
`,
  local(data, [credits, holds, usage, usageDirty], [requestId, endpoint, usageDirtyMember]) {
    data.hincrBy(usage, endpoint, -1);
    data.sadd(usageDirty, usageDirtyMember);
    const hold = data.hget(holds, requestId);
    if (hold === null) return '-1';
    data.hdel(holds, requestId);
    const f = hold.split('|');
    const amount = Number(f[4]);
    data.hincrBy(usage, `${endpoint}#credits`, amount);
    if (data.hget(credits, 'epoch') === f[6] && data.hget(credits, 'period') === f[7]) {
      return String(data.hincrBy(credits, 'bal', -amount));
    }
    return data.hget(credits, 'bal') ?? '-1';
  },
};

/** Move the holds of succeeded calls to the ledger outbox. KEYS: holds, outbox. ARGV: request ids. */
export const COMMIT_HOLDS_SCRIPT: KvScript<number> = {
  name: 'commit-holds',
  lua: `
local moved = 0
for i = 1, #ARGV do
  local hold = redis.call('HGET', KEYS[1], ARGV[i])
  if hold then
    redis.call('RPUSH', KEYS[2], hold)
    redis.call('HDEL', KEYS[1], ARGV[i])
    moved = moved + 1
  end
end
return moved
`,
  local(data, [holds, outbox], requestIds) {
    let moved = 0;
    for (const requestId of requestIds) {
      const hold = data.hget(holds, requestId);
      if (hold === null) continue;
      data.rpush(outbox, hold);
      data.hdel(holds, requestId);
      moved += 1;
    }
    return moved;
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
 * Holds older than the cutoff belong to calls whose process died before it could commit or refund them.
 * They are charged: the call was admitted and most likely answered. KEYS: holds, outbox. ARGV: cutoffMs.
 */
export const RELEASE_ORPHAN_HOLDS_SCRIPT: KvScript<number> = {
  name: 'release-orphan-holds',
  lua: `
local all = redis.call('HGETALL', KEYS[1])
local cutoff = tonumber(ARGV[1])
local moved = 0
for i = 1, #all, 2 do
  local at = tonumber(string.match(all[i + 1], '|(%d+)$'))
  if at and at <= cutoff then
    redis.call('RPUSH', KEYS[2], all[i + 1])
    redis.call('HDEL', KEYS[1], all[i])
    moved = moved + 1
  end
end
return moved
`,
  local(data, [holds, outbox], [cutoffMs]) {
    let moved = 0;
    for (const [requestId, hold] of Object.entries(data.hgetall(holds))) {
      const at = Number(hold.slice(hold.lastIndexOf('|') + 1));
      // Written as "not at or before" so a malformed line (NaN) stays put, as it does in Lua.
      if (!(at <= Number(cutoffMs))) continue;
      data.rpush(outbox, hold);
      data.hdel(holds, requestId);
      moved += 1;
    }
    return moved;
  },
};
