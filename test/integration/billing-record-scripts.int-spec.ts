import { KvStore } from '../../src/infra/kv/kv-store';
import { MemoryData } from '../../src/infra/kv/memory-data';
import { MemoryKvStore } from '../../src/infra/kv/memory-kv.store';
import { RedisKvStore } from '../../src/infra/kv/redis-kv.store';
import { ABANDONED, ADMISSION_RECORD_TTL_MS, AdmissionRecordKeys, VOID_RECORD_TTL_MS } from '../../src/modules/billing/admission-record';
import { ADMIT_SCRIPT, AdmitStatus, BALANCE_OFFSET, balanceField, NEEDS_SEED } from '../../src/modules/billing/admission.scripts';
import { AdmitCall, admitBatch, CreditSeed } from '../../src/modules/billing/admit-batch';
import { BillingKeys } from '../../src/modules/billing/billing-keys';
import { MARK_DRAINED_SCRIPT, TRIM_OUTBOX_HEAD_SCRIPT } from '../../src/modules/billing/outbox.scripts';
import { RedisCreditStore } from '../../src/modules/billing/redis-credit.store';
import { ABANDON_SCRIPT } from '../../src/modules/billing/settlement.scripts';
import { TEST_REDIS_URL, uniqueKeyPrefix } from '../support/test-env';

/**
 * What makes the billing scripts safe to run twice (admission-record.ts), on Redis and on the in-process
 * store alike: a batch or a call run again answers its first reply and charges nothing again, a balance
 * is seeded only from a seed read for the call, a batch given up on admits nothing late and undoes what it
 * did, and the drained watermark says how far the ledger has come.
 */

const T0 = Date.UTC(2027, 0, 15, 12);
const ACCOUNT = '0b9f3c2e-5d1a-4c6e-9f00-1a2b3c4d5e6f';
const req = (n: number) => `019aa8f2-0000-7000-8000-${String(n).padStart(12, '0')}`;

function call(n: number, overrides: Partial<AdmitCall['params']> = {}): AdmitCall {
  return {
    window: BillingKeys.window('key-1', Math.floor(T0 / 60_000)),
    credits: BillingKeys.credits(ACCOUNT),
    params: {
      cap: 100,
      costMicro: 1_000_000,
      seedMicro: '5000000',
      epoch: 1,
      seedPeriod: 0,
      period: 0,
      quotaMicro: '20000000',
      requestId: req(n),
      accountId: ACCOUNT,
      endpoint: 'account.credits',
      nowMs: T0,
      billable: true,
      ...overrides,
    },
  };
}

/** PostgreSQL's view of the account, as the seed reader hands it out; the test records every read. */
function seeds(seed: CreditSeed = { balanceMicro: '5000000', epoch: 1, period: 0 }) {
  const reads: boolean[] = [];
  return { reads, read: async (_account: string, fence: boolean) => (reads.push(fence), seed) };
}

async function balance(kv: KvStore): Promise<number | null> {
  const hash = await kv.hgetall(BillingKeys.credits(ACCOUNT));
  if (hash.epoch === undefined) return null;
  return Number(hash[balanceField(hash.epoch, hash.period)]) - BALANCE_OFFSET;
}

const lineTypes = async (kv: KvStore) => (await kv.lrange(BillingKeys.outbox, 0, -1)).map((l) => l.split('|')[0] + ':' + l.split('|')[2]);

describe.each([
  ['redis', () => RedisKvStore.connect(TEST_REDIS_URL, uniqueKeyPrefix())],
  ['memory', () => new MemoryKvStore(new MemoryData(() => T0))],
])('billing scripts that run twice, on the %s store', (_kind, make: () => KvStore) => {
  let sut: KvStore;

  beforeEach(() => {
    sut = make();
  });
  afterEach(() => sut.close());

  it('answers a batch sent again with its first reply, counting and charging nothing again', async () => {
    const s = seeds();
    await admitBatch(sut, 'seed', [call(1)], s.read);

    const first = await admitBatch(sut, 'b1', [call(2), call(3)], s.read);
    const again = await admitBatch(sut, 'b1', [call(2), call(3)], s.read);

    expect(again).toEqual(first);
    expect(first!.map((r) => r.slice(0, 3))).toEqual([
      [AdmitStatus.ADMITTED, 2, '3000000'],
      [AdmitStatus.ADMITTED, 3, '2000000'],
    ]);
    expect(await balance(sut)).toBe(2_000_000);
    expect(await sut.get(call(2).window)).toBe('3');
    expect(await lineTypes(sut)).toEqual([`charge:${req(1)}`, `charge:${req(2)}`, `charge:${req(3)}`]);
  });

  it('seeds a balance only from a seed read for the call, fencing when the store holds no billing generation', async () => {
    const s = seeds({ balanceMicro: '8000000', epoch: 1, period: 0 });

    const [reply] = (await admitBatch(sut, 'b1', [call(1, { seedMicro: '99000000' })], s.read))!;

    expect(reply.slice(0, 3)).toEqual([AdmitStatus.ADMITTED, 1, '7000000']);
    expect(s.reads).toEqual([true]);
    await sut.set(AdmissionRecordKeys.generation, 'g1');
    await sut.del(BillingKeys.credits(ACCOUNT));
    await admitBatch(sut, 'b2', [call(2)], s.read);
    expect(s.reads).toEqual([true, false]);
  });

  it('writes nothing while it asks for a seed', async () => {
    const keys = [call(1).window, call(1).credits, BillingKeys.seq, BillingKeys.outbox, AdmissionRecordKeys.call('b1', 0), AdmissionRecordKeys.generation];
    const args = [100, 1_000_000, '5000000', 1, 0, 0, '20000000', req(1), ACCOUNT, 'account.credits', T0, '0', ADMISSION_RECORD_TTL_MS];

    expect(await sut.run(ADMIT_SCRIPT, keys, args)).toBe(`${NEEDS_SEED},0`);

    expect(await sut.get(call(1).window)).toBeNull();
    expect(await sut.get(AdmissionRecordKeys.call('b1', 0))).toBeNull();
    expect(await balance(sut)).toBeNull();
    expect(await sut.llen(BillingKeys.outbox)).toBe(0);
  });

  it('answers a full admission run again with its first reply', async () => {
    const keys = [call(1).window, call(1).credits, BillingKeys.seq, BillingKeys.outbox, AdmissionRecordKeys.call('b1', 0), AdmissionRecordKeys.generation];
    const args = [100, 1_000_000, '5000000', 1, 0, 0, '20000000', req(1), ACCOUNT, 'account.credits', T0, '1', ADMISSION_RECORD_TTL_MS];

    const first = await sut.run(ADMIT_SCRIPT, keys, args);
    const again = await sut.run(ADMIT_SCRIPT, keys, args);

    expect(again).toBe(first);
    expect(first).toMatch(/^1,1,4000000,1,0,\d+$/);
    expect(await balance(sut)).toBe(4_000_000);
    expect(await sut.get(call(1).window)).toBe('1');
    expect(await lineTypes(sut)).toEqual([`charge:${req(1)}`]);
  });

  it('gives up on a batch that never ran: a late run of it admits and charges nothing', async () => {
    const s = seeds();
    await admitBatch(sut, 'seed', [call(1)], s.read);
    const batch = [call(2), call(3)];

    await abandon(sut, 'b1', batch);

    expect(await admitBatch(sut, 'b1', batch, s.read)).toBeNull();
    expect(await balance(sut)).toBe(4_000_000);
    expect(await sut.get(call(2).window)).toBe('1');
    expect(await sut.get(AdmissionRecordKeys.batch('b1'))).toBe(ABANDONED);
  });

  it('gives up on a batch that ran: each call it charged is voided, once, in the balance it came from', async () => {
    const s = seeds();
    await admitBatch(sut, 'seed', [call(1)], s.read);
    // Call 5 cannot be paid: only a charged call is voided.
    const batch = [call(2), call(3, { costMicro: -1 }), call(4, { cap: 2 }), call(5, { costMicro: 9_000_000 })];
    await admitBatch(sut, 'b1', batch, s.read);
    expect(await balance(sut)).toBe(3_000_000);

    expect(await abandon(sut, 'b1', batch)).toBe(1);
    expect(await abandon(sut, 'b1', batch)).toBe(0);

    expect(await balance(sut)).toBe(4_000_000);
    expect(await lineTypes(sut)).toEqual([`charge:${req(1)}`, `charge:${req(2)}`, `void:${req(2)}`]);
    await sut.run(ABANDON_SCRIPT, [AdmissionRecordKeys.batch('b1'), BillingKeys.seq, BillingKeys.outbox], [ADMISSION_RECORD_TTL_MS, VOID_RECORD_TTL_MS, T0]);
    expect(await lineTypes(sut)).toHaveLength(3);
  });

  it('gives up on a call the full script decided: voids it if that script charged it, in the epoch and period it names', async () => {
    const s = seeds({ balanceMicro: '6000000', epoch: 2, period: 0 });
    // The first call of an account goes through the full script (seeded at epoch 2, not the caller's 1).
    const batch = [call(1)];
    const [reply] = (await admitBatch(sut, 'b1', batch, s.read))!;
    expect(reply.slice(0, 5)).toEqual([AdmitStatus.ADMITTED, 1, '5000000', 2, 0]);

    expect(await abandon(sut, 'b1', batch)).toBe(1);

    expect(await balance(sut)).toBe(6_000_000);
    const voidLine = (await sut.lrange(BillingKeys.outbox, -1, -1))[0].split('|');
    expect([voidLine[0], voidLine[5], voidLine[6], voidLine[7]]).toEqual(['void', '6000000', '2', '0']);
    expect(await sut.get(AdmissionRecordKeys.call('b1', 0))).toBe(ABANDONED);
  });

  it('raises the drained watermark as the outbox is trimmed, and to the current sequence once it is empty', async () => {
    const s = seeds();
    await admitBatch(sut, 'b1', [call(1), call(2)], s.read);
    const lines = await sut.lrange(BillingKeys.outbox, 0, -1);
    const seqOf = (line: string) => line.split('|')[8];

    expect(await sut.run(MARK_DRAINED_SCRIPT, [BillingKeys.outbox, BillingKeys.seq, BillingKeys.drained], [])).toBe('0');
    await sut.run(TRIM_OUTBOX_HEAD_SCRIPT, [BillingKeys.outbox, BillingKeys.drained], [1, lines[0], lines[0], seqOf(lines[0])]);
    expect(await sut.get(BillingKeys.drained)).toBe(seqOf(lines[0]));
    await sut.run(TRIM_OUTBOX_HEAD_SCRIPT, [BillingKeys.outbox, BillingKeys.drained], [1, lines[1], lines[1], seqOf(lines[1])]);
    // A void numbered after the last trimmed line, its outbox line lost with nothing left to drain.
    await sut.set(BillingKeys.seq, String(Number(seqOf(lines[1])) + 5));
    expect(await sut.run(MARK_DRAINED_SCRIPT, [BillingKeys.outbox, BillingKeys.seq, BillingKeys.drained], [])).toBe(String(Number(seqOf(lines[1])) + 5));
  });
});

function abandon(kv: KvStore, batchId: string, calls: AdmitCall[]): Promise<number> {
  return new RedisCreditStore(kv, seeds().read).abandon(batchId, calls);
}
