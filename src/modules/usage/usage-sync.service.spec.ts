import { BillingKeys } from '../../common/billing/billing-keys';
import { UsageMeterService } from '../../common/billing/usage-meter.service';
import { MemoryKvStore } from '../../infra/kv/memory-kv.store';
import { UsageSyncService } from './usage-sync.service';
import { UsageCount, UsageRepository } from './usage.repository';

/** The durable copy, in memory: what each upsert wrote, keyed as usage_counters is. */
class RecordingUsageRepository {
  readonly rows = new Map<string, UsageCount>();
  upserts = 0;
  failNext = false;

  async upsert(counts: UsageCount[]): Promise<void> {
    if (this.failNext) {
      this.failNext = false;
      throw new Error('database down');
    }
    this.upserts += 1;
    for (const count of counts) this.rows.set(`${count.accountId}:${count.period}:${count.endpoint}`, count);
  }
}

describe(UsageSyncService.name, () => {
  let kv: MemoryKvStore;
  let repository: RecordingUsageRepository;
  let sut: UsageSyncService;

  /** A meter as UsageMeterService leaves it: the usage hash, and the account marked dirty. */
  async function meter(accountId: string, calls: number): Promise<void> {
    kv.data.hset(BillingKeys.usage(accountId, 3), { 'hl.perp.holders': String(calls), 'hl.perp.holders#credits': String(calls * 2_000_000) });
    await kv.sadd(BillingKeys.usageDirty, BillingKeys.usageMember(accountId, 3));
  }

  beforeEach(() => {
    kv = new MemoryKvStore();
    repository = new RecordingUsageRepository();
    sut = new UsageSyncService(kv, repository as unknown as UsageRepository, {} as UsageMeterService, {} as never);
  });

  it('copies every dirty meter in one run, however many accounts were called', async () => {
    for (let i = 0; i < 1_234; i++) await meter(`account-${i}`, i + 1);

    await sut.sync();

    expect(repository.rows.size).toBe(1_234);
    expect(repository.rows.get('account-1233:3:hl.perp.holders')).toEqual({
      accountId: 'account-1233',
      period: 3,
      endpoint: 'hl.perp.holders',
      calls: 1_234,
      creditsMicro: '2468000000',
    });
    expect(repository.upserts).toBe(3);
    expect(await kv.spop(BillingKeys.usageDirty, 10)).toEqual([]);
  });

  it('puts the members of a round back when its copy fails, for the next run', async () => {
    for (let i = 0; i < 10; i++) await meter(`account-${i}`, 1);
    repository.failNext = true;

    await sut.sync();
    expect(repository.rows.size).toBe(0);

    await sut.sync();
    expect(repository.rows.size).toBe(10);
  });
});
