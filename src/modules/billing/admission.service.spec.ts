import { randomUUID } from 'node:crypto';
import { MemoryKvStore } from '../../infra/kv/memory-kv.store';
import { billingConfig, redisAdmission } from '../../../test/support/billing-kit';
import { ApiCaller } from '../account/api-caller';
import { AdmissionService } from './admission.service';
import { AdmitStatus } from './admission.scripts';
import { BillingKeys } from './billing-keys';
import { CallSettlements } from './call-settlements';
import { UsageMeterKeys } from './usage-meter.format';
import { UsageMeterService } from './usage-meter.service';

const ACCOUNT = '0b9f3c2e-5d1a-4c6e-9f00-1a2b3c4d5e6f';
const ANCHOR = new Date(Date.UTC(2027, 0, 1));
const JUST_BEFORE_MIDNIGHT = Date.UTC(2027, 0, 15, 23, 59, 59, 900);
const MIDNIGHT = Date.UTC(2027, 0, 16);

const caller: ApiCaller = {
  keyId: 'key-1',
  keyPrefix: 'mdk_12345678',
  accountId: ACCOUNT,
  walletAddress: '0xabc',
  tier: 'pro',
  resetAnchorAt: ANCHOR,
  resetAnchorText: ANCHOR.toISOString(),
  creditSeedMicro: '10000000',
  creditEpoch: 0,
  creditPeriod: 0,
};

describe(AdmissionService.name, () => {
  let kv: MemoryKvStore;
  let meter: UsageMeterService;
  let sut: AdmissionService;

  beforeEach(() => {
    kv = new MemoryKvStore();
    ({ admission: sut, meter } = redisAdmission(kv, () => ({ balanceMicro: '10000000', epoch: 0, period: 0 })));
  });

  const admit = (nowMs: number, endpoint: 'account.summary' | 'usage.list' = 'account.summary', cost = 1) =>
    sut.admit({ caller, endpoint, cost, requestId: randomUUID(), nowMs });

  it('counts a free call on the UTC day it was admitted, however late its flush', async () => {
    const late = await admit(JUST_BEFORE_MIDNIGHT, 'usage.list', 0);
    const next = await admit(MIDNIGHT, 'usage.list', 0);
    await meter.flush();

    expect([late.status, next.status]).toEqual([AdmitStatus.ADMITTED, AdmitStatus.ADMITTED]);
    expect([late.admission.day, next.admission.day]).toEqual(['2027-01-15', '2027-01-16']);
    expect(await kv.hgetall(UsageMeterKeys.live(ACCOUNT, 0))).toEqual({ 'usage.list@2027-01-15': '1', 'usage.list@2027-01-16': '1' });
  });

  it('leaves a charged call out of the meters: its ledger line counts it, with the time it was admitted', async () => {
    await admit(JUST_BEFORE_MIDNIGHT);
    await meter.flush();

    expect(await kv.hgetall(UsageMeterKeys.live(ACCOUNT, 0))).toEqual({});
    const [line] = await kv.lrange(BillingKeys.outbox, 0, -1);
    expect(line.split('|').slice(0, 1).concat(line.split('|').slice(3, 5), line.split('|').slice(9))).toEqual([
      'charge',
      'account.summary',
      '-1000000',
      String(JUST_BEFORE_MIDNIGHT),
    ]);
  });

  it('takes a failed free call back out of its day, also when it fails after midnight', async () => {
    const failed = await admit(JUST_BEFORE_MIDNIGHT, 'usage.list', 0);
    await meter.flush();
    await admit(MIDNIGHT, 'usage.list', 0);

    await sut.settleFailure(failed.admission, 'req-failed');
    await meter.flush();

    expect(await kv.hgetall(UsageMeterKeys.live(ACCOUNT, 0))).toEqual({ 'usage.list@2027-01-15': '0', 'usage.list@2027-01-16': '1' });
  });

  it('voids a failed charged call once however often it is settled', async () => {
    const requestId = randomUUID();
    const failed = await sut.admit({ caller, endpoint: 'account.summary', cost: 1, requestId, nowMs: MIDNIGHT });

    await sut.settleFailure(failed.admission, requestId);
    await sut.settleFailure(failed.admission, requestId);

    expect((await kv.lrange(BillingKeys.outbox, 0, -1)).map((line) => line.split('|')[0])).toEqual(['charge', 'void']);
    expect(failed.admission.balanceMicro).toBe('10000000');
  });
});

describe(`${AdmissionService.name} when the credits store does not answer`, () => {
  /** A store that fails the first `failures` runs of every batch, then admits; it records the batch ids it was sent. */
  class FlakyStore {
    readonly kind = 'redis' as const;
    readonly sent: string[] = [];
    readonly abandoned: string[] = [];
    constructor(private failures: number) {}
    connected = () => true;
    async admit(batchId: string, calls: readonly unknown[]) {
      this.sent.push(batchId);
      if (this.failures-- > 0) throw new Error('Command timed out');
      return calls.map(() => [AdmitStatus.ADMITTED, 1, '9000000', 0, 0, 7] as const);
    }
    async abandon(batchId: string) {
      this.abandoned.push(batchId);
      return 0;
    }
    voidCall = async () => '9000000';
    readBalance = async () => '9000000';
  }

  function admissionOn(store: FlakyStore, admissionTimeoutMs: number) {
    const kv = new MemoryKvStore();
    const settlements = new CallSettlements();
    const sut = new AdmissionService(store as never, new UsageMeterService(kv, {} as never), settlements, billingConfig({ admissionTimeoutMs }));
    return { sut, settlements };
  }

  it('sends a batch whose reply was lost again under the same id, and the call goes on', async () => {
    const store = new FlakyStore(2);
    const { sut } = admissionOn(store, 5_000);

    const result = await sut.admit({ caller, endpoint: 'account.summary', cost: 1, requestId: randomUUID(), nowMs: MIDNIGHT });

    expect(result.status).toBe(AdmitStatus.ADMITTED);
    expect(store.sent).toHaveLength(3);
    expect(new Set(store.sent).size).toBe(1);
    expect(store.abandoned).toEqual([]);
  });

  it('answers 503 once the admission timeout has passed, and gives the batch up until that lands', async () => {
    const store = new FlakyStore(Infinity);
    const { sut, settlements } = admissionOn(store, 200);

    await expect(sut.admit({ caller, endpoint: 'account.summary', cost: 1, requestId: randomUUID(), nowMs: MIDNIGHT })).rejects.toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
    });
    await settlements.idle();

    expect(store.abandoned).toEqual([store.sent[0]]);
    expect(store.sent.length).toBeGreaterThan(1);
  });

  it('fails at once, without waiting out the timeout again, while the store has been failing for longer than it', async () => {
    const store = new FlakyStore(Infinity);
    const { sut } = admissionOn(store, 200);
    const call = () => sut.admit({ caller, endpoint: 'account.summary', cost: 1, requestId: randomUUID(), nowMs: MIDNIGHT });
    await expect(call()).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    const tried = store.sent.length;

    await expect(call()).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });

    expect(store.sent.length - tried).toBe(1);
  });
});

describe(`${AdmissionService.name} when a part of the store fails`, () => {
  it('gives nothing up for a batch whose store refused the connection: it never reached it', async () => {
    const abandoned: string[] = [];
    const refusing = {
      kind: 'postgres' as const,
      connected: () => true,
      admit: async () => Promise.reject(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })),
      abandon: async (batchId: string) => (abandoned.push(batchId), 0),
      voidCall: async () => '0',
      readBalance: async () => '0',
    };
    const kv = new MemoryKvStore();
    const settlements = new CallSettlements();
    const sut = new AdmissionService(refusing, new UsageMeterService(kv, {} as never), settlements, billingConfig({ admissionTimeoutMs: 100 }));

    await expect(sut.admit({ caller, endpoint: 'account.summary', cost: 1, requestId: randomUUID(), nowMs: MIDNIGHT })).rejects.toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
    });

    expect(settlements.pendingCount).toBe(0);
    expect(abandoned).toEqual([]);
  });

  it('fails only the call whose balance could not be seeded, and admits the rest of its batch', async () => {
    const kv = new MemoryKvStore();
    const seeded = { ...caller, accountId: '11111111-2222-4333-8444-555555555555', keyId: 'key-2' };
    const { admission: sut } = redisAdmission(kv, (accountId) => {
      if (accountId === ACCOUNT) throw new Error('connect ECONNREFUSED 127.0.0.1:5432');
      return { balanceMicro: '10000000', epoch: 0, period: 0 };
    });

    const [down, up] = await Promise.allSettled([
      sut.admit({ caller, endpoint: 'account.summary', cost: 1, requestId: randomUUID(), nowMs: MIDNIGHT }),
      sut.admit({ caller: seeded, endpoint: 'account.summary', cost: 1, requestId: randomUUID(), nowMs: MIDNIGHT }),
    ]);

    expect(down).toMatchObject({ status: 'rejected', reason: { code: 'SERVICE_UNAVAILABLE' } });
    expect(up).toMatchObject({ status: 'fulfilled', value: { status: AdmitStatus.ADMITTED } });
    // Not counted in its window either: the fast script took its count back when it left the call to the full one.
    expect(await kv.get(BillingKeys.window('key-1', Math.floor(MIDNIGHT / 60_000)))).toBe('0');
  });
});
