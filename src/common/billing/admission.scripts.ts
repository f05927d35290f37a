import { KvScript, KvStore } from '../../infra/kv/kv-store';
import { MemoryData } from '../../infra/kv/memory-data';
import { USAGE_KEY_TTL_MS, WINDOW_KEY_TTL_MS } from './billing-keys';

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

// Shared Lua helpers: integers are printed with %d because Lua's default number format turns 1e14 into "1e+14".
const LUA_HELPERS = `
local function int(x) return string.format('%d', x) end
`;

/**
 * The whole per-request admission in one round trip (admitCall's slow path; see ADMIT_FAST_SCRIPT):
 * count the call in the key's fixed window, and for metered accounts bring the live balance up to date
 * (operator re-seed, monthly reset), take the call's cost and append its charge to the ledger outbox at
 * once. A call that then fails is voided by REFUND, which gives the credits back and appends a void the
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
if count > tonumber(ARGV[1]) then return {0, count, '-1', 0, 0} end
local cost = tonumber(ARGV[2])
local balance, heldEpoch, period = '-1', 0, 0
if cost >= 0 then
  local epoch = tonumber(ARGV[4])
  local current = tonumber(ARGV[6])
  local state = redis.call('HMGET', KEYS[2], 'bal', 'epoch', 'period')
  local bal
  if (not state[1]) or tonumber(state[2]) < epoch then
    bal = tonumber(ARGV[3])
    period = tonumber(ARGV[5])
    heldEpoch = epoch
    redis.call('HSET', KEYS[2], 'bal', ARGV[3], 'epoch', ARGV[4], 'period', ARGV[5], 'ep', ARGV[4] .. ':' .. ARGV[5])
  else
    bal = tonumber(state[1])
    period = tonumber(state[3])
    heldEpoch = tonumber(state[2])
  end
  -- Only a caller that knows the account's current epoch may start a new period: a replica whose cached
  -- caller predates an operator change (new anchor, new quota) must not reset with the old ones.
  if heldEpoch == epoch and period < current then
    local quota = tonumber(ARGV[7])
    redis.call('RPUSH', KEYS[4], 'period_reset|' .. ARGV[9] .. '|' .. ARGV[9] .. ':e' .. ARGV[4] .. ':p' .. ARGV[6] .. '||' ..
      int(quota - bal) .. '|' .. ARGV[7] .. '|' .. ARGV[4] .. '|' .. ARGV[6] .. '|' .. int(redis.call('INCR', KEYS[3])) .. '|' .. ARGV[11])
    redis.call('HSET', KEYS[2], 'bal', ARGV[7], 'period', ARGV[6], 'ep', ARGV[4] .. ':' .. ARGV[6])
    bal = quota
    period = current
  end
  if bal < cost then return {2, count, int(bal), heldEpoch, period} end
  if cost > 0 then
    bal = redis.call('HINCRBY', KEYS[2], 'bal', -cost)
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
    if (count > Number(cap)) return [AdmitStatus.RATE_LIMITED, count, '-1', 0, 0];
    const cost = Number(costArg);
    let balance = '-1';
    let heldEpoch = 0;
    let period = 0;
    if (cost >= 0) {
      const epoch = Number(epochArg);
      const current = Number(currentPeriod);
      let bal: number;
      const storedBal = data.hget(credits, 'bal');
      if (storedBal === null || Number(data.hget(credits, 'epoch')) < epoch) {
        bal = Number(seedBal);
        period = Number(seedPeriod);
        heldEpoch = epoch;
        data.hset(credits, { bal: seedBal, epoch: epochArg, period: seedPeriod, ep: `${epochArg}:${seedPeriod}` });
      } else {
        bal = Number(storedBal);
        period = Number(data.hget(credits, 'period'));
        heldEpoch = Number(data.hget(credits, 'epoch'));
      }
      if (heldEpoch === epoch && period < current) {
        const seq = data.incrBy(seqKey, 1);
        data.rpush(outbox, ['period_reset', accountId, `${accountId}:e${epochArg}:p${currentPeriod}`, '', String(Number(quota) - bal), quota, epochArg, currentPeriod, String(seq), nowMs].join('|'));
        data.hset(credits, { bal: quota, period: currentPeriod, ep: `${epochArg}:${currentPeriod}` });
        bal = Number(quota);
        period = current;
      }
      if (bal < cost) return [AdmitStatus.INSUFFICIENT_CREDITS, count, String(bal), heldEpoch, period];
      if (cost > 0) {
        bal = data.hincrBy(credits, 'bal', -cost);
        const seq = data.incrBy(seqKey, 1);
        data.rpush(outbox, ['charge', accountId, requestId, endpoint, String(-cost), String(bal), String(heldEpoch), String(period), String(seq), nowMs].join('|'));
      }
      balance = String(bal);
    }
    return [AdmitStatus.ADMITTED, count, balance, heldEpoch, period];
  },
};

/** Status of ADMIT_FAST_SCRIPT when the balance is not the caller's current one: run ADMIT_SCRIPT instead. */
const NEEDS_FULL_ADMIT = 3;

/**
 * The common case of ADMIT_SCRIPT, with a third of its work and arguments: the live balance already
 * belongs to the caller's epoch and period (the `ep` field the full script keeps), so there is nothing
 * to seed or reset and nothing to read before the charge. Anything else (first call, operator change,
 * new month, a caller older than the stored epoch) answers NEEDS_FULL_ADMIT before touching a key, and
 * admitCall runs the full script. The charge line is the full script's, byte for byte: node joins its
 * fixed parts (head, mid) and the script puts the balance and the sequence number between them.
 * It relies on `ep` and `bal` living and dying together: only the full script writes `ep`, always in the
 * same HSET as `bal`, and nothing deletes one field without the other.
 * KEYS: window, credits, seq, outbox
 * ARGV: cap, costMicro (-1: not metered), "epoch:period", head "charge|account|request|endpoint|-cost|",
 *       mid "|epoch|period|", nowMs
 * Reply: {status, count[, balance]}, or {NEEDS_FULL_ADMIT}.
 */
export const ADMIT_FAST_SCRIPT: KvScript<Array<number | string>> = {
  name: 'admit-fast',
  lua: `${LUA_HELPERS}
local cost = tonumber(ARGV[2])
if cost >= 0 and redis.call('HGET', KEYS[2], 'ep') ~= ARGV[3] then return {${NEEDS_FULL_ADMIT}} end
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ${WINDOW_KEY_TTL_MS}) end
if count > tonumber(ARGV[1]) then return {0, count} end
if cost < 0 then return {1, count} end
if cost == 0 then return {1, count, redis.call('HGET', KEYS[2], 'bal')} end
local bal = redis.call('HINCRBY', KEYS[2], 'bal', -cost)
if bal < 0 then return {2, count, int(redis.call('HINCRBY', KEYS[2], 'bal', cost))} end
redis.call('RPUSH', KEYS[4], ARGV[4] .. int(bal) .. ARGV[5] .. int(redis.call('INCR', KEYS[3])) .. '|' .. ARGV[6])
return {1, count, int(bal)}
`,
  local(data, [window, credits, seqKey, outbox], [cap, costArg, ep, head, mid, nowMs]) {
    const cost = Number(costArg);
    if (cost >= 0 && data.hget(credits, 'ep') !== ep) return [NEEDS_FULL_ADMIT];
    const count = data.incrBy(window, 1);
    if (count === 1) data.pexpire(window, WINDOW_KEY_TTL_MS);
    if (count > Number(cap)) return [AdmitStatus.RATE_LIMITED, count];
    if (cost < 0) return [AdmitStatus.ADMITTED, count];
    if (cost === 0) {
      const balance = data.hget(credits, 'bal');
      return balance === null ? [AdmitStatus.ADMITTED, count] : [AdmitStatus.ADMITTED, count, balance];
    }
    const bal = data.hincrBy(credits, 'bal', -cost);
    if (bal < 0) return [AdmitStatus.INSUFFICIENT_CREDITS, count, String(data.hincrBy(credits, 'bal', cost))];
    data.rpush(outbox, `${head}${bal}${mid}${data.incrBy(seqKey, 1)}|${nowMs}`);
    return [AdmitStatus.ADMITTED, count, String(bal)];
  },
};

export interface AdmitParams {
  cap: number;
  /** -1 when the caller is not metered. */
  costMicro: number;
  seedMicro: string;
  epoch: number;
  seedPeriod: number;
  period: number;
  quotaMicro: string;
  requestId: string;
  accountId: string;
  endpoint: string;
  nowMs: number;
}

/** KEYS of both admission scripts, in order. */
export type AdmitKeys = [window: string, credits: string, seq: string, outbox: string];

/**
 * One admission: the fast script, and the full one only when the fast one cannot decide (about once per
 * account and month on a replica). Both give the same AdmitReply for the same state.
 */
export async function admitCall(kv: KvStore, keys: AdmitKeys, p: AdmitParams): Promise<AdmitReply> {
  const fast = await kv.run(ADMIT_FAST_SCRIPT, keys, [
    p.cap,
    p.costMicro,
    `${p.epoch}:${p.period}`,
    `charge|${p.accountId}|${p.requestId}|${p.endpoint}|${-p.costMicro}|`,
    `|${p.epoch}|${p.period}|`,
    p.nowMs,
  ]);
  const status = Number(fast[0]);
  if (status !== NEEDS_FULL_ADMIT) {
    if (p.costMicro < 0) return [status, Number(fast[1]), '-1', 0, 0];
    if (status === AdmitStatus.RATE_LIMITED) return [status, Number(fast[1]), '-1', 0, 0];
    return [status, Number(fast[1]), String(fast[2]), p.epoch, p.period];
  }
  return kv.run(ADMIT_SCRIPT, keys, [
    p.cap,
    p.costMicro,
    p.seedMicro,
    p.epoch,
    p.seedPeriod,
    p.period,
    p.quotaMicro,
    p.requestId,
    p.accountId,
    p.endpoint,
    p.nowMs,
  ]);
}

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
local state = redis.call('HMGET', KEYS[1], 'bal', 'epoch', 'period')
local bal = state[1] or '-1'
if state[2] == ARGV[5] and state[3] == ARGV[6] then bal = int(redis.call('HINCRBY', KEYS[1], 'bal', cost)) end
redis.call('RPUSH', KEYS[3], 'void|' .. ARGV[2] .. '|' .. ARGV[1] .. '|' .. ARGV[3] .. '|' .. int(cost) .. '|' .. bal .. '|' ..
  (state[2] or '-1') .. '|' .. (state[3] or '-1') .. '|' .. int(redis.call('INCR', KEYS[2])) .. '|' .. ARGV[7])
return bal
`,
  local(data, [credits, seqKey, outbox], [requestId, accountId, endpoint, costArg, epoch, period, nowMs]) {
    const cost = Number(costArg);
    const heldEpoch = data.hget(credits, 'epoch');
    const heldPeriod = data.hget(credits, 'period');
    const bal = data.hget(credits, 'bal') ?? '-1';
    const after = heldEpoch === epoch && heldPeriod === period ? String(data.hincrBy(credits, 'bal', cost)) : bal;
    const seq = data.incrBy(seqKey, 1);
    data.rpush(outbox, ['void', accountId, requestId, endpoint, String(cost), after, heldEpoch ?? '-1', heldPeriod ?? '-1', String(seq), nowMs].join('|'));
    return after;
  },
};

/**
 * Adds a batch of in-memory usage tallies to the live meters and marks them for the PostgreSQL copy.
 * KEYS: usageDirty, then one usage hash per account and period.
 * ARGV: for each usage hash in KEYS order: its dirty member, the number of endpoints n, then n triples
 *       (endpoint, calls, creditsMicro); credits go to the `<endpoint>#credits` field.
 * Returns how many hashes were touched.
 */
export const ADD_USAGE_SCRIPT: KvScript<number> = {
  name: 'add-usage',
  lua: `
local i = 1
for k = 2, #KEYS do
  local member, n = ARGV[i], tonumber(ARGV[i + 1])
  i = i + 2
  for _ = 1, n do
    local calls, credits = tonumber(ARGV[i + 1]), tonumber(ARGV[i + 2])
    if calls ~= 0 then redis.call('HINCRBY', KEYS[k], ARGV[i], calls) end
    if credits ~= 0 then redis.call('HINCRBY', KEYS[k], ARGV[i] .. '#credits', credits) end
    i = i + 3
  end
  redis.call('PEXPIRE', KEYS[k], ${USAGE_KEY_TTL_MS})
  redis.call('SADD', KEYS[1], member)
end
return #KEYS - 1
`,
  local(data, [usageDirty, ...usageKeys], args) {
    let i = 0;
    for (const key of usageKeys) {
      const member = args[i];
      const n = Number(args[i + 1]);
      i += 2;
      for (let j = 0; j < n; j++, i += 3) {
        const [endpoint, calls, credits] = [args[i], Number(args[i + 1]), Number(args[i + 2])];
        if (calls !== 0) data.hincrBy(key, endpoint, calls);
        if (credits !== 0) data.hincrBy(key, `${endpoint}#credits`, credits);
      }
      data.pexpire(key, USAGE_KEY_TTL_MS);
      data.sadd(usageDirty, member);
    }
    return usageKeys.length;
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
