import { MemoryKvStore } from '../../infra/kv/memory-kv.store';
import { AppError } from '../../common/errors/app-error';
import { USAGE_HISTORY_MAX_DAYS, UsageHistoryService } from './usage-history.service';
import { CLAIM_BATCH, CLAIM_PREV, CLAIM_SYNCED, UsageMeterKeys } from './usage-meter.format';
import { UsageMeterService } from './usage-meter.service';
import { DurableDailyUsage, UsageRepository } from './usage.repository';

const ACCOUNT = '0b9f3c2e-5d1a-4c6e-9f00-1a2b3c4d5e6f';
// Periods start on the 10th: period 0 from 2027-01-10, period 1 from 2027-02-10.
const ANCHOR = new Date(Date.UTC(2027, 0, 10, 6));
const NOW = new Date(Date.UTC(2027, 1, 12, 9));

/** usage_daily and the meters' last batches as the repository reads them, and the ranges it was asked for. */
class FakeUsageRepository {
  durable: DurableDailyUsage = { counts: [], lastBatchIds: new Map() };
  asked: unknown[] = [];

  async resetAnchorOf(accountId: string): Promise<Date | null> {
    return accountId === ACCOUNT ? ANCHOR : null;
  }

  async findDaily(accountId: string, range: unknown): Promise<DurableDailyUsage> {
    this.asked.push(range);
    return this.durable;
  }
}

describe(UsageHistoryService.name, () => {
  let kv: MemoryKvStore;
  let repository: FakeUsageRepository;
  let meter: UsageMeterService;
  let sut: UsageHistoryService;

  beforeEach(() => {
    kv = new MemoryKvStore();
    repository = new FakeUsageRepository();
    meter = new UsageMeterService(kv, {} as never);
    sut = new UsageHistoryService(kv, repository as unknown as UsageRepository, meter);
  });

  it('adds the live deltas, this replica’s unflushed calls and a claim in flight to the durable days', async () => {
    repository.durable = {
      counts: [
        { day: '2027-02-11', endpoint: 'news.feed', calls: 4, creditsMicro: '4000000' },
        { day: '2027-02-12', endpoint: 'news.feed', calls: 1, creditsMicro: '1000000' },
      ],
      lastBatchIds: new Map([[1, 'batch-1']]),
    };
    kv.data.hset(UsageMeterKeys.claim(ACCOUNT, 1), {
      'news.feed@2027-02-11': '2',
      'news.feed@2027-02-11#credits': '2000000',
      [CLAIM_BATCH]: 'batch-2',
      [CLAIM_PREV]: 'batch-1',
      [CLAIM_SYNCED]: '0',
    });
    kv.data.hset(UsageMeterKeys.live(ACCOUNT, 1), { 'news.search@2027-02-12': '1', 'news.search@2027-02-12#credits': '2000000' });
    meter.count(ACCOUNT, 1, '2027-02-12', 'usage.list', 0);

    expect(await sut.daily(ACCOUNT, { days: 3, now: NOW })).toEqual([
      { date: '2027-02-11', endpoint: 'news.feed', calls: 6, creditsMicro: '6000000' },
      { date: '2027-02-12', endpoint: 'news.feed', calls: 1, creditsMicro: '1000000' },
      { date: '2027-02-12', endpoint: 'news.search', calls: 1, creditsMicro: '2000000' },
      { date: '2027-02-12', endpoint: 'usage.list', calls: 1, creditsMicro: '0' },
    ]);
  });

  it('leaves out a claim the durable days already include', async () => {
    repository.durable = { counts: [{ day: '2027-02-12', endpoint: 'news.feed', calls: 2, creditsMicro: '2000000' }], lastBatchIds: new Map([[1, 'batch-2']]) };
    kv.data.hset(UsageMeterKeys.claim(ACCOUNT, 1), { 'news.feed@2027-02-12': '2', [CLAIM_BATCH]: 'batch-2', [CLAIM_PREV]: 'batch-1', [CLAIM_SYNCED]: '0' });

    expect(await sut.daily(ACCOUNT, { days: 1, now: NOW })).toEqual([{ date: '2027-02-12', endpoint: 'news.feed', calls: 2, creditsMicro: '2000000' }]);
  });

  it('reads the meter of every period the days span, and only the days asked for', async () => {
    kv.data.hset(UsageMeterKeys.live(ACCOUNT, 0), { 'news.feed@2027-01-20': '1', 'news.feed@2027-02-09': '1' });
    kv.data.hset(UsageMeterKeys.live(ACCOUNT, 1), { 'news.feed@2027-02-10': '1' });

    expect(await sut.daily(ACCOUNT, { days: 4, now: NOW })).toEqual([
      { date: '2027-02-09', endpoint: 'news.feed', calls: 1, creditsMicro: '0' },
      { date: '2027-02-10', endpoint: 'news.feed', calls: 1, creditsMicro: '0' },
    ]);
    expect(repository.asked).toEqual([{ from: '2027-02-09', to: '2027-02-12', firstPeriod: 0, lastPeriod: 1 }]);
  });

  it('lists counts kept without a day on today, the day a sync adds them on', async () => {
    kv.data.hset(UsageMeterKeys.live(ACCOUNT, 1), { 'news.feed': '3', 'news.feed#credits': '3000000' });

    expect(await sut.daily(ACCOUNT, { days: 2, now: NOW })).toEqual([{ date: '2027-02-12', endpoint: 'news.feed', calls: 3, creditsMicro: '3000000' }]);
  });

  it('lists no endpoint whose calls were all taken back out', async () => {
    meter.count(ACCOUNT, 1, '2027-02-12', 'news.feed', 1_000_000);
    await meter.flush();
    meter.uncount(ACCOUNT, 1, '2027-02-12', 'news.feed', 1_000_000);

    expect(await sut.daily(ACCOUNT, { days: 1, now: NOW })).toEqual([]);
  });

  it('has no usage for an unknown account', async () => {
    expect(await sut.daily('7d3c0f00-0000-4000-8000-000000000000', { days: 7, now: NOW })).toEqual([]);
  });

  it.each([0, USAGE_HISTORY_MAX_DAYS + 1, 1.5, Number.NaN])('refuses %p days', async (days) => {
    await expect(sut.daily(ACCOUNT, { days, now: NOW })).rejects.toThrow(AppError);
  });
});
