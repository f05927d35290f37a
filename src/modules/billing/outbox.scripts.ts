import { KvScript } from '../../infra/kv/kv-store';
import { MemoryData } from '../../infra/kv/memory-data';

/** Raises the drained watermark (the highest ledger sequence PostgreSQL has from this outbox), never lowers it. */
const RAISE_DRAINED_LUA = `
local function raise_drained(key, seq)
  local n = tonumber(seq)
  if n and tonumber(redis.call('GET', key) or '0') < n then redis.call('SET', key, seq) end
end
`;

function raiseDrainedLocal(data: MemoryData, key: string, seq: string): void {
  const n = Number(seq);
  if (seq !== '' && !Number.isNaN(n) && Number(data.get(key) ?? '0') < n) data.set(key, seq);
}

/**
 * Removes the first `count` outbox lines only if the head still is what the caller read (first and last
 * line): a drainer whose lease expired mid-batch cannot trim lines another drainer has not written yet.
 * Then every line up to the batch's last sequence is in PostgreSQL: the drained watermark rises to it
 * (the outbox holds lines in sequence order: each script numbers and appends its lines in one step).
 * KEYS: outbox, drained. ARGV: count, firstLine, lastLine, lastSeq. Returns 1 when trimmed.
 */
export const TRIM_OUTBOX_HEAD_SCRIPT: KvScript<number> = {
  name: 'trim-outbox-head',
  lua: `${RAISE_DRAINED_LUA}
local n = tonumber(ARGV[1])
if redis.call('LINDEX', KEYS[1], 0) ~= ARGV[2] or redis.call('LINDEX', KEYS[1], n - 1) ~= ARGV[3] then return 0 end
redis.call('LTRIM', KEYS[1], n, -1)
raise_drained(KEYS[2], ARGV[4])
return 1
`,
  local(data, [outbox, drained], [count, first, last, lastSeq]) {
    const n = Number(count);
    const head = data.lrange(outbox, 0, n - 1);
    if (head.length !== n || head[0] !== first || head[n - 1] !== last) return 0;
    data.ltrim(outbox, n, -1);
    raiseDrainedLocal(data, drained, lastSeq);
    return 1;
  },
};

/**
 * An empty outbox means every line numbered so far is in PostgreSQL (or was lost with the store's data):
 * the drained watermark rises to the current sequence. Returns the watermark ('0' when there is none).
 * KEYS: outbox, seq, drained.
 */
export const MARK_DRAINED_SCRIPT: KvScript<string> = {
  name: 'mark-drained',
  lua: `${RAISE_DRAINED_LUA}
if redis.call('LLEN', KEYS[1]) == 0 then raise_drained(KEYS[3], redis.call('GET', KEYS[2]) or '0') end
return redis.call('GET', KEYS[3]) or '0'
`,
  local(data, [outbox, seqKey, drained]) {
    if (data.llen(outbox) === 0) raiseDrainedLocal(data, drained, data.get(seqKey) ?? '0');
    return data.get(drained) ?? '0';
  },
};

/**
 * Raises the ledger sequence to at least `floor` (the highest sequence PostgreSQL has folded into an
 * account): the fold only moves a balance for a newer sequence. The scripts already number above the
 * store's clock; this covers a store whose clock is behind the one that numbered the folded lines.
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
