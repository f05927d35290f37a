import { KvArg, KvScript, KvStore } from '../../infra/kv/kv-store';
import { ADMIT_SCRIPT, AdmitReply, AdmitStatus, BALANCE_OFFSET, balanceField, LUA_HELPERS } from './admission.scripts';
import { BillingKeys, WINDOW_KEY_TTL_MS } from './billing-keys';

/** Status of ADMIT_FAST_SCRIPT for a call whose balance is not the caller's current one: run ADMIT_SCRIPT. */
const NEEDS_FULL_ADMIT = 3;
/** ADMIT_FAST_SCRIPT's keys and arguments per call (after the shared ones), and its reply slots per call. */
const FAST_KEYS = 2;
const FAST_ARGS = 4;
const FAST_REPLY = 3;

/**
 * The common case of ADMIT_SCRIPT, for a whole batch of calls (the admissions of one event-loop turn)
 * in one script run: the live balance already belongs to the caller's epoch and period, so there is
 * nothing to seed or reset. Each call counts its window and charges the balance field of its caller's
 * epoch and period (a call over the cap or on a free route only reads it: a paid caller's 429 tells its
 * balance too); when that field does not exist (first call, operator change, new month, a caller
 * older than the stored epoch; see BALANCE_OFFSET) the call is undone, window included, and answered
 * NEEDS_FULL_ADMIT, and admitBatch runs the full script for it.
 * The calls are decided one after the other, exactly as separate scripts would be; the batch only shares
 * what separate runs would each pay for: the script call itself, one read and one write of the ledger
 * sequence, and one RPUSH of all the charge lines. A line is the full script's, byte for byte: node joins
 * its fixed head and the script adds the balance, the epoch and period, the sequence number and the time.
 * KEYS: seq, outbox, then per call: window, credits
 * ARGV: nowMs (the time of every line of the batch), then per call: cap, change (the charge as a
 *       balance change in micro-credits, as text: "-<cost>", "0" for a free route, "" when not metered;
 *       never positive, which would credit the balance: admitBatch makes it from a non-negative cost),
 *       balance field "|epoch|period|", head "charge|account|request|endpoint|-cost|"
 * Reply: per call {status, count, balance ('' when not metered)}; {NEEDS_FULL_ADMIT, 0, ''} undecided.
 * Redis's own work per call is most of what the script costs (`npm run bench:admission-redis`): so the
 * change reaches HINCRBY as the text node sent (Redis 7.0 prints a Lua number argument with "%.17g" first;
 * only the rare give-back of a call it cannot pay still passes a number), and each cap text, one of a
 * handful of tier values, is read as a number once per run.
 */
export const ADMIT_FAST_SCRIPT: KvScript<Array<number | string>> = {
  name: 'admit-fast',
  lua: `${LUA_HELPERS}
local reply, lines, seq, caps = {}, {}, nil, {}
for i = 0, (#KEYS - 2) / ${FAST_KEYS} - 1 do
  local window, credits, a = KEYS[3 + ${FAST_KEYS} * i], KEYS[4 + ${FAST_KEYS} * i], 1 + ${FAST_ARGS} * i
  local capText, change, balField = ARGV[a + 1], ARGV[a + 2], ARGV[a + 3]
  local cap = caps[capText]
  if not cap then
    cap = tonumber(capText)
    caps[capText] = cap
  end
  local status, count, bal = 1, redis.call('INCR', window), ''
  if count == 1 then redis.call('PEXPIRE', window, ${WINDOW_KEY_TTL_MS}) end
  if change == '' then
    if count > cap then status = 0 end
  elseif count > cap or change == '0' then
    -- Nothing to take: a free route, or a call over the cap, which still tells a paid caller its balance.
    local stored = redis.call('HGET', credits, balField)
    if not stored then status = ${NEEDS_FULL_ADMIT}
    else
      bal = int(tonumber(stored) - OFFSET)
      if count > cap then status = 0 end
    end
  else
    local after = redis.call('HINCRBY', credits, balField, change)
    if after >= OFFSET then
      seq = (seq or tonumber(redis.call('GET', KEYS[1]) or '0')) + 1
      bal = int(after - OFFSET)
      lines[#lines + 1] = ARGV[a + 4] .. bal .. balField .. int(seq) .. '|' .. ARGV[1]
    elseif after >= OFFSET / 2 then status, bal = 2, int(redis.call('HINCRBY', credits, balField, -tonumber(change)) - OFFSET)
    else
      redis.call('HDEL', credits, balField)
      status = ${NEEDS_FULL_ADMIT}
    end
  end
  if status == ${NEEDS_FULL_ADMIT} then
    redis.call('DECR', window)
    count = 0
  end
  reply[${FAST_REPLY} * i + 1], reply[${FAST_REPLY} * i + 2], reply[${FAST_REPLY} * i + 3] = status, count, bal
end
if #lines > 0 then
  redis.call('SET', KEYS[1], int(seq))
  redis.call('RPUSH', KEYS[2], unpack(lines))
end
return reply
`,
  local(data, [seqKey, outbox, ...callKeys], [nowMs, ...args]) {
    const reply: Array<number | string> = [];
    for (let i = 0; i < callKeys.length / FAST_KEYS; i++) {
      const [window, credits] = callKeys.slice(FAST_KEYS * i, FAST_KEYS * (i + 1));
      const [cap, change, balField, head] = args.slice(FAST_ARGS * i, FAST_ARGS * (i + 1));
      const cost = -Number(change);
      const decide = (count: number): [number, number, string] => {
        const limited = count > Number(cap);
        if (change === '') return [limited ? AdmitStatus.RATE_LIMITED : AdmitStatus.ADMITTED, count, ''];
        if (limited || change === '0') {
          const stored = data.hget(credits, balField);
          if (stored === null) return [NEEDS_FULL_ADMIT, 0, ''];
          return [limited ? AdmitStatus.RATE_LIMITED : AdmitStatus.ADMITTED, count, String(Number(stored) - BALANCE_OFFSET)];
        }
        const after = data.hincrBy(credits, balField, -cost);
        if (after >= BALANCE_OFFSET) {
          const bal = after - BALANCE_OFFSET;
          data.rpush(outbox, `${head}${bal}${balField}${data.incrBy(seqKey, 1)}|${nowMs}`);
          return [AdmitStatus.ADMITTED, count, String(bal)];
        }
        if (after >= BALANCE_OFFSET / 2) return [AdmitStatus.INSUFFICIENT_CREDITS, count, String(data.hincrBy(credits, balField, cost) - BALANCE_OFFSET)];
        data.hdel(credits, balField);
        return [NEEDS_FULL_ADMIT, 0, ''];
      };
      const count = data.incrBy(window, 1);
      if (count === 1) data.pexpire(window, WINDOW_KEY_TTL_MS);
      const decided = decide(count);
      if (decided[0] === NEEDS_FULL_ADMIT) data.incrBy(window, -1);
      reply.push(...decided);
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
  const args: KvArg[] = [calls[0]?.params.nowMs ?? Date.now()];
  for (const { window, credits, params: p } of calls) {
    keys.push(window, credits);
    const change = p.costMicro < 0 ? '' : String(-p.costMicro);
    args.push(p.cap, change, balanceField(p.epoch, p.period), `charge|${p.accountId}|${p.requestId}|${p.endpoint}|${change}|`);
  }
  const fast = await kv.run(ADMIT_FAST_SCRIPT, keys, args);
  return Promise.all(
    calls.map((call, i): AdmitReply | Promise<AdmitReply> => {
      const status = Number(fast[FAST_REPLY * i]);
      const count = Number(fast[FAST_REPLY * i + 1]);
      const p = call.params;
      if (status === NEEDS_FULL_ADMIT) return admitFull(kv, call);
      if (p.costMicro < 0) return [status, count, '-1', 0, 0];
      return [status, count, String(fast[FAST_REPLY * i + 2]), p.epoch, p.period];
    }),
  );
}

function admitFull(kv: KvStore, { window, credits, params: p }: AdmitCall): Promise<AdmitReply> {
  return kv.run(
    ADMIT_SCRIPT,
    [window, credits, BillingKeys.seq, BillingKeys.outbox],
    [p.cap, p.costMicro, p.seedMicro, p.epoch, p.seedPeriod, p.period, p.quotaMicro, p.requestId, p.accountId, p.endpoint, p.nowMs],
  );
}
