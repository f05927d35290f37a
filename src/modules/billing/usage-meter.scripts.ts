import { KvScript } from '../../infra/kv/kv-store';
import { CLAIM_BATCH, CLAIM_PREV, CLAIM_SYNCED, CREDITS_FIELD_SUFFIX, USAGE_KEY_TTL_MS } from './usage-meter.format';

/**
 * The usage meters' scripts (key names and layout: usage-meter.format.ts). Flushes add to a meter's live
 * delta `L`; a sync moves it to PostgreSQL through the claim `C`: a delta taken out of `L`, tagged with a
 * fresh batch id (CLAIM_BATCH) and the batch before it on this meter (CLAIM_PREV, '' when the store has no
 * record of one), while it is added to usage_counters (CLAIM_SYNCED '0'); after that just the batch id of
 * the last one added (CLAIM_SYNCED '1'). A meter has at most one claim in flight, so the batches form a
 * chain that PostgreSQL follows: it adds a claim only when the claim's predecessor is the last batch it added.
 */

/**
 * Adds a batch of in-memory usage tallies to the live meters and marks them for the PostgreSQL copy, once:
 * the batch's marker key says it was added, and a second run (its reply was lost, so the flush sends it
 * again) adds nothing.
 * KEYS: the dirty set, the batch's marker, then the live delta of each account and period.
 * ARGV: the marker's TTL, then for each usage hash in KEYS order: its dirty member, the number of endpoints
 *       n, then n triples (endpoint, calls, creditsMicro); credits go to the endpoint's credits field
 *       (usage-meter.format.ts).
 * Returns how many hashes were touched (0 for a batch added before).
 */
export const ADD_USAGE_SCRIPT: KvScript<number> = {
  name: 'add-usage',
  lua: `
if not redis.call('SET', KEYS[2], '1', 'NX', 'PX', ARGV[1]) then return 0 end
local i = 2
for k = 3, #KEYS do
  local member, n = ARGV[i], tonumber(ARGV[i + 1])
  i = i + 2
  for _ = 1, n do
    local calls, credits = tonumber(ARGV[i + 1]), tonumber(ARGV[i + 2])
    if calls ~= 0 then redis.call('HINCRBY', KEYS[k], ARGV[i], calls) end
    if credits ~= 0 then redis.call('HINCRBY', KEYS[k], ARGV[i] .. '${CREDITS_FIELD_SUFFIX}', credits) end
    i = i + 3
  end
  redis.call('PEXPIRE', KEYS[k], ${USAGE_KEY_TTL_MS})
  redis.call('SADD', KEYS[1], member)
end
return #KEYS - 2
`,
  local(data, [usageDirty, marker, ...usageKeys], [markerTtl, ...args]) {
    if (data.exists(marker)) return 0;
    data.set(marker, '1', Number(markerTtl));
    let i = 0;
    for (const key of usageKeys) {
      const member = args[i];
      const n = Number(args[i + 1]);
      i += 2;
      for (let j = 0; j < n; j++, i += 3) {
        const [endpoint, calls, credits] = [args[i], Number(args[i + 1]), Number(args[i + 2])];
        if (calls !== 0) data.hincrBy(key, endpoint, calls);
        if (credits !== 0) data.hincrBy(key, `${endpoint}${CREDITS_FIELD_SUFFIX}`, credits);
      }
      data.pexpire(key, USAGE_KEY_TTL_MS);
      data.sadd(usageDirty, member);
    }
    return usageKeys.length;
  },
};

/** What CLAIM_SCRIPT hands back per meter: [] when there was nothing to move, else the claim's fields flattened. */
export type ClaimReply = string[][];

/**
 * Moves up to ARGV[1] members from the dirty set to the syncing hash in one step, so a replica that dies
 * after taking them leaves them for the next run rather than dropping them.
 * KEYS: usageDirty, usageSyncing. ARGV: count.
 */
export const TAKE_DIRTY_SCRIPT: KvScript<string[]> = {
  name: 'usage-take-dirty',
  lua: `
local members = redis.call('SPOP', KEYS[1], tonumber(ARGV[1]))
for _, member in ipairs(members) do redis.call('HSET', KEYS[2], member, '1') end
return members
`,
  local(data, [dirty, syncing], [count]) {
    const members = data.spop(dirty, Number(count));
    for (const member of members) data.hset(syncing, { [member]: '1' });
    return members;
  },
};

/**
 * Per meter: hands back the claim still in flight if there is one (a crashed run's, or another replica's
 * now: adding it twice is harmless); otherwise moves the live delta into a new claim with the given batch id.
 * A meter with neither leaves the syncing hash.
 * KEYS: usageSyncing, then L and C per meter. ARGV: member and new batch id per meter, then the claim's TTL.
 */
export const CLAIM_SCRIPT: KvScript<ClaimReply> = {
  name: 'usage-claim',
  lua: `
local ttl = ARGV[#ARGV]
local out = {}
for i = 1, (#KEYS - 1) / 2 do
  local live, claim, member = KEYS[2 * i], KEYS[2 * i + 1], ARGV[2 * i - 1]
  local state = redis.call('HMGET', claim, '${CLAIM_SYNCED}', '${CLAIM_BATCH}')
  if state[1] == '0' then
    out[i] = redis.call('HGETALL', claim)
  elseif redis.call('EXISTS', live) == 1 then
    local prev = (state[1] == '1' and state[2]) or ''
    redis.call('DEL', claim)
    redis.call('RENAME', live, claim)
    redis.call('HSET', claim, '${CLAIM_BATCH}', ARGV[2 * i], '${CLAIM_PREV}', prev, '${CLAIM_SYNCED}', '0')
    redis.call('PEXPIRE', claim, ttl)
    redis.call('HSET', KEYS[1], member, '1')
    out[i] = redis.call('HGETALL', claim)
  else
    redis.call('HDEL', KEYS[1], member)
    out[i] = {}
  end
end
return out
`,
  local(data, [syncing, ...meterKeys], args) {
    const ttl = Number(args[args.length - 1]);
    const out: ClaimReply = [];
    for (let i = 0; i < meterKeys.length / 2; i++) {
      const [live, claim, member, batch] = [meterKeys[2 * i], meterKeys[2 * i + 1], args[2 * i], args[2 * i + 1]];
      const synced = data.hget(claim, CLAIM_SYNCED);
      if (synced === '0') {
        out.push(flatten(data.hgetall(claim)));
      } else if (data.exists(live)) {
        const prev = (synced === '1' && data.hget(claim, CLAIM_BATCH)) || '';
        const delta = data.hgetall(live);
        data.del(claim);
        data.del(live);
        data.hset(claim, { ...delta, [CLAIM_BATCH]: batch, [CLAIM_PREV]: prev, [CLAIM_SYNCED]: '0' });
        data.pexpire(claim, ttl);
        data.hset(syncing, { [member]: '1' });
        out.push(flatten(data.hgetall(claim)));
      } else {
        data.hdel(syncing, member);
        out.push([]);
      }
    }
    return out;
  },
};

/**
 * After usage_counters took the claims: each claim still holding that batch keeps only its batch id,
 * marked synced; a meter with no claim in flight and no new delta leaves the syncing hash.
 * KEYS: usageSyncing, then L and C per meter. ARGV: member and batch id per meter, then the claim's TTL.
 */
export const FINALIZE_SCRIPT: KvScript<number> = {
  name: 'usage-finalize',
  lua: `
local ttl = ARGV[#ARGV]
for i = 1, (#KEYS - 1) / 2 do
  local live, claim, member, batch = KEYS[2 * i], KEYS[2 * i + 1], ARGV[2 * i - 1], ARGV[2 * i]
  if redis.call('HGET', claim, '${CLAIM_BATCH}') == batch then
    redis.call('DEL', claim)
    redis.call('HSET', claim, '${CLAIM_BATCH}', batch, '${CLAIM_SYNCED}', '1')
    redis.call('PEXPIRE', claim, ttl)
  end
  if redis.call('HGET', claim, '${CLAIM_SYNCED}') ~= '0' and redis.call('EXISTS', live) == 0 then
    redis.call('HDEL', KEYS[1], member)
  end
end
return (#KEYS - 1) / 2
`,
  local(data, [syncing, ...meterKeys], args) {
    const ttl = Number(args[args.length - 1]);
    for (let i = 0; i < meterKeys.length / 2; i++) {
      const [live, claim, member, batch] = [meterKeys[2 * i], meterKeys[2 * i + 1], args[2 * i], args[2 * i + 1]];
      if (data.hget(claim, CLAIM_BATCH) === batch) {
        data.del(claim);
        data.hset(claim, { [CLAIM_BATCH]: batch, [CLAIM_SYNCED]: '1' });
        data.pexpire(claim, ttl);
      }
      if (data.hget(claim, CLAIM_SYNCED) !== '0' && !data.exists(live)) data.hdel(syncing, member);
    }
    return meterKeys.length / 2;
  },
};

/**
 * Makes a claim still in flight under the given batch id one with no predecessor, for a claim whose
 * predecessor PostgreSQL does not have as its last batch although the claim was never added (PostgreSQL
 * restored from a backup older than the KV store, say): added by its id, it is then added exactly once.
 * A claim already marked synced, or replaced, is left alone (its sender was a stale retry).
 * KEYS: C per meter. ARGV: batch id per meter.
 */
export const REROOT_SCRIPT: KvScript<number> = {
  name: 'usage-reroot',
  lua: `
local n = 0
for i = 1, #KEYS do
  local state = redis.call('HMGET', KEYS[i], '${CLAIM_SYNCED}', '${CLAIM_BATCH}')
  if state[1] == '0' and state[2] == ARGV[i] then
    redis.call('HSET', KEYS[i], '${CLAIM_PREV}', '')
    n = n + 1
  end
end
return n
`,
  local(data, claims, batches) {
    let n = 0;
    claims.forEach((claim, i) => {
      if (data.hget(claim, CLAIM_SYNCED) === '0' && data.hget(claim, CLAIM_BATCH) === batches[i]) {
        data.hset(claim, { [CLAIM_PREV]: '' });
        n += 1;
      }
    });
    return n;
  },
};

/** One meter's live delta and claim, read together. KEYS: L, C. */
export const READ_METER_SCRIPT: KvScript<[string[], string[]]> = {
  name: 'usage-read-meter',
  lua: `return { redis.call('HGETALL', KEYS[1]), redis.call('HGETALL', KEYS[2]) }`,
  local(data, [live, claim]) {
    return [flatten(data.hgetall(live)), flatten(data.hgetall(claim))];
  },
};

/** HGETALL's reply shape (field, value, field, value, ...), as Redis gives it. */
function flatten(hash: Record<string, string>): string[] {
  return Object.entries(hash).flat();
}
