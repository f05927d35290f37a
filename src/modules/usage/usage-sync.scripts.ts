import { KvScript } from '../../infra/kv/kv-store';

/**
 * The KV side of moving usage deltas to PostgreSQL. Per meter (account and period) there are two hashes:
 * the live delta `L` that flushes add to, and the claim `C`: a delta taken out of `L`, tagged with a fresh
 * batch id (`#batch`) and the batch before it on this meter (`#prev`, '' when the store has no record of
 * one), while it is added to usage_counters (`#synced` '0'); after that just the batch id of the last one
 * added (`#synced` '1'). A meter has at most one claim in flight, so the batches form a chain that
 * PostgreSQL follows: it adds a claim only when the claim's predecessor is the last batch it added.
 */

/** Field names of a claim that are not endpoint counts (endpoint names never start with '#'). */
export const CLAIM_BATCH = '#batch';
export const CLAIM_PREV = '#prev';
export const CLAIM_SYNCED = '#synced';

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

/** The reverse of flatten. */
export function unflatten(fields: string[]): Record<string, string> {
  const hash: Record<string, string> = {};
  for (let i = 0; i + 1 < fields.length; i += 2) hash[fields[i]] = fields[i + 1];
  return hash;
}
