import { KvArg, KvScript, KvStore } from '../../infra/kv/kv-store';
import { MemoryData } from '../../infra/kv/memory-data';
import { BillingKeys, USAGE_KEY_TTL_MS, WINDOW_KEY_TTL_MS } from './billing-keys';

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

/** Status of ADMIT_FAST_SCRIPT for a call whose balance is not the caller's current one: run ADMIT_SCRIPT. */
const NEEDS_FULL_ADMIT = 3;
/** ADMIT_FAST_SCRIPT's keys and arguments per call, and the slots of its reply per call. */
const FAST_KEYS = 2;
const FAST_ARGS = 6;
const FAST_REPLY = 3;

/**
 * The common case of ADMIT_SCRIPT, for a whole batch of calls (the admissions of one event-loop turn)
 * in one script run: the live balance already belongs to the caller's epoch and period (the `ep` field
 * the full script keeps), so there is nothing to seed or reset and nothing to read before the charge.
 * A call for anything else (first call, operator change, new month, a caller older than the stored
 * epoch) is answered NEEDS_FULL_ADMIT before it touches a key, and admitBatch runs the full script for it.
 * The calls are decided one after the other, exactly as separate scripts would be; the batch only shares
 * what separate runs would each pay for: the script call itself, one read and one write of the ledger
 * sequence, and one RPUSH of all the charge lines. A line is the full script's, byte for byte: node joins
 * its fixed parts (head, mid) and the script puts the balance and the sequence number between them.
 * It relies on `ep` and `bal` living and dying together: only the full script writes `ep`, always in the
 * same HSET as `bal`, and nothing deletes one field without the other.
 * KEYS: seq, outbox, then per call: window, credits
 * ARGV: per call: cap, costMicro (-1: not metered), "epoch:period", head "charge|account|request|endpoint|-cost|",
 *       mid "|epoch|period|", nowMs
 * Reply: per call {status, count, balance ('' when not metered)}; {NEEDS_FULL_ADMIT, 0, ''} undecided.
 */
export const ADMIT_FAST_SCRIPT: KvScript<Array<number | string>> = {
  name: 'admit-fast',
  lua: `${LUA_HELPERS}
local reply, lines, seq = {}, {}, nil
for i = 0, (#KEYS - 2) / ${FAST_KEYS} - 1 do
  local window, credits, a = KEYS[3 + ${FAST_KEYS} * i], KEYS[4 + ${FAST_KEYS} * i], ${FAST_ARGS} * i
  local cost = tonumber(ARGV[a + 2])
  local status, count, bal = ${NEEDS_FULL_ADMIT}, 0, ''
  if cost < 0 or redis.call('HGET', credits, 'ep') == ARGV[a + 3] then
    count = redis.call('INCR', window)
    if count == 1 then redis.call('PEXPIRE', window, ${WINDOW_KEY_TTL_MS}) end
    if count > tonumber(ARGV[a + 1]) then status = 0
    elseif cost < 0 then status = 1
    elseif cost == 0 then status, bal = 1, redis.call('HGET', credits, 'bal') or ''
    else
      local after = redis.call('HINCRBY', credits, 'bal', -cost)
      if after < 0 then status, bal = 2, int(redis.call('HINCRBY', credits, 'bal', cost))
      else
        seq = (seq or tonumber(redis.call('GET', KEYS[1]) or '0')) + 1
        status, bal = 1, int(after)
        lines[#lines + 1] = ARGV[a + 4] .. bal .. ARGV[a + 5] .. int(seq) .. '|' .. ARGV[a + 6]
      end
    end
  end
  reply[${FAST_REPLY} * i + 1], reply[${FAST_REPLY} * i + 2], reply[${FAST_REPLY} * i + 3] = status, count, bal
end
if #lines > 0 then
  redis.call('SET', KEYS[1], int(seq))
  redis.call('RPUSH', KEYS[2], unpack(lines))
end
return reply
`,
  local(data, [seqKey, outbox, ...callKeys], args) {
    const reply: Array<number | string> = [];
    for (let i = 0; i < callKeys.length / FAST_KEYS; i++) {
      const [window, credits] = callKeys.slice(FAST_KEYS * i, FAST_KEYS * (i + 1));
      const [cap, costArg, ep, head, mid, nowMs] = args.slice(FAST_ARGS * i, FAST_ARGS * (i + 1));
      const cost = Number(costArg);
      const decide = (): [number, number, string] => {
        if (cost >= 0 && data.hget(credits, 'ep') !== ep) return [NEEDS_FULL_ADMIT, 0, ''];
        const count = data.incrBy(window, 1);
        if (count === 1) data.pexpire(window, WINDOW_KEY_TTL_MS);
        if (count > Number(cap)) return [AdmitStatus.RATE_LIMITED, count, ''];
        if (cost < 0) return [AdmitStatus.ADMITTED, count, ''];
        if (cost === 0) return [AdmitStatus.ADMITTED, count, data.hget(credits, 'bal') ?? ''];
        const bal = data.hincrBy(credits, 'bal', -cost);
        if (bal < 0) return [AdmitStatus.INSUFFICIENT_CREDITS, count, String(data.hincrBy(credits, 'bal', cost))];
        data.rpush(outbox, `${head}${bal}${mid}${data.incrBy(seqKey, 1)}|${nowMs}`);
        return [AdmitStatus.ADMITTED, count, String(bal)];
      };
      reply.push(...decide());
    }
    return reply;
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

/** The per-call keys of both admission scripts (the ledger sequence and outbox are shared). */
export interface AdmitCall {
  window: string;
  credits: string;
  params: AdmitParams;
}

/**
 * The admissions of a batch of calls: one run of the fast script for all of them, and the full one for
 * each call the fast one cannot decide (about once per account and month on a replica). A call gets the
 * same AdmitReply either way.
 */
export async function admitBatch(kv: KvStore, calls: readonly AdmitCall[]): Promise<AdmitReply[]> {
  const keys: string[] = [BillingKeys.seq, BillingKeys.outbox];
  const args: KvArg[] = [];
  for (const { window, credits, params: p } of calls) {
    keys.push(window, credits);
    args.push(p.cap, p.costMicro, `${p.epoch}:${p.period}`, `charge|${p.accountId}|${p.requestId}|${p.endpoint}|${-p.costMicro}|`, `|${p.epoch}|${p.period}|`, p.nowMs);
  }
  const fast = await kv.run(ADMIT_FAST_SCRIPT, keys, args);
  return Promise.all(
    calls.map((call, i): AdmitReply | Promise<AdmitReply> => {
      const status = Number(fast[FAST_REPLY * i]);
      const count = Number(fast[FAST_REPLY * i + 1]);
      const p = call.params;
      if (status === NEEDS_FULL_ADMIT) return admitFull(kv, call);
      if (p.costMicro < 0 || status === AdmitStatus.RATE_LIMITED) return [status, count, '-1', 0, 0];
      return [status, count, String(fast[FAST_REPLY * i + 2]), p.epoch, p.period];
    }),
  );
}

function admitFull(kv: KvStore, { window, credits, params: p }: AdmitCall): Promise<AdmitReply> {
  return kv.run(ADMIT_SCRIPT, [window, credits, BillingKeys.seq, BillingKeys.outbox], [
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
