import { ADMISSION_RECORD_TTL_MS, AdmissionRecordKeys, VOID_RECORD_TTL_MS } from '../../src/modules/billing/admission-record';
import {
  ADMIT_SCRIPT,
  AdmitReply,
  AdmitStatus,
  BALANCE_OFFSET,
  balanceField,
  parseAdmitReply,
  READ_BALANCE_SCRIPT,
} from '../../src/modules/billing/admission.scripts';
import { ADMIT_FAST_SCRIPT, admitBatch, parseFastReply, AdmitCall as ScriptCall } from '../../src/modules/billing/admit-batch';
import { RAISE_SEQ_FLOOR_SCRIPT } from '../../src/modules/billing/outbox.scripts';
import { VOID_SCRIPT } from '../../src/modules/billing/settlement.scripts';
import { BillingKeys, WINDOW_KEY_TTL_MS, WINDOW_MS } from '../../src/modules/billing/billing-keys';
import { USAGE_ADD_RECORD_TTL_MS, USAGE_KEY_TTL_MS, UsageMeterKeys } from '../../src/modules/billing/usage-meter.format';
import { ADD_USAGE_SCRIPT } from '../../src/modules/billing/usage-meter.scripts';
import { parseLedgerEntry } from '../../src/modules/billing/ledger-entry';
import { KvScript, KvStore } from '../../src/infra/kv/kv-store';
import { MemoryData } from '../../src/infra/kv/memory-data';
import { MemoryKvStore } from '../../src/infra/kv/memory-kv.store';
import { RedisKvStore } from '../../src/infra/kv/redis-kv.store';
import { SPEND_WEIGHT_SCRIPT, SpendReply } from '../../src/providers/kit/request-budget';
import { ledgerLine } from '../support/ledger-lines';
import { uniqueKeyPrefix } from '../support/test-env';

/**
 * Every script has a Lua body and a JavaScript twin; each test below runs unchanged against real Redis
 * and the in-process store and expects the very same replies, so a divergence fails on one of the two.
 */

const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
const T0 = Date.UTC(2027, 0, 15, 12, 0, 0);
const ENDPOINT = 'hl.perp.holders';
const ACCOUNT = '0b9f3c2e-5d1a-4c6e-9f00-1a2b3c4d5e6f';
/** Request ids are UUIDs, as the ledger (and parseLedgerEntry) require of a charge's reference. */
const req = (n: number) => `019aa8f2-0000-7000-8000-${String(n).padStart(12, '0')}`;

/** What a test needs from a store beyond the KvStore interface: a clean slate, time passing, and TTL checks. */
interface StoreHarness {
  fresh(): Promise<KvStore>;
  /** Lets `ms` pass: real time on Redis, the injected clock in memory. */
  elapse(ms: number): Promise<void>;
  /** The key expires within `ms` (Redis: 0 < PTTL <= ms; memory: alive at ms - 1, gone at ms). */
  expectLease(key: string, ms: number): Promise<void>;
  /** The key has no expiry at all. */
  expectNoLease(key: string): Promise<void>;
  close(): Promise<void>;
}

function makeRedis(): StoreHarness {
  const prefix = uniqueKeyPrefix();
  const store = RedisKvStore.connect(REDIS_URL, prefix);
  // KEYS and the script's own DEL take raw names, so the prefix is spelled out here.
  const wipe = () => store.client.eval(`for _, k in ipairs(redis.call('KEYS', ARGV[1])) do redis.call('DEL', k) end`, 0, `${prefix}*`);
  return {
    fresh: async () => {
      await wipe();
      return store;
    },
    elapse: (ms) => new Promise((resolve) => setTimeout(resolve, ms + 25)),
    expectLease: async (key, ms) => {
      const pttl = await store.client.pttl(key);
      expect(pttl).toBeGreaterThan(0);
      expect(pttl).toBeLessThanOrEqual(ms);
    },
    expectNoLease: async (key) => {
      expect(await store.client.pttl(key)).toBe(-1);
    },
    close: async () => {
      await wipe();
      await store.close();
    },
  };
}

function makeMemory(): StoreHarness {
  let now = T0;
  let data = new MemoryData(() => now);
  return {
    fresh: async () => {
      now = T0;
      data = new MemoryData(() => now);
      return new MemoryKvStore(data);
    },
    elapse: async (ms) => {
      now += ms + 1;
    },
    expectLease: async (key, ms) => {
      const start = now;
      now = start + ms - 1;
      expect(data.exists(key)).toBe(true);
      now = start + ms;
      expect(data.exists(key)).toBe(false);
    },
    expectNoLease: async (key) => {
      now += 10 * 365 * 24 * 3600 * 1000;
      expect(data.exists(key)).toBe(true);
    },
    close: async () => undefined,
  };
}

/** KvStore has no RPUSH or HSET of its own; the tests fill lists and hashes through this script. */
const TEST_RPUSH: KvScript<number> = {
  name: 'test-rpush',
  lua: `return redis.call('RPUSH', KEYS[1], unpack(ARGV))`,
  local: (data, [key], values) => data.rpush(key, ...values),
};
const TEST_HSET: KvScript<number> = {
  name: 'test-hset',
  lua: `redis.call('HSET', KEYS[1], unpack(ARGV)) return 1`,
  local: (data, [key], pairs) => {
    for (let i = 0; i < pairs.length; i += 2) data.hset(key, { [pairs[i]]: pairs[i + 1] });
    return 1;
  },
};

interface AdmitCall {
  requestId: string;
  keyId?: string;
  accountId?: string;
  cap?: number;
  metered?: boolean;
  costMicro?: number;
  seedMicro?: string;
  epoch?: number;
  seedPeriod?: number;
  period?: number;
  quotaMicro?: string;
  endpoint?: string;
  nowMs?: number;
}

const ADMIT_DEFAULTS = {
  keyId: 'key-1',
  accountId: ACCOUNT,
  cap: 100,
  metered: true,
  costMicro: 1_000_000,
  seedMicro: '5000000',
  epoch: 1,
  seedPeriod: 0,
  period: 0,
  quotaMicro: '20000000',
  endpoint: ENDPOINT,
  nowMs: T0,
};

/** A test call as AdmissionService.admit hands it to admitBatch. */
function scriptCall(call: AdmitCall): ScriptCall {
  const c = { ...ADMIT_DEFAULTS, ...call };
  return {
    window: BillingKeys.window(c.keyId, Math.floor(c.nowMs / WINDOW_MS)),
    credits: BillingKeys.credits(c.accountId),
    params: {
      cap: c.cap,
      costMicro: c.metered ? c.costMicro : -1,
      seedMicro: c.seedMicro,
      epoch: c.epoch,
      seedPeriod: c.seedPeriod,
      period: c.period,
      quotaMicro: c.quotaMicro,
      requestId: c.requestId,
      accountId: c.accountId,
      endpoint: c.endpoint,
      nowMs: c.nowMs,
      billable: true,
    },
  };
}

/** An AdmitReply without its ledger sequence, which follows the clock (Redis' own on Redis). */
type Decided = [AdmitStatus, number, string, number, number];
const decided = (reply: AdmitReply): Decided => reply.slice(0, 5) as Decided;

let batches = 0;
/** A batch id no other test uses: each admission is a batch of its own unless a test says otherwise. */
const newBatchId = () => `test-${process.pid}-${batches++}`;
/** The seed reader of a test call: PostgreSQL's balance is the call's seedMicro, epoch and seedPeriod. */
const seedOf = (call: AdmitCall) => {
  const c = { ...ADMIT_DEFAULTS, ...call };
  return async () => ({ balanceMicro: c.seedMicro, epoch: c.epoch, period: c.seedPeriod });
};

/** One call alone, as AdmissionService.admit makes it: the fast script, and the full one when it must. */
async function admitWithSeq(kv: KvStore, call: AdmitCall): Promise<AdmitReply> {
  const [reply] = (await admitBatch(kv, newBatchId(), [scriptCall(call)], seedOf(call)))!;
  return reply;
}

async function admit(kv: KvStore, call: AdmitCall): Promise<Decided> {
  return decided(await admitWithSeq(kv, call));
}

function admitKeys(c: { keyId: string; accountId: string; nowMs: number }, record: string): string[] {
  return [
    BillingKeys.window(c.keyId, Math.floor(c.nowMs / WINDOW_MS)),
    BillingKeys.credits(c.accountId),
    BillingKeys.seq,
    BillingKeys.outbox,
    record,
    AdmissionRecordKeys.generation,
  ];
}

/** The full script alone with a fresh seed, as admitBatch runs it when the fast one cannot decide. */
async function admitFull(kv: KvStore, call: AdmitCall, record = AdmissionRecordKeys.call(newBatchId(), 0)): Promise<Decided> {
  const c = { ...ADMIT_DEFAULTS, ...call };
  const text = await kv.run(ADMIT_SCRIPT, admitKeys(c, record), [
    c.cap,
    c.metered ? c.costMicro : -1,
    c.seedMicro,
    c.epoch,
    c.seedPeriod,
    c.period,
    c.quotaMicro,
    c.requestId,
    c.accountId,
    c.endpoint,
    c.nowMs,
    '1',
    ADMISSION_RECORD_TTL_MS,
  ]);
  const parsed = parseAdmitReply(text);
  if (!('reply' in parsed)) throw new Error(`unexpected reply ${text}`);
  return decided(parsed.reply);
}

/** Keys and arguments in the order AdmissionService.settleFailure passes them; epoch and period come from the admit reply. */
function refund(
  kv: KvStore,
  reply: Decided | AdmitReply,
  { requestId, costMicro = 1_000_000, nowMs = T0 + 500 }: { requestId: string; costMicro?: number; nowMs?: number },
) {
  return kv.run(
    VOID_SCRIPT,
    [BillingKeys.credits(ACCOUNT), BillingKeys.seq, BillingKeys.outbox, AdmissionRecordKeys.void(requestId)],
    [requestId, ACCOUNT, ENDPOINT, costMicro, reply[3], reply[4], nowMs, VOID_RECORD_TTL_MS],
  );
}

/** The fast script with its keys and arguments spelled out, for tests of what it does alone; its reply decoded. */
async function fastScript(
  kv: KvStore,
  { window, cap, change, field, head = 'charge|x|' }: { window: string; cap: number; change: string; field: string; head?: string },
) {
  const text = await kv.run(
    ADMIT_FAST_SCRIPT,
    [BillingKeys.seq, BillingKeys.outbox, AdmissionRecordKeys.batch(newBatchId()), window, BillingKeys.credits(ACCOUNT)],
    [T0, ADMISSION_RECORD_TTL_MS, cap, change, field, head],
  );
  return parseFastReply(text, 1).decided[0];
}

/**
 * The live balance of an account as {bal, epoch, period}, decoded from its credits hash ({} when it has
 * none); the hash must hold exactly the stored epoch, period and that epoch and period's balance field.
 */
async function credits(kv: KvStore, account: string): Promise<Record<string, string>> {
  const { epoch, period, ...balances } = await kv.hgetall(BillingKeys.credits(account));
  if (epoch === undefined) return balances;
  const field = balanceField(epoch, period);
  expect(Object.keys(balances)).toEqual([field]);
  return { bal: String(Number(balances[field]) - BALANCE_OFFSET), epoch, period };
}

const WEIGHT_WINDOW = 'budget:hyperliquid:0';
const HISTORY_WINDOW = 'budget:hyperliquid:history:0';
const WEIGHT_TTL_MS = 120_000;

/** One spend of the Hyperliquid weight budget: a whole cap of 100 and a history share of 25 unless told otherwise. */
function spendWeight(kv: KvStore, weight: number, { history = false, force = false, cap = 100, historyCap = 25 } = {}): Promise<SpendReply> {
  const keys = history ? [WEIGHT_WINDOW, HISTORY_WINDOW] : [WEIGHT_WINDOW];
  return kv.run(SPEND_WEIGHT_SCRIPT, keys, [weight, cap, WEIGHT_TTL_MS, force ? '1' : '0', historyCap]);
}

async function outbox(kv: KvStore) {
  return (await kv.lrange(BillingKeys.outbox, 0, -1)).map((line) => line.split('|'));
}

describe.each([
  ['redis', makeRedis],
  ['memory', makeMemory],
])('scripts and basics on the %s store', (_kind, make) => {
  const harness = make();
  let sut: KvStore;

  beforeEach(async () => {
    sut = await harness.fresh();
  });
  afterAll(() => harness.close());

  describe('ADMIT_SCRIPT', () => {
    it('admits calls up to the cap, then limits with status 0 while still counting the window', async () => {
      const replies: Decided[] = [];
      for (let i = 1; i <= 5; i++) replies.push(await admit(sut, { requestId: `req-${i}`, cap: 3, metered: false }));

      expect(replies).toEqual([
        [AdmitStatus.ADMITTED, 1, '-1', 0, 0],
        [AdmitStatus.ADMITTED, 2, '-1', 0, 0],
        [AdmitStatus.ADMITTED, 3, '-1', 0, 0],
        [AdmitStatus.RATE_LIMITED, 4, '-1', 0, 0],
        [AdmitStatus.RATE_LIMITED, 5, '-1', 0, 0],
      ]);
    });

    it('limits a paid call over the cap without charging it, and still answers its balance', async () => {
      // The first call of the account is already over the cap: the full script seeds the balance but takes nothing.
      expect(await admit(sut, { requestId: req(1), seedMicro: '5000000', cap: 0 })).toEqual([AdmitStatus.RATE_LIMITED, 1, '5000000', 1, 0]);
      expect(await admit(sut, { requestId: req(2), cap: 2 })).toEqual([AdmitStatus.ADMITTED, 2, '4000000', 1, 0]);
      // The fast script's answer over the cap: the live balance, as the 429's X-Credits-Remaining.
      expect(await admit(sut, { requestId: req(3), cap: 2 })).toEqual([AdmitStatus.RATE_LIMITED, 3, '4000000', 1, 0]);
      expect(await admitFull(sut, { requestId: req(4), cap: 2 })).toEqual([AdmitStatus.RATE_LIMITED, 4, '4000000', 1, 0]);
      expect(await credits(sut, ACCOUNT)).toEqual({ bal: '4000000', epoch: '1', period: '0' });
      expect((await outbox(sut)).map((f) => f[2])).toEqual([req(2)]);
    });

    it('counts each minute in its own window', async () => {
      await admit(sut, { requestId: req(1), cap: 1, metered: false });

      expect(await admit(sut, { requestId: req(2), cap: 1, metered: false, nowMs: T0 + WINDOW_MS })).toEqual([AdmitStatus.ADMITTED, 1, '-1', 0, 0]);
    });

    it('gives the window key a lease of WINDOW_KEY_TTL_MS', async () => {
      await admit(sut, { requestId: req(1), metered: false });

      await harness.expectLease(BillingKeys.window('key-1', Math.floor(T0 / WINDOW_MS)), WINDOW_KEY_TTL_MS);
    });

    it('answers an unmetered call with balance -1 and touches neither credits nor the ledger', async () => {
      expect(await admit(sut, { requestId: req(1), metered: false })).toEqual([AdmitStatus.ADMITTED, 1, '-1', 0, 0]);

      expect(await credits(sut, ACCOUNT)).toEqual({});
      expect(await sut.llen(BillingKeys.outbox)).toBe(0);
    });

    it('seeds an absent balance from seedBal, deducts the cost and appends the charge to the outbox', async () => {
      expect(await admit(sut, { requestId: req(1), seedMicro: '5000000', costMicro: 1_000_000 })).toEqual([AdmitStatus.ADMITTED, 1, '4000000', 1, 0]);

      expect(await credits(sut, ACCOUNT)).toEqual({ bal: '4000000', epoch: '1', period: '0' });
      expect((await sut.lrange(BillingKeys.outbox, 0, -1)).map(parseLedgerEntry)).toEqual([
        {
          type: 'charge',
          accountId: ACCOUNT,
          referenceId: req(1),
          endpoint: ENDPOINT,
          amountMicro: '-1000000',
          balanceAfterMicro: '4000000',
          epoch: 1,
          period: 0,
          seq: expect.any(Number),
          atMs: T0,
        },
      ]);
    });

    it('charges nothing and writes no ledger line for a metered call that costs 0, but answers the balance', async () => {
      expect(await admit(sut, { requestId: req(1), seedMicro: '5000000', costMicro: 0 })).toEqual([AdmitStatus.ADMITTED, 1, '5000000', 1, 0]);

      expect(await sut.llen(BillingKeys.outbox)).toBe(0);
    });

    it('keeps the live balance over seedBal while the epoch is unchanged', async () => {
      await admit(sut, { requestId: req(1), seedMicro: '5000000' });

      expect(await admit(sut, { requestId: req(2), seedMicro: '9000000' })).toEqual([AdmitStatus.ADMITTED, 2, '3000000', 1, 0]);
    });

    it('refuses with status 2 when the balance is below the cost, without deducting or writing a charge', async () => {
      expect(await admit(sut, { requestId: req(1), seedMicro: '500000', costMicro: 1_000_000 })).toEqual([AdmitStatus.INSUFFICIENT_CREDITS, 1, '500000', 1, 0]);

      expect(await credits(sut, ACCOUNT)).toEqual({ bal: '500000', epoch: '1', period: '0' });
      expect(await sut.llen(BillingKeys.outbox)).toBe(0);
    });

    it('admits a call that spends the balance down to exactly zero', async () => {
      expect(await admit(sut, { requestId: req(1), seedMicro: '1000000', costMicro: 1_000_000 })).toEqual([AdmitStatus.ADMITTED, 1, '0', 1, 0]);
    });

    it('re-seeds the balance when the operator epoch grows', async () => {
      await admit(sut, { requestId: req(1), epoch: 1, seedMicro: '5000000' });

      expect(await admit(sut, { requestId: req(2), epoch: 2, seedMicro: '10000000' })).toEqual([AdmitStatus.ADMITTED, 2, '9000000', 2, 0]);
      expect(await credits(sut, ACCOUNT)).toEqual({ bal: '9000000', epoch: '2', period: '0' });
    });

    it('lets no caller older than an operator change start a period with its stale anchor or quota', async () => {
      await admit(sut, { requestId: req(1), seedMicro: '7000000', epoch: 2, seedPeriod: 0, period: 0 });

      // A replica still caching the caller from before the change (epoch 1, old anchor: period 4, old quota).
      const reply = await admit(sut, { requestId: req(2), epoch: 1, seedPeriod: 4, period: 4, quotaMicro: '3000000', nowMs: T0 + 1000 });

      expect(reply).toEqual([AdmitStatus.ADMITTED, 2, '5000000', 2, 0]);
      expect(await credits(sut, ACCOUNT)).toEqual({ bal: '5000000', epoch: '2', period: '0' });
      expect((await outbox(sut)).map((f) => [f[0], f[6], f[7]])).toEqual([
        ['charge', '2', '0'],
        ['charge', '2', '0'],
      ]);
      expect(await refund(sut, reply, { requestId: req(2) })).toBe('6000000');
    });

    it('resets the balance to the quota in a new period and queues a period_reset entry before the charge', async () => {
      await admit(sut, { requestId: req(1), seedMicro: '5000000', period: 0 });

      const reply = await admit(sut, { requestId: req(2), seedPeriod: 0, period: 1, quotaMicro: '20000000', nowMs: T0 + 1000 });

      expect(reply).toEqual([AdmitStatus.ADMITTED, 2, '19000000', 1, 1]);
      expect(await credits(sut, ACCOUNT)).toEqual({ bal: '19000000', epoch: '1', period: '1' });
      const [first, reset, charge] = (await sut.lrange(BillingKeys.outbox, 0, -1)).map(parseLedgerEntry);
      expect([first!.seq < reset!.seq, reset!.seq < charge!.seq]).toEqual([true, true]);
      expect(reset).toEqual({
        type: 'period_reset',
        accountId: ACCOUNT,
        referenceId: `${ACCOUNT}:e1:p1`,
        endpoint: '',
        amountMicro: '16000000',
        balanceAfterMicro: '20000000',
        epoch: 1,
        period: 1,
        seq: expect.any(Number),
        atMs: T0 + 1000,
      });
      expect(charge).toMatchObject({ type: 'charge', amountMicro: '-1000000', balanceAfterMicro: '19000000', period: 1 });
    });

    it('takes over a balance kept the way earlier versions did (a bal field), without re-seeding it', async () => {
      await sut.run(TEST_HSET, [BillingKeys.credits(ACCOUNT)], ['bal', '4000000', 'epoch', '1', 'period', '0', 'ep', '1:0']);

      const reply = await admit(sut, { requestId: req(1), seedMicro: '9000000' });

      expect(reply).toEqual([AdmitStatus.ADMITTED, 1, '3000000', 1, 0]);
      expect(await credits(sut, ACCOUNT)).toEqual({ bal: '3000000', epoch: '1', period: '0' });
      expect((await admit(sut, { requestId: req(2) }))[2]).toBe('2000000');
    });

    it('keeps balances of 100M credits exact, never in exponent notation', async () => {
      const reply = await admit(sut, { requestId: req(1), seedMicro: '100000000000000', costMicro: 1_000_000 });

      expect(reply).toEqual([AdmitStatus.ADMITTED, 1, '99999999000000', 1, 0]);
      expect((await outbox(sut))[0][5]).toBe('99999999000000');
      expect(await refund(sut, reply, { requestId: req(1) })).toBe('100000000000000');
    });

    it('writes a period_reset amount exact at 100M credits', async () => {
      await admit(sut, { requestId: req(1), seedMicro: '1000000' });

      await admit(sut, { requestId: req(2), period: 1, quotaMicro: '100000000000000' });

      const reset = (await outbox(sut)).find((f) => f[0] === 'period_reset')!;
      expect([reset[4], reset[5]]).toEqual(['100000000000000', '100000000000000']);
      expect(await credits(sut, ACCOUNT)).toMatchObject({ bal: '99999999000000' });
    });
  });

  describe('ADMIT_FAST_SCRIPT', () => {
    const OTHER = '22222222-2222-4222-8222-222222222222';

    it('answers every call of a known epoch and period as the full script does, line for line', async () => {
      // One account through admitBatch (fast script after the first call), a twin only through the full script.
      const calls: AdmitCall[] = [
        { requestId: req(1), seedMicro: '4000000' },
        { requestId: req(2) },
        { requestId: req(3), costMicro: 0 },
        { requestId: req(4), costMicro: 2_000_000 },
        { requestId: req(5), costMicro: 2_000_000 },
        { requestId: req(6), cap: 5 },
        { requestId: req(7), metered: false },
      ];
      const viaFast: Decided[] = [];
      const viaFull: Decided[] = [];
      for (const call of calls) {
        viaFast.push(await admit(sut, { ...call, nowMs: T0 + viaFast.length }));
        viaFull.push(await admitFull(sut, { ...call, keyId: 'key-2', accountId: OTHER, nowMs: T0 + viaFull.length }));
      }

      expect(viaFast).toEqual(viaFull);
      expect(viaFast.map((r) => r[0])).toEqual([1, 1, 1, 1, 2, 0, 1]);
      const lines = await sut.lrange(BillingKeys.outbox, 0, -1);
      const mine = lines.filter((l) => l.includes(ACCOUNT));
      const twin = lines.filter((l) => l.includes(OTHER)).map((l) => l.replace(OTHER, ACCOUNT));
      // Sequence numbers interleave (one counter); everything else is identical.
      const withoutSeq = (l: string) =>
        l
          .split('|')
          .filter((_, i) => i !== 8)
          .join('|');
      expect(mine.map(withoutSeq)).toEqual(twin.map(withoutSeq));
      expect(mine).toHaveLength(3);
      expect(await sut.hgetall(BillingKeys.credits(ACCOUNT))).toEqual(await sut.hgetall(BillingKeys.credits(OTHER)));
    });

    it('leaves every key as it was and asks for the full script when the balance is of another epoch or period', async () => {
      await admit(sut, { requestId: req(1), seedMicro: '5000000' });
      const before = { credits: await sut.hgetall(BillingKeys.credits(ACCOUNT)), outbox: await sut.llen(BillingKeys.outbox) };
      const window = BillingKeys.window('key-9', Math.floor(T0 / WINDOW_MS));
      const fast = (epoch: number, period: number, change = '-1000000') => fastScript(sut, { window, cap: 100, change, field: balanceField(epoch, period) });
      const overCap = (epoch: number, period: number) => fastScript(sut, { window, cap: 0, change: '-1000000', field: balanceField(epoch, period) });
      for (const [epoch, period] of [
        [2, 0],
        [1, 1],
        [0, 0],
      ]) {
        expect(await fast(epoch, period)).toEqual([3, 0, '']);
        expect(await fast(epoch, period, '0')).toEqual([3, 0, '']);
        // Over the cap too: the balance a 429 tells must be the caller's current one.
        expect(await overCap(epoch, period)).toEqual([3, 0, '']);
      }

      // The window's count was taken back (the full script counts the call), the balance field of the
      // other epoch or period the charge created is gone again, and nothing reached the ledger.
      expect(Number((await sut.get(window)) ?? '0')).toBe(0);
      expect(await sut.hgetall(BillingKeys.credits(ACCOUNT))).toEqual(before.credits);
      expect(await sut.llen(BillingKeys.outbox)).toBe(before.outbox);
      // ...and decides alone once the epoch and period are the stored ones.
      expect(await fast(1, 0)).toEqual([1, 1, '3000000']);
      const [line] = await sut.lrange(BillingKeys.outbox, -1, -1);
      expect(line).toMatch(new RegExp(`^charge\\|x\\|3000000\\|1\\|0\\|\\d+\\|${T0}$`));
    });

    it('takes a charge the balance cannot pay back at once, and counts the window', async () => {
      await admit(sut, { requestId: req(1), seedMicro: '1500000' });
      const window = BillingKeys.window('key-9', Math.floor(T0 / WINDOW_MS));

      const reply = await fastScript(sut, { window, cap: 100, change: '-1000000', field: balanceField(1, 0) });

      expect(reply).toEqual([2, 1, '500000']);
      expect(await credits(sut, ACCOUNT)).toEqual({ bal: '500000', epoch: '1', period: '0' });
      expect(await sut.llen(BillingKeys.outbox)).toBe(1);
    });

    it('decides a batch of calls as it decides them one by one: replies, balances, windows and ledger lines', async () => {
      const THIRD = '33333333-3333-4333-8333-333333333333';
      // Seeds first (full script), then one batch that mixes accounts, keys, every outcome and a call the
      // fast script leaves to the full one (THIRD has no live balance yet).
      const seeds: AdmitCall[] = [
        { requestId: 'seed-a', seedMicro: '3000000' },
        { requestId: 'seed-b', accountId: OTHER, keyId: 'key-2', seedMicro: '9000000' },
      ];
      const batch: AdmitCall[] = [
        { requestId: 'b-1' },
        { requestId: 'b-2', accountId: OTHER, keyId: 'key-2', costMicro: 2_000_000 },
        { requestId: 'b-3', costMicro: 5_000_000 },
        { requestId: 'b-4', accountId: THIRD, keyId: 'key-3', seedMicro: '7000000' },
        { requestId: 'b-5', keyId: 'key-4', cap: 0 },
        { requestId: 'b-6', metered: false, keyId: 'key-5' },
        { requestId: 'b-7', costMicro: 0 },
        { requestId: 'b-8' },
      ].map((call) => ({ ...call, nowMs: T0 + 10 }));
      const run = async (kv: KvStore, together: boolean) => {
        for (const seed of seeds) await admit(kv, seed);
        const thirdsSeed = async () => ({ balanceMicro: '7000000', epoch: 1, period: 0 });
        const replies = together ? (await admitBatch(kv, newBatchId(), batch.map(scriptCall), thirdsSeed))!.map(decided) : [];
        if (!together) for (const call of batch) replies.push(await admit(kv, call));
        const state: Record<string, unknown> = { replies, outbox: await kv.lrange(BillingKeys.outbox, 0, -1), seq: await kv.get(BillingKeys.seq) };
        for (const account of [ACCOUNT, OTHER, THIRD]) state[account] = await kv.hgetall(BillingKeys.credits(account));
        for (const key of ['key-1', 'key-2', 'key-3', 'key-4', 'key-5']) state[key] = await kv.get(BillingKeys.window(key, Math.floor(T0 / WINDOW_MS)));
        return state;
      };

      const together = await run(sut, true);
      const alone = await run(await harness.fresh(), false);

      // The full script charges THIRD after the batch has pushed its own lines, so only the order of the
      // lines and their sequence numbers differ; within the list the sequence still climbs.
      const withoutSeq = (lines: unknown) =>
        (lines as string[])
          .map((l) =>
            l
              .split('|')
              .filter((_, i) => i !== 8)
              .join('|'),
          )
          .sort();
      // The stored sequence follows the clock of each run, like the lines' own.
      expect({ ...together, seq: null, outbox: withoutSeq(together.outbox) }).toEqual({ ...alone, seq: null, outbox: withoutSeq(alone.outbox) });
      expect((together.replies as Decided[]).map((r) => r[0])).toEqual([1, 1, 2, 1, 0, 1, 1, 1]);
      const seqs = (together.outbox as string[]).map((line) => Number(line.split('|')[8]));
      expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
      expect(new Set(seqs).size).toBe(seqs.length);
      expect(together.seq).toBe(String(Math.max(...seqs)));
    });
  });

  describe('RAISE_SEQ_FLOOR_SCRIPT', () => {
    // Above any clock in microseconds, so the next line numbers from the floor, not from the clock.
    const FAR = 9_000_000_000_000_000;

    it('raises a missing or lower sequence to the floor, and never lowers one already past it', async () => {
      expect(await sut.run(RAISE_SEQ_FLOOR_SCRIPT, [BillingKeys.seq], ['41'])).toBe(41);
      expect(await sut.get(BillingKeys.seq)).toBe('41');
      await sut.set(BillingKeys.seq, String(FAR));
      expect(await sut.run(RAISE_SEQ_FLOOR_SCRIPT, [BillingKeys.seq], ['50'])).toBe(FAR);
      expect(await sut.get(BillingKeys.seq)).toBe(String(FAR));
      // The next admission's charge then numbers from there.
      const reply = await admit(sut, { requestId: req(1), seedMicro: '5000000' });
      expect(reply[0]).toBe(AdmitStatus.ADMITTED);
      expect((await outbox(sut)).map((f) => f[8])).toEqual([String(FAR + 1)]);
    });
  });

  describe('ledger sequence', () => {
    it("numbers lines above the store's clock in microseconds, so a store that lost its counter never numbers below it", async () => {
      await sut.set(BillingKeys.seq, '7');
      const before = Date.now() * 1000;
      const charged = await admitWithSeq(sut, { requestId: req(1), seedMicro: '5000000' });
      await refund(sut, charged, { requestId: req(1) });

      const seqs = (await outbox(sut)).map((f) => Number(f[8]));
      expect(charged[5]).toBe(seqs[0]);
      // Redis' clock is this machine's; the in-process store's is the harness' (T0).
      expect(seqs[0]).toBeGreaterThan(Math.min(before, T0 * 1000));
      expect(seqs[1]).toBeGreaterThan(seqs[0]);
      expect(await sut.get(BillingKeys.seq)).toBe(String(seqs[1]));
    });
  });

  describe(`${ledgerLine.name} (test support)`, () => {
    it('writes every kind of line exactly as the admission scripts do', async () => {
      await admit(sut, { requestId: req(1), seedMicro: '5000000' });
      const charged = await admit(sut, { requestId: req(2), seedPeriod: 0, period: 1, nowMs: T0 + 1000 });
      await admitFull(sut, { requestId: req(3), period: 1, nowMs: T0 + 2000 });
      await refund(sut, charged, { requestId: req(2) });

      const lines = await sut.lrange(BillingKeys.outbox, 0, -1);

      expect(lines.map((line) => line.split('|')[0])).toEqual(['charge', 'period_reset', 'charge', 'charge', 'void']);
      expect(lines.map((line) => ledgerLine(parseLedgerEntry(line)!))).toEqual(lines);
    });
  });

  describe('VOID_SCRIPT', () => {
    it('gives the credits back and appends a void for the charge, with the balance after it', async () => {
      const reply = await admit(sut, { requestId: req(1), seedMicro: '5000000' });

      expect(await refund(sut, reply, { requestId: req(1), nowMs: T0 + 700 })).toBe('5000000');

      expect(await credits(sut, ACCOUNT)).toEqual({ bal: '5000000', epoch: '1', period: '0' });
      const [, voided] = (await sut.lrange(BillingKeys.outbox, 0, -1)).map(parseLedgerEntry);
      expect(voided).toEqual({
        type: 'void',
        accountId: ACCOUNT,
        referenceId: req(1),
        endpoint: ENDPOINT,
        amountMicro: '1000000',
        balanceAfterMicro: '5000000',
        epoch: 1,
        period: 0,
        seq: expect.any(Number),
        atMs: T0 + 700,
      });
    });

    it('gives back and voids once, however often it runs', async () => {
      const reply = await admit(sut, { requestId: req(1), seedMicro: '5000000' });

      expect(await refund(sut, reply, { requestId: req(1) })).toBe('5000000');
      expect(await refund(sut, reply, { requestId: req(1) })).toBe('5000000');

      expect(await credits(sut, ACCOUNT)).toEqual({ bal: '5000000', epoch: '1', period: '0' });
      expect((await outbox(sut)).map((f) => f[0])).toEqual(['charge', 'void']);
      await harness.expectLease(AdmissionRecordKeys.void(req(1)), VOID_RECORD_TTL_MS);
    });

    it('does not add a charge from before an epoch change to the re-seeded balance, but still voids it', async () => {
      const first = await admit(sut, { requestId: req(1), epoch: 1, seedMicro: '5000000' });
      await admit(sut, { requestId: req(2), epoch: 2, seedMicro: '10000000' });

      expect(await refund(sut, first, { requestId: req(1) })).toBe('9000000');

      expect(await credits(sut, ACCOUNT)).toEqual({ bal: '9000000', epoch: '2', period: '0' });
      // The void names the charge's epoch and period, with no balance: it never moves the newer one.
      expect((await outbox(sut)).map((f) => [f[0], f[2], f[5], f[6], f[7]])).toEqual([
        ['charge', req(1), '4000000', '1', '0'],
        ['charge', req(2), '9000000', '2', '0'],
        ['void', req(1), '-1', '1', '0'],
      ]);
    });

    it('does not add a charge from before a monthly reset to the new quota', async () => {
      const first = await admit(sut, { requestId: req(1), seedMicro: '5000000', period: 0 });
      await admit(sut, { requestId: req(2), period: 1, quotaMicro: '20000000' });

      expect(await refund(sut, first, { requestId: req(1) })).toBe('19000000');
    });

    it('voids with balance -1 when the live balance is gone (the KV store lost it)', async () => {
      const reply = await admit(sut, { requestId: req(1), seedMicro: '5000000' });
      await sut.del(BillingKeys.credits(ACCOUNT));

      expect(await refund(sut, reply, { requestId: req(1) })).toBe('-1');
      expect((await outbox(sut))[1].slice(0, 8)).toEqual(['void', ACCOUNT, req(1), ENDPOINT, '1000000', '-1', '1', '0']);
    });
  });

  describe('READ_BALANCE_SCRIPT', () => {
    /** A read with ADMIT_DEFAULTS' caller, as CreditBalanceReader makes it. */
    const readBalance = (call: Pick<AdmitCall, 'epoch' | 'seedMicro' | 'seedPeriod' | 'period'> = {}) => {
      const c = { ...ADMIT_DEFAULTS, ...call };
      return sut.run(READ_BALANCE_SCRIPT, [BillingKeys.credits(ACCOUNT)], [c.epoch, c.seedMicro, c.seedPeriod, c.period, c.quotaMicro]);
    };

    it('reads the seed while no balance is stored, then what each admission reports, and writes nothing', async () => {
      expect(await readBalance()).toBe('5000000');
      expect(await sut.hgetall(BillingKeys.credits(ACCOUNT))).toEqual({});
      for (let i = 1; i <= 3; i++) {
        const reply = await admit(sut, { requestId: req(i), costMicro: i === 2 ? 0 : 1_000_000 });
        // The window counts admissions only.
        expect(reply[1]).toBe(i);
        expect(await readBalance()).toBe(reply[2]);
      }
      expect(await sut.llen(BillingKeys.outbox)).toBe(2);
    });

    it('reads the quota of a period no call has reset yet, then what the resetting call reports', async () => {
      await admit(sut, { requestId: req(1), period: 0 });

      expect(await readBalance({ period: 1 })).toBe('20000000');
      expect(await credits(sut, ACCOUNT)).toEqual({ bal: '4000000', epoch: '1', period: '0' });
      const reply = await admit(sut, { requestId: req(2), period: 1 });
      expect(await readBalance({ period: 1 })).toBe(reply[2]);
    });

    it('reads the seed of a newer epoch (the quota if its period is older), and the stored balance for an older one', async () => {
      await admit(sut, { requestId: req(1), epoch: 2, seedMicro: '7000000' });

      expect(await readBalance({ epoch: 3, seedMicro: '9000000', seedPeriod: 0, period: 0 })).toBe('9000000');
      expect(await readBalance({ epoch: 3, seedMicro: '9000000', seedPeriod: 0, period: 1 })).toBe('20000000');
      // A caller from before the change reads (and is charged) the newer balance, never a reset of it.
      expect(await readBalance({ epoch: 1, period: 1 })).toBe('6000000');
      expect(await admit(sut, { requestId: req(2), epoch: 1, period: 1, costMicro: 0 })).toEqual([AdmitStatus.ADMITTED, 2, '6000000', 2, 0]);
    });

    it('reads a balance kept the way earlier versions did (a bal field) without moving it', async () => {
      await sut.run(TEST_HSET, [BillingKeys.credits(ACCOUNT)], ['epoch', '1', 'period', '0', 'bal', '3000000']);

      expect(await readBalance()).toBe('3000000');
      expect(await sut.hgetall(BillingKeys.credits(ACCOUNT))).toEqual({ epoch: '1', period: '0', bal: '3000000' });
      expect((await admit(sut, { requestId: req(1), costMicro: 0 }))[2]).toBe('3000000');
    });

    it('keeps balances of 100M credits exact, never in exponent notation', async () => {
      expect(await readBalance({ seedMicro: '100000000000000' })).toBe('100000000000000');
    });
  });

  describe('SPEND_WEIGHT_SCRIPT', () => {
    const history = true;

    it('caps history reads at their share while light requests still pass', async () => {
      expect(await spendWeight(sut, 20, { history })).toEqual([1, 20]);
      expect(await spendWeight(sut, 2)).toEqual([1, 22]);
      expect(await spendWeight(sut, 20, { history })).toEqual([0, 22]);
      expect(await spendWeight(sut, 50)).toEqual([1, 72]);

      expect(await sut.get(HISTORY_WINDOW)).toBe('20');
    });

    it('still holds the whole cap when the history share has room', async () => {
      expect(await spendWeight(sut, 70, { historyCap: 50 })).toEqual([1, 70]);
      expect(await spendWeight(sut, 20, { history, historyCap: 50 })).toEqual([1, 90]);
      expect(await spendWeight(sut, 20, { history, historyCap: 50 })).toEqual([0, 90]);

      expect(await sut.get(HISTORY_WINDOW)).toBe('20');
    });

    it('admits a request alone in an empty window even past its cap, and a history read alone in an empty history window', async () => {
      expect(await spendWeight(sut, 30)).toEqual([1, 30]);
      expect(await spendWeight(sut, 20, { history, historyCap: 10 })).toEqual([1, 50]);
      expect(await spendWeight(sut, 20, { history, historyCap: 10 })).toEqual([0, 50]);
      await sut.del(WEIGHT_WINDOW, HISTORY_WINDOW);

      expect(await spendWeight(sut, 150, { history })).toEqual([1, 150]);
    });

    it('forces the surcharge past both caps and counts it against the history share', async () => {
      expect(await spendWeight(sut, 20, { history })).toEqual([1, 20]);
      expect(await spendWeight(sut, 100, { history, force: true })).toEqual([1, 120]);

      expect(await sut.get(HISTORY_WINDOW)).toBe('120');
      expect(await spendWeight(sut, 2, { history })).toEqual([0, 120]);
    });

    it('gives the history window the lease of the whole window', async () => {
      await spendWeight(sut, 20, { history });

      await harness.expectLease(HISTORY_WINDOW, WEIGHT_TTL_MS);
    });
  });

  describe('ADD_USAGE_SCRIPT', () => {
    const usageA = UsageMeterKeys.live('acct-a', 3);
    const usageB = UsageMeterKeys.live('acct-b', 0);
    const addUsage = (batchId: string) =>
      sut.run(
        ADD_USAGE_SCRIPT,
        [UsageMeterKeys.dirty, UsageMeterKeys.added(batchId), usageA, usageB],
        [USAGE_ADD_RECORD_TTL_MS, 'acct-a:3', 2, 'hl.perp.holders', 3, 3_000_000, 'usage.list', 1, 0, 'acct-b:0', 1, 'account.summary', -1, 0],
      );

    it('adds calls and credits per endpoint to each hash, skipping zero deltas, and marks each for the durable copy', async () => {
      expect(await addUsage('batch-1')).toBe(2);
      expect(await addUsage('batch-2')).toBe(2);

      expect(await sut.hgetall(usageA)).toEqual({ 'hl.perp.holders': '6', 'hl.perp.holders#credits': '6000000', 'usage.list': '2' });
      expect(await sut.hgetall(usageB)).toEqual({ 'account.summary': '-2' });
      expect((await sut.spop(UsageMeterKeys.dirty, 10)).sort()).toEqual(['acct-a:3', 'acct-b:0']);
    });

    it('adds a batch sent twice (its first reply lost) once', async () => {
      expect(await addUsage('batch-1')).toBe(2);
      expect(await addUsage('batch-1')).toBe(0);

      expect(await sut.hgetall(usageA)).toEqual({ 'hl.perp.holders': '3', 'hl.perp.holders#credits': '3000000', 'usage.list': '1' });
      await harness.expectLease(UsageMeterKeys.added('batch-1'), USAGE_ADD_RECORD_TTL_MS);
    });

    it('gives each usage hash a lease of USAGE_KEY_TTL_MS', async () => {
      await addUsage('batch-1');

      await harness.expectLease(usageA, USAGE_KEY_TTL_MS);
    });
  });

  describe('KvStore basics', () => {
    it('gets what was set, and null for a missing key', async () => {
      await sut.set('k', 'v');

      expect(await sut.get('k')).toBe('v');
      expect(await sut.get('missing')).toBeNull();
      await harness.expectNoLease('k');
    });

    it('sets a value with a lease that expires it', async () => {
      await sut.set('k', 'v', 5_000);

      await harness.expectLease('k', 5_000);
    });

    it('forgets a leased value once the lease has passed', async () => {
      await sut.set('k', 'v', 50);
      await harness.elapse(50);

      expect(await sut.get('k')).toBeNull();
    });

    it('setIfAbsent creates the key once, keeps the first value, and again after expiry', async () => {
      expect(await sut.setIfAbsent('k', 'first', 50)).toBe(true);
      expect(await sut.setIfAbsent('k', 'second', 50)).toBe(false);
      expect(await sut.get('k')).toBe('first');

      await harness.elapse(50);

      expect(await sut.setIfAbsent('k', 'third', 50)).toBe(true);
      expect(await sut.get('k')).toBe('third');
    });

    it('del counts only the keys that existed', async () => {
      await sut.set('a', '1');
      await sut.set('b', '2');

      expect(await sut.del('a', 'b', 'missing')).toBe(2);
      expect(await sut.del()).toBe(0);
      expect(await sut.get('a')).toBeNull();
    });

    it('hgetall returns every field, and {} for a missing hash', async () => {
      await sut.run(TEST_HSET, ['h'], ['a', '1', 'b', '2']);

      expect(await sut.hgetall('h')).toEqual({ a: '1', b: '2' });
      expect(await sut.hgetall('missing')).toEqual({});
    });

    it.each<[number, number, string[]]>([
      [0, -1, ['a', 'b', 'c', 'd', 'e']],
      [-2, -1, ['d', 'e']],
      [1, -2, ['b', 'c', 'd']],
      [-100, 1, ['a', 'b']],
      [3, 100, ['d', 'e']],
      [0, -5, ['a']],
      [3, 1, []],
      [5, 10, []],
      [-1, -2, []],
    ])('lrange(%i, %i) reads the range Redis reads', async (start, stop, expected) => {
      await sut.run(TEST_RPUSH, ['l'], ['a', 'b', 'c', 'd', 'e']);

      expect(await sut.lrange('l', start, stop)).toEqual(expected);
    });

    it('lrange and ltrim read and keep nothing when stop lies before the head of the list', async () => {
      await sut.run(TEST_RPUSH, ['l'], ['a', 'b', 'c', 'd', 'e']);

      expect(await sut.lrange('l', 0, -7)).toEqual([]);
      await sut.ltrim('l', 0, -7);
      expect(await sut.llen('l')).toBe(0);
    });

    it('ltrim keeps the range, as the outbox drain uses it, and deletes a list it empties', async () => {
      await sut.run(TEST_RPUSH, ['l'], ['a', 'b', 'c', 'd', 'e']);

      await sut.ltrim('l', 2, -1);
      expect(await sut.lrange('l', 0, -1)).toEqual(['c', 'd', 'e']);
      await sut.ltrim('l', -2, -1);
      expect(await sut.lrange('l', 0, -1)).toEqual(['d', 'e']);
      await sut.ltrim('l', 5, -1);
      expect(await sut.llen('l')).toBe(0);
      expect(await sut.del('l')).toBe(0);
    });

    it('llen counts a list, and 0 for a missing one', async () => {
      expect(await sut.run(TEST_RPUSH, ['l'], ['a', 'b'])).toBe(2);

      expect(await sut.llen('l')).toBe(2);
      expect(await sut.llen('missing')).toBe(0);
    });

    it('sadd keeps distinct members and spop pops them until the set is gone', async () => {
      await sut.sadd('s', 'a', 'b', 'c', 'a');

      const first = await sut.spop('s', 2);
      const rest = await sut.spop('s', 5);

      expect(first).toHaveLength(2);
      expect([...first, ...rest].sort()).toEqual(['a', 'b', 'c']);
      expect(await sut.spop('s', 5)).toEqual([]);
      expect(await sut.del('s')).toBe(0);
    });

    it('answers ping', async () => {
      await expect(sut.ping()).resolves.toBeUndefined();
    });
  });
});
