import { KvArg, KvScript, KvStore } from '../../infra/kv/kv-store';
import { ADMISSION_RECORD_TTL_MS, AdmissionRecordKeys, FAST_REPLY, NEEDS_FULL_ADMIT } from './admission-record';
import { ADMIT_SCRIPT, AdmitReply, AdmitStatus, BALANCE_OFFSET, balanceField, LUA_HELPERS, parseAdmitReply, seqBaseLocal } from './admission.scripts';
import { BillingKeys, WINDOW_KEY_TTL_MS } from './billing-keys';

/** ADMIT_FAST_SCRIPT's keys and arguments per call (after the shared ones). */
const FAST_KEYS = 2;
const FAST_ARGS = 4;

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
 * The reply is kept under the batch's record key, and a second run of the batch answers it unchanged
 * (or, for a batch given up on, ABANDONED) without counting or charging anything again.
 * KEYS: seq, outbox, record, then per call: window, credits
 * ARGV: nowMs (the time of every line of the batch), recordTtlMs, then per call: cap, change (the charge
 *       as a balance change in micro-credits, as text: "-<cost>", "0" for a free route, "" when not
 *       metered; never positive, which would credit the balance: admitBatch makes it from a non-negative
 *       cost), balance field "|epoch|period|", head "charge|account|request|endpoint|-cost|"
 * Reply: per call `status,count,balance` ('' balance when not metered; NEEDS_FULL_ADMIT,0, undecided),
 *        all joined with ',', then ',' and the sequence of the batch's last line (0 when it wrote none).
 * Redis's own work per call is most of what the script costs (`npm run bench:admission-redis`): so the
 * change reaches HINCRBY as the text node sent (Redis 7.0 prints a Lua number argument with "%.17g" first;
 * only the rare give-back of a call it cannot pay still passes a number), and each cap text, one of a
 * handful of tier values, is read as a number once per run.
 */
export const ADMIT_FAST_SCRIPT: KvScript<string> = {
  name: 'admit-fast',
  lua: `${LUA_HELPERS}
local done = redis.call('GET', KEYS[3])
if done then return done end
local reply, lines, seq, caps = {}, {}, nil, {}
for i = 0, (#KEYS - 3) / ${FAST_KEYS} - 1 do
  local window, credits, a = KEYS[4 + ${FAST_KEYS} * i], KEYS[5 + ${FAST_KEYS} * i], 2 + ${FAST_ARGS} * i
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
      seq = (seq or seq_base(KEYS[1])) + 1
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
  reply[#reply + 1] = status .. ',' .. count .. ',' .. bal
end
if #lines > 0 then
  redis.call('SET', KEYS[1], int(seq))
  redis.call('RPUSH', KEYS[2], unpack(lines))
end
reply[#reply + 1] = seq and int(seq) or '0'
local text = table.concat(reply, ',')
redis.call('SET', KEYS[3], text, 'PX', ARGV[2])
return text
`,
  local(data, [seqKey, outbox, record, ...callKeys], [nowMs, recordTtl, ...args]) {
    const done = data.get(record);
    if (done !== null) return done;
    const reply: string[] = [];
    let seq: number | null = null;
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
          seq = (seq ?? seqBaseLocal(data, seqKey)) + 1;
          data.set(seqKey, String(seq));
          data.rpush(outbox, `${head}${bal}${balField}${seq}|${nowMs}`);
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
      reply.push(decided.join(','));
    }
    reply.push(String(seq ?? 0));
    const text = reply.join(',');
    data.set(record, text, Number(recordTtl));
    return text;
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
  /** False for a call that is counted in its window but never charged (a HEAD, an unrouted request). */
  billable: boolean;
}

/** The per-call keys of both admission scripts (the ledger sequence and outbox are shared). */
export interface AdmitCall {
  window: string;
  credits: string;
  params: AdmitParams;
}

/** An account's credit columns as PostgreSQL holds them now, in micro-credits: what a balance is seeded from. */
export interface CreditSeed {
  balanceMicro: string;
  epoch: number;
  period: number;
}

/**
 * Reads an account's seed from PostgreSQL for ADMIT_SCRIPT; `fence` when the KV store holds no billing
 * generation (new, or its data lost), so drains that started before must be stopped first (CreditSeeds).
 */
export type SeedReader = (accountId: string, fence: boolean) => Promise<CreditSeed>;

/** ADMIT_FAST_SCRIPT's reply text: per call [status, count, balance], and the sequence of its last line. */
export function parseFastReply(text: string, calls: number): { decided: Array<[number, number, string]>; seq: number } {
  const f = text.split(',');
  const decided: Array<[number, number, string]> = new Array(calls);
  for (let i = 0; i < calls; i++) decided[i] = [Number(f[FAST_REPLY * i]), Number(f[FAST_REPLY * i + 1]), f[FAST_REPLY * i + 2]];
  return { decided, seq: Number(f[FAST_REPLY * calls] ?? 0) };
}

/**
 * The admissions of a batch of calls: one run of the fast script for all of them, and the full one for
 * each call the fast one cannot decide (about once per account and month on a replica, and once per
 * account after the KV store lost its data). A call gets the same AdmitReply either way. Every script
 * keeps its reply under the batch's id (admission-record.ts), so running the batch again after a lost
 * reply answers the same and charges nothing twice. A batch given up on answers null.
 */
export async function admitBatch(kv: KvStore, batchId: string, calls: readonly AdmitCall[], seeds: SeedReader): Promise<AdmitReply[] | null> {
  const keys: string[] = [BillingKeys.seq, BillingKeys.outbox, AdmissionRecordKeys.batch(batchId)];
  const args: KvArg[] = [calls[0]?.params.nowMs ?? Date.now(), ADMISSION_RECORD_TTL_MS];
  for (const { window, credits, params: p } of calls) {
    keys.push(window, credits);
    const change = p.costMicro < 0 ? '' : String(-p.costMicro);
    args.push(p.cap, change, balanceField(p.epoch, p.period), `charge|${p.accountId}|${p.requestId}|${p.endpoint}|${change}|`);
  }
  const text = await kv.run(ADMIT_FAST_SCRIPT, keys, args);
  if (!/^\d/.test(text)) return null;
  const { decided, seq } = parseFastReply(text, calls.length);
  return Promise.all(
    calls.map((call, i): AdmitReply | Promise<AdmitReply | null> => {
      const [status, count, balance] = decided[i];
      const p = call.params;
      if (status === NEEDS_FULL_ADMIT) return admitFull(kv, AdmissionRecordKeys.call(batchId, i), call, seeds);
      if (p.costMicro < 0) return [status, count, '-1', 0, 0, 0];
      return [status, count, balance, p.epoch, p.period, status === AdmitStatus.ADMITTED && p.costMicro > 0 ? seq : 0];
    }),
  ).then((replies) => (replies.includes(null) ? null : (replies as AdmitReply[])));
}

/** The full script for one call; first with the caller's cached seed, again with PostgreSQL's when the script asks for it. */
async function admitFull(kv: KvStore, record: string, { window, credits, params: p }: AdmitCall, seeds: SeedReader): Promise<AdmitReply | null> {
  const keys = [window, credits, BillingKeys.seq, BillingKeys.outbox, record, AdmissionRecordKeys.generation];
  const run = (seed: CreditSeed, fresh: boolean) =>
    kv.run(ADMIT_SCRIPT, keys, [
      p.cap,
      p.costMicro,
      seed.balanceMicro,
      seed.epoch,
      seed.period,
      p.period,
      p.quotaMicro,
      p.requestId,
      p.accountId,
      p.endpoint,
      p.nowMs,
      fresh ? '1' : '0',
      ADMISSION_RECORD_TTL_MS,
    ]);
  let text = await run({ balanceMicro: p.seedMicro, epoch: p.epoch, period: p.seedPeriod }, false);
  let parsed = parseReply(text);
  if ('needsSeed' in parsed) {
    let seed: CreditSeed;
    try {
      seed = await seeds(p.accountId, !parsed.generationKnown);
    } catch {
      // The script wrote nothing for this call: it alone fails, the rest of its batch goes on.
      return [AdmitStatus.UNAVAILABLE, 0, '-1', 0, 0, 0];
    }
    text = await run(seed, true);
    parsed = parseReply(text);
  }
  return 'reply' in parsed ? parsed.reply : null;
}

function parseReply(text: string): ReturnType<typeof parseAdmitReply> | { abandoned: true } {
  return /^\d/.test(text) ? parseAdmitReply(text) : { abandoned: true };
}
