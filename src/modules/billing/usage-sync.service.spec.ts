import { Logger } from '@nestjs/common';
import { Counter, Gauge } from 'prom-client';
import { KvArg, KvScript } from '../../infra/kv/kv-store';
import { MemoryKvStore } from '../../infra/kv/memory-kv.store';
import { usageSyncFailures, usageSyncLag } from '../../infra/metrics/metrics';
import { UsageMeterKeys } from './usage-meter.format';
import { UsageMeterService } from './usage-meter.service';
import { FINALIZE_SCRIPT } from './usage-meter.scripts';
import { UsageSyncService } from './usage-sync.service';
import { UsageClaim, UsageRepository } from './usage.repository';

/** usage_counters and the batch bookkeeping in memory, with the repository's rules (see UsageRepository.add). */
class RecordingUsageRepository {
  readonly totals = new Map<string, { calls: number; creditsMicro: bigint }>();
  readonly lastBatch = new Map<string, string>();
  readonly roots = new Set<string>();
  adds = 0;
  failNext = false;

  async add(claims: UsageClaim[]): Promise<string[]> {
    if (this.failNext) {
      this.failNext = false;
      throw new Error('database down');
    }
    this.adds += 1;
    const orphans: string[] = [];
    for (const claim of claims) {
      const meter = `${claim.accountId}:${claim.period}`;
      const last = this.lastBatch.get(meter);
      if (claim.prevBatchId === null ? this.roots.has(claim.batchId) : last !== claim.prevBatchId) {
        if (claim.prevBatchId !== null && last !== claim.batchId) orphans.push(claim.batchId);
        continue;
      }
      if (claim.prevBatchId === null) this.roots.add(claim.batchId);
      this.lastBatch.set(meter, claim.batchId);
      for (const count of claim.counts) {
        const key = `${meter}:${count.endpoint}`;
        const total = this.totals.get(key) ?? { calls: 0, creditsMicro: 0n };
        this.totals.set(key, { calls: total.calls + count.calls, creditsMicro: total.creditsMicro + BigInt(count.creditsMicro) });
      }
    }
    return orphans;
  }
}

/** The in-process store, but a chosen script can be made to fail once (a crash between two steps). */
class FlakyKvStore extends MemoryKvStore {
  failOnce?: string;

  override async run<T>(script: KvScript<T>, keys: string[], args: KvArg[]): Promise<T> {
    if (script.name === this.failOnce) {
      this.failOnce = undefined;
      throw new Error('connection lost');
    }
    return super.run(script, keys, args);
  }
}

describe(UsageSyncService.name, () => {
  let kv: FlakyKvStore;
  let repository: RecordingUsageRepository;
  let meter: UsageMeterService;
  let sut: UsageSyncService;

  /** Calls as UsageMeterService adds them to the KV store (2 credits each). */
  async function call(accountId: string, calls: number): Promise<void> {
    for (let i = 0; i < calls; i++) meter.count(accountId, 3, '2027-01-15', 'hl.perp.holders', 2_000_000);
    await meter.flush();
  }

  beforeEach(() => {
    kv = new FlakyKvStore();
    repository = new RecordingUsageRepository();
    meter = new UsageMeterService(kv, {} as never);
    sut = new UsageSyncService(kv, repository as unknown as UsageRepository, meter, {} as never);
    jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => jest.restoreAllMocks());

  it('moves every dirty meter in one run, however many accounts were called', async () => {
    for (let i = 0; i < 1_234; i++) await call(`account-${i}`, i + 1);

    await sut.sync();

    expect(repository.totals.size).toBe(1_234);
    expect(repository.totals.get('account-1233:3:hl.perp.holders')).toEqual({ calls: 1_234, creditsMicro: 2_468_000_000n });
    expect(repository.adds).toBe(3);
    expect(await kv.hgetall(UsageMeterKeys.live('account-1233', 3))).toEqual({});
    expect(await kv.hgetall(UsageMeterKeys.syncing)).toEqual({});
  });

  it('adds to the totals rather than replacing them, so a store that starts empty keeps the history', async () => {
    await call('a', 5);
    await sut.sync();
    // What a restart of the in-process store, or Redis losing its data, leaves: nothing.
    kv = new FlakyKvStore();
    meter = new UsageMeterService(kv, {} as never);
    sut = new UsageSyncService(kv, repository as unknown as UsageRepository, meter, {} as never);

    await call('a', 2);
    await sut.sync();

    expect(repository.totals.get('a:3:hl.perp.holders')).toEqual({ calls: 7, creditsMicro: 14_000_000n });
  });

  it('adds a failed call taken back out exactly, even when the call and its refund are synced apart', async () => {
    await call('a', 3);
    await sut.sync();
    meter.uncount('a', 3, '2027-01-15', 'hl.perp.holders', 2_000_000);
    await meter.flush();
    await sut.sync();

    expect(repository.totals.get('a:3:hl.perp.holders')).toEqual({ calls: 2, creditsMicro: 4_000_000n });
  });

  it('keeps a delta whose add failed and adds it on the next run', async () => {
    await call('a', 4);
    repository.failNext = true;

    await sut.sync();
    expect(repository.totals.size).toBe(0);
    await call('a', 1);
    await sut.sync();

    expect(repository.totals.get('a:3:hl.perp.holders')).toEqual({ calls: 5, creditsMicro: 10_000_000n });
  });

  it('adds a delta once when the run stopped between adding it and marking it synced', async () => {
    await call('a', 4);
    kv.failOnce = FINALIZE_SCRIPT.name;

    await sut.sync();
    expect(repository.totals.get('a:3:hl.perp.holders')?.calls).toBe(4);
    await call('a', 1);
    await sut.sync();

    expect(repository.totals.get('a:3:hl.perp.holders')).toEqual({ calls: 5, creditsMicro: 10_000_000n });
    // The retried claim (skipped: its batch id is there) and the new delta.
    expect(repository.adds).toBe(3);
  });

  it('adds, by its own id, a delta whose predecessor the database does not have as its last batch', async () => {
    await call('a', 2);
    await sut.sync();
    // As if PostgreSQL were restored from a backup taken before that sync.
    repository.lastBatch.clear();
    jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    await call('a', 3);
    await sut.sync();
    await call('a', 1);
    await sut.sync();

    expect(repository.totals.get('a:3:hl.perp.holders')?.calls).toBe(6);
    expect(Logger.prototype.warn).toHaveBeenCalledTimes(1);
  });

  it('logs a failing run with its error instead of dropping it', async () => {
    await call('a', 1);
    repository.failNext = true;

    await sut.sync();

    expect(Logger.prototype.error).toHaveBeenCalledWith(expect.stringContaining('usage sync failed: database down'));
  });

  it('counts a failed run, and reports as its lag the time since this replica last synced', async () => {
    const failuresBefore = await counterValue(usageSyncFailures);
    const startedAt = Date.now();
    await call('a', 1);
    repository.failNext = true;
    jest.spyOn(Date, 'now').mockReturnValue(startedAt + 30_000);

    await sut.sync();

    expect(await counterValue(usageSyncFailures)).toBe(failuresBefore + 1);
    expect(await counterValue(usageSyncLag)).toBeGreaterThanOrEqual(30);

    await sut.sync();

    expect(await counterValue(usageSyncFailures)).toBe(failuresBefore + 1);
    expect(await counterValue(usageSyncLag)).toBe(0);
  });
});

/** The value of an unlabelled series (shared by every app in this process: compare before and after). */
async function counterValue(metric: Counter | Gauge): Promise<number> {
  return (await metric.get()).values[0]?.value ?? 0;
}
