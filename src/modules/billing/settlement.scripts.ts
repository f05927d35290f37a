import { KvScript } from '../../infra/kv/kv-store';
import { MemoryData } from '../../infra/kv/memory-data';
import { ABANDONED, FAST_REPLY, NEEDS_FULL_ADMIT } from './admission-record';
import { AdmitStatus, BALANCE_OFFSET, balanceField, liveBalanceLocal, LUA_HELPERS, nextSeqLocal } from './admission.scripts';

/**
 * Undoing the charge of one call, once: unless its void record exists, give the cost back to the balance
 * it was taken from (when that balance is still the live one: an operator change or a monthly reset
 * replaced it otherwise) and append a void line, which the ledger flusher cancels the charge with. The
 * line carries the charge's epoch and period, and the balance after the refund or -1 when none was
 * given back (so it never moves a balance it does not belong to).
 * Lua: `void_call(credits, seqKey, outbox, voidKey, requestId, accountId, endpoint, cost, epoch, period, nowMs, voidTtl)`,
 * and `split(text)` for the ',' separated replies the admission records hold.
 */
const VOID_LUA = `
local function split(text)
  local out, start = {}, 1
  while true do
    local stop = string.find(text, ',', start, true)
    if not stop then
      out[#out + 1] = string.sub(text, start)
      return out
    end
    out[#out + 1] = string.sub(text, start, stop - 1)
    start = stop + 1
  end
end
local function void_call(credits, seqKey, outbox, voidKey, requestId, accountId, endpoint, cost, epoch, period, nowMs, voidTtl)
  if not redis.call('SET', voidKey, '1', 'NX', 'PX', voidTtl) then return false end
  local balField = field(epoch, period)
  local after = '-1'
  if redis.call('HEXISTS', credits, balField) == 1 then after = int(redis.call('HINCRBY', credits, balField, cost) - OFFSET) end
  redis.call('RPUSH', outbox, 'void|' .. accountId .. '|' .. requestId .. '|' .. endpoint .. '|' .. int(cost) .. '|' .. after .. '|' ..
    epoch .. '|' .. period .. '|' .. int(next_seq(seqKey)) .. '|' .. nowMs)
  return true
end
`;

interface VoidedCall {
  credits: string;
  seqKey: string;
  outbox: string;
  voidKey: string;
  requestId: string;
  accountId: string;
  endpoint: string;
  cost: number;
  epoch: string;
  period: string;
  nowMs: string;
  voidTtl: number;
}

/** void_call's twin. */
function voidCallLocal(data: MemoryData, v: VoidedCall): boolean {
  if (data.exists(v.voidKey)) return false;
  data.set(v.voidKey, '1', v.voidTtl);
  const balField = balanceField(v.epoch, v.period);
  const after = data.hget(v.credits, balField) === null ? '-1' : String(data.hincrBy(v.credits, balField, v.cost) - BALANCE_OFFSET);
  const seq = nextSeqLocal(data, v.seqKey);
  data.rpush(v.outbox, ['void', v.accountId, v.requestId, v.endpoint, String(v.cost), after, v.epoch, v.period, String(seq), v.nowMs].join('|'));
  return true;
}

/**
 * Voids one call that failed after its admission (a refund): see VOID_LUA. Safe to run again: a second
 * run changes nothing. Returns the live balance afterwards in micro-credits, '-1' when there is none.
 * KEYS: credits, seq, outbox, void record.
 * ARGV: requestId, accountId, endpoint, costMicro, epoch and period of the charge, nowMs, voidTtlMs.
 */
export const VOID_SCRIPT: KvScript<string> = {
  name: 'void',
  lua: `${LUA_HELPERS}${VOID_LUA}
void_call(KEYS[1], KEYS[2], KEYS[3], KEYS[4], ARGV[1], ARGV[2], ARGV[3], tonumber(ARGV[4]), ARGV[5], ARGV[6], ARGV[7], ARGV[8])
local state = redis.call('HMGET', KEYS[1], 'epoch', 'period')
local stored = state[1] and redis.call('HGET', KEYS[1], field(state[1], state[2]))
return stored and int(tonumber(stored) - OFFSET) or '-1'
`,
  local(data, [credits, seqKey, outbox, voidKey], [requestId, accountId, endpoint, cost, epoch, period, nowMs, voidTtl]) {
    voidCallLocal(data, {
      credits,
      seqKey,
      outbox,
      voidKey,
      requestId,
      accountId,
      endpoint,
      cost: Number(cost),
      epoch,
      period,
      nowMs,
      voidTtl: Number(voidTtl),
    });
    const balance = liveBalanceLocal(data, credits);
    return balance === null ? '-1' : String(balance);
  },
};

/** ABANDON_SCRIPT's keys and arguments per call. */
const ABANDON_KEYS = 3;
const ABANDON_ARGS = 6;

/**
 * Gives up on an admission batch whose reply never came (AdmissionService answered its calls 503): marks
 * its record and the records of its calls' full admissions ABANDONED, so that a run still on its way
 * admits nothing, and voids each call that a run before it charged: by the batch's fast script (in the
 * caller's epoch and period) or by the call's full script (in the epoch and period its record names).
 * Safe to run again.
 * KEYS: batch record, seq, outbox, then per call: credits, void record, the call's full-admission record
 * ARGV: recordTtlMs, voidTtlMs, nowMs, then per call: requestId, accountId, endpoint, costMicro, epoch,
 *       period (the balance field the fast script charges)
 * Returns how many calls it voided.
 */
export const ABANDON_SCRIPT: KvScript<number> = {
  name: 'abandon',
  lua: `${LUA_HELPERS}${VOID_LUA}
local function abandon(key)
  local ran = redis.call('GET', key)
  redis.call('SET', key, '${ABANDONED}', 'PX', ARGV[1])
  if ran and ran ~= '${ABANDONED}' then return split(ran) end
  return nil
end
local batch = abandon(KEYS[1])
local voided = 0
for c = 0, (#KEYS - 3) / ${ABANDON_KEYS} - 1 do
  local k, a = 4 + ${ABANDON_KEYS} * c, 4 + ${ABANDON_ARGS} * c
  local cost = tonumber(ARGV[a + 3])
  local status = batch and tonumber(batch[${FAST_REPLY} * c + 1])
  local epoch, period = ARGV[a + 4], ARGV[a + 5]
  if status == ${NEEDS_FULL_ADMIT} then
    local full = abandon(KEYS[k + 2])
    status = full and tonumber(full[1])
    if full then epoch, period = full[4], full[5] end
  end
  if status == ${AdmitStatus.ADMITTED} and cost > 0 and
     void_call(KEYS[k], KEYS[2], KEYS[3], KEYS[k + 1], ARGV[a], ARGV[a + 1], ARGV[a + 2], cost, epoch, period, ARGV[3], ARGV[2]) then
    voided = voided + 1
  end
end
return voided
`,
  local(data, [record, seqKey, outbox, ...callKeys], [recordTtl, voidTtl, nowMs, ...args]) {
    const abandon = (key: string): string[] | null => {
      const ran = data.get(key);
      data.set(key, ABANDONED, Number(recordTtl));
      return ran !== null && ran !== ABANDONED ? ran.split(',') : null;
    };
    const batch = abandon(record);
    let voided = 0;
    for (let c = 0; c < callKeys.length / ABANDON_KEYS; c++) {
      const [credits, voidKey, callRecord] = callKeys.slice(ABANDON_KEYS * c, ABANDON_KEYS * (c + 1));
      const [requestId, accountId, endpoint, cost, callerEpoch, callerPeriod] = args.slice(ABANDON_ARGS * c, ABANDON_ARGS * (c + 1));
      let status = batch ? Number(batch[FAST_REPLY * c]) : null;
      let [epoch, period] = [callerEpoch, callerPeriod];
      if (status === NEEDS_FULL_ADMIT) {
        const full = abandon(callRecord);
        status = full ? Number(full[0]) : null;
        if (full) [epoch, period] = [full[3], full[4]];
      }
      if (status !== AdmitStatus.ADMITTED || Number(cost) <= 0) continue;
      const v = { credits, seqKey, outbox, voidKey, requestId, accountId, endpoint, cost: Number(cost), epoch, period, nowMs, voidTtl: Number(voidTtl) };
      if (voidCallLocal(data, v)) voided += 1;
    }
    return voided;
  },
};
