import { randomUUID } from 'node:crypto';
import { MemoryKvStore } from '../../infra/kv/memory-kv.store';
import { ApiCaller } from '../account/api-caller';
import { AdmissionService } from './admission.service';
import { AdmitStatus } from './admission.scripts';
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
    meter = new UsageMeterService(kv, {} as never);
    sut = new AdmissionService(kv, meter);
  });

  const admit = (nowMs: number) => sut.admit({ caller, endpoint: 'account.summary', cost: 1, requestId: randomUUID(), nowMs });

  it('counts a call on the UTC day it was admitted, however late its flush', async () => {
    const late = await admit(JUST_BEFORE_MIDNIGHT);
    const next = await admit(MIDNIGHT);
    await meter.flush();

    expect([late.status, next.status]).toEqual([AdmitStatus.ADMITTED, AdmitStatus.ADMITTED]);
    expect([late.admission.day, next.admission.day]).toEqual(['2027-01-15', '2027-01-16']);
    expect(await kv.hgetall(UsageMeterKeys.live(ACCOUNT, 0))).toEqual({
      'account.summary@2027-01-15': '1',
      'account.summary@2027-01-15#credits': '1000000',
      'account.summary@2027-01-16': '1',
      'account.summary@2027-01-16#credits': '1000000',
    });
  });

  it('takes a failed call back out of the day it was counted on, also when it fails after midnight', async () => {
    const failed = await admit(JUST_BEFORE_MIDNIGHT);
    await meter.flush();
    await admit(MIDNIGHT);

    await sut.settleFailure(failed.admission, 'req-failed');
    await meter.flush();

    expect(await kv.hgetall(UsageMeterKeys.live(ACCOUNT, 0))).toEqual({
      'account.summary@2027-01-15': '0',
      'account.summary@2027-01-15#credits': '0',
      'account.summary@2027-01-16': '1',
      'account.summary@2027-01-16#credits': '1000000',
    });
  });

  it('takes a failed free call back out of its day as well', async () => {
    const failed = await sut.admit({ caller, endpoint: 'usage.list', cost: 0, requestId: randomUUID(), nowMs: JUST_BEFORE_MIDNIGHT });
    await meter.flush();

    await sut.settleFailure(failed.admission, 'req-failed');
    await meter.flush();

    expect(await kv.hgetall(UsageMeterKeys.live(ACCOUNT, 0))).toEqual({ 'usage.list@2027-01-15': '0' });
  });
});
