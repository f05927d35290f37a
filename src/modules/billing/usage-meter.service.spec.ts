import { ConfigService } from '@nestjs/config';
import { AppConfig } from '../../config/app.config';
import { KvArg, KvScript } from '../../infra/kv/kv-store';
import { MemoryKvStore } from '../../infra/kv/memory-kv.store';
import { UsageMeterKeys } from './usage-meter.format';
import { UsageMeterService } from './usage-meter.service';

const ACCOUNT = '0b9f3c2e-5d1a-4c6e-9f00-1a2b3c4d5e6f';
const DAY = '2027-01-15';

/** A memory store whose next `failures` script runs fail, as a Redis outage would. */
class FlakyStore extends MemoryKvStore {
  failures = 0;
  runs = 0;

  override async run<T>(script: KvScript<T>, keys: string[], args: KvArg[]): Promise<T> {
    this.runs += 1;
    if (this.failures > 0) {
      this.failures -= 1;
      throw new Error('connection lost');
    }
    return super.run(script, keys, args);
  }
}

describe(UsageMeterService.name, () => {
  let kv: FlakyStore;
  let sut: UsageMeterService;

  beforeEach(() => {
    kv = new FlakyStore();
    sut = new UsageMeterService(kv, new ConfigService<AppConfig, true>({ usage: { flushIntervalMs: 1000 } }));
  });

  it('adds nothing to the shared meters until it flushes, then everything counted in one script run', async () => {
    sut.count(ACCOUNT, 2, DAY, 'hl.perp.holders', 1_000_000);
    sut.count(ACCOUNT, 2, DAY, 'hl.perp.holders', 1_000_000);
    sut.count(ACCOUNT, 2, DAY, 'usage.list', 0);
    expect(await kv.hgetall(UsageMeterKeys.live(ACCOUNT, 2))).toEqual({});

    await sut.flush();

    expect(kv.runs).toBe(1);
    expect(await kv.hgetall(UsageMeterKeys.live(ACCOUNT, 2))).toEqual({
      'hl.perp.holders@2027-01-15': '2',
      'hl.perp.holders@2027-01-15#credits': '2000000',
      'usage.list@2027-01-15': '1',
    });
    expect(await kv.spop(UsageMeterKeys.dirty, 10)).toEqual([UsageMeterKeys.member(ACCOUNT, 2)]);
  });

  it('takes an uncounted call back out, also after its count was flushed', async () => {
    sut.count(ACCOUNT, 0, DAY, 'account.summary', 1_000_000);
    await sut.flush();

    sut.uncount(ACCOUNT, 0, DAY, 'account.summary', 1_000_000);
    await sut.flush();

    expect(await kv.hgetall(UsageMeterKeys.live(ACCOUNT, 0))).toEqual({ 'account.summary@2027-01-15': '0', 'account.summary@2027-01-15#credits': '0' });
  });

  it('keeps the counts of a failed flush for the next one', async () => {
    sut.count(ACCOUNT, 0, DAY, 'account.summary', 1_000_000);
    kv.failures = 1;
    await sut.flush();
    sut.count(ACCOUNT, 0, DAY, 'account.summary', 1_000_000);

    await sut.flush();

    expect(await kv.hgetall(UsageMeterKeys.live(ACCOUNT, 0))).toEqual({ 'account.summary@2027-01-15': '2', 'account.summary@2027-01-15#credits': '2000000' });
  });

  it('counts each call on the day it names, and takes an uncounted call out of that day', async () => {
    sut.count(ACCOUNT, 0, '2027-01-15', 'account.summary', 1_000_000);
    sut.count(ACCOUNT, 0, '2027-01-16', 'account.summary', 1_000_000);
    sut.uncount(ACCOUNT, 0, '2027-01-15', 'account.summary', 1_000_000);
    sut.count(ACCOUNT, 0, '2027-01-15', 'usage.list', 0);

    await sut.flush();

    // The call and its uncount cancel out in memory: nothing is added for that day.
    expect(await kv.hgetall(UsageMeterKeys.live(ACCOUNT, 0))).toEqual({
      'account.summary@2027-01-16': '1',
      'account.summary@2027-01-16#credits': '1000000',
      'usage.list@2027-01-15': '1',
    });
  });

  it('does not run the script when nothing was counted', async () => {
    await sut.flush();

    expect(kv.runs).toBe(0);
  });
});
