import { randomUUID } from 'node:crypto';
import { Wallet } from 'ethers';
import { DataSource } from 'typeorm';
import { KvStore } from '../../src/infra/kv/kv-store';
import { MemoryKvStore } from '../../src/infra/kv/memory-kv.store';
import { RedisKvStore } from '../../src/infra/kv/redis-kv.store';
import { ApiCaller } from '../../src/modules/account/api-caller';
import { addMonthsUtc } from '../../src/modules/billing/credit-period';
import { addDays, dayStartMs, utcDayOf } from '../../src/modules/billing/usage-day';
import { UsageHistoryService } from '../../src/modules/billing/usage-history.service';
import { USAGE_ADD_RECORD_TTL_MS, UsageMeterKeys } from '../../src/modules/billing/usage-meter.format';
import { ADD_USAGE_SCRIPT } from '../../src/modules/billing/usage-meter.scripts';
import { UsageSyncService } from '../../src/modules/billing/usage-sync.service';
import { UsageTotalsService } from '../../src/modules/billing/usage-totals.service';
import { UsageClaim, UsageRepository } from '../../src/modules/billing/usage.repository';
import { ledgerDrain, redisAdmission } from '../support/billing-kit';
import { openTestDb } from '../support/test-db';
import { TEST_REDIS_URL, uniqueKeyPrefix } from '../support/test-env';

// Histories are read as of the suite's start, so a run across midnight reads the days it counted on.
const NOW = new Date();
const TODAY = utcDayOf(NOW.getTime());
const YESTERDAY = addDays(TODAY, -1);
/** Yesterday, 23:59:59.900 UTC: counted then, flushed and synced after midnight. */
const JUST_BEFORE_MIDNIGHT = dayStartMs(TODAY) - 100;

type DailyTotals = Record<string, Record<string, { calls: number; creditsMicro: number }>>;

/** The repository, but every add fails before it commits (a replica that claims a delta and dies). */
class FailingUsageRepository extends UsageRepository {
  override async add(_claims: UsageClaim[]): Promise<string[]> {
    throw new Error('connection reset before commit');
  }
}

/** One service replica on the store: its meters, its sync, its /usage totals and its history. */
function replica(kv: KvStore, repository: UsageRepository, db: DataSource) {
  const { admission, meter } = redisAdmission(kv, () => ({ balanceMicro: '10000000', epoch: 0, period: 0 }));
  return {
    meter,
    admission,
    sync: new UsageSyncService(kv, repository, meter, {} as never),
    totals: new UsageTotalsService(kv, repository, meter, admission, ledgerDrain(kv, db)),
    history: new UsageHistoryService(kv, repository, meter),
  };
}

describe.each([
  ['Redis', () => RedisKvStore.connect(TEST_REDIS_URL, uniqueKeyPrefix())],
  ['the in-process store', () => new MemoryKvStore()],
])('Usage per UTC day on PostgreSQL and %s', (_name, open: () => KvStore) => {
  let db: DataSource;
  let kv: KvStore;

  beforeAll(async () => {
    db = await openTestDb();
  });
  beforeEach(() => {
    kv = open();
  });
  afterEach(async () => {
    if (kv instanceof RedisKvStore) {
      const prefix = kv.client.options.keyPrefix!;
      await kv.client.eval(`for _, k in ipairs(redis.call('KEYS', ARGV[1])) do redis.call('DEL', k) end`, 0, `${prefix}*`);
    }
    await kv.close();
  });
  afterAll(() => db.destroy());

  async function newAccount(resetAnchorAt = NOW): Promise<ApiCaller> {
    const [{ id }] = await db.query(`INSERT INTO accounts (wallet_address, tier, credit_balance, reset_anchor_at) VALUES ($1, 'pro', 10, $2) RETURNING id`, [
      Wallet.createRandom().address.toLowerCase(),
      resetAnchorAt,
    ]);
    return {
      keyId: `key-${id}`,
      keyPrefix: 'mdk_12345678',
      accountId: id,
      walletAddress: '0xabc',
      tier: 'pro',
      resetAnchorAt,
      resetAnchorText: resetAnchorAt.toISOString(),
      creditSeedMicro: '10000000',
      creditEpoch: 0,
      creditPeriod: 0,
    };
  }

  async function durableDaily(accountId: string): Promise<DailyTotals> {
    const rows: Array<{ day: string; endpoint: string; calls: number; micro: string }> = await db.query(
      `SELECT to_char(day, 'YYYY-MM-DD') AS day, endpoint, calls::int AS calls, (credits * 1000000)::bigint::text AS micro
         FROM usage_daily WHERE account_id = $1 AND (calls <> 0 OR credits <> 0)`,
      [accountId],
    );
    const days: DailyTotals = {};
    for (const r of rows) (days[r.day] ??= {})[r.endpoint] = { calls: r.calls, creditsMicro: Number(r.micro) };
    return days;
  }

  async function periodTotals(accountId: string, period: number): Promise<Array<{ endpoint: string; calls: number; creditsMicro: string }>> {
    return db.query(
      `SELECT endpoint, calls::int AS calls, (credits * 1000000)::bigint::text AS "creditsMicro" FROM usage_counters
        WHERE account_id = $1 AND period = $2 AND (calls <> 0 OR credits <> 0) ORDER BY endpoint`,
      [accountId, period],
    );
  }

  it('puts a free call admitted just before midnight on its day though it is synced after, and takes a failed one out of that day', async () => {
    const caller = await newAccount();
    const { meter, admission, sync, totals, history } = replica(kv, new UsageRepository(db), db);
    const admit = () => admission.admit({ caller, endpoint: 'usage.list', cost: 0, requestId: randomUUID(), nowMs: JUST_BEFORE_MIDNIGHT });
    await admit();
    const failed = await admit();
    await meter.flush();
    await sync.sync();
    expect(await durableDaily(caller.accountId)).toEqual({ [YESTERDAY]: { 'usage.list': { calls: 2, creditsMicro: 0 } } });

    // The failure is settled after midnight: out of yesterday, at once in the history, and once synced.
    await admission.settleFailure(failed.admission, randomUUID());
    expect(await history.daily(caller.accountId, { days: 2, now: NOW })).toEqual([{ date: YESTERDAY, endpoint: 'usage.list', calls: 1, creditsMicro: '0' }]);
    await meter.flush();
    await sync.sync();

    expect(await durableDaily(caller.accountId)).toEqual({ [YESTERDAY]: { 'usage.list': { calls: 1, creditsMicro: 0 } } });
    expect(await periodTotals(caller.accountId, 0)).toEqual([{ endpoint: 'usage.list', calls: 1, creditsMicro: '0' }]);
    expect(await totals.currentPeriod(caller, new Date(JUST_BEFORE_MIDNIGHT))).toEqual([
      { accountId: caller.accountId, period: 0, endpoint: 'usage.list', calls: 1, creditsMicro: '0' },
    ]);
  });

  it('adds counts kept without a day (earlier versions) to the period, and to usage_daily on the day they are synced', async () => {
    const { accountId } = await newAccount();
    const { sync, history } = replica(kv, new UsageRepository(db), db);
    // A live delta as an earlier version flushed it, with a field of this version beside it.
    await kv.run(
      ADD_USAGE_SCRIPT,
      [UsageMeterKeys.dirty, UsageMeterKeys.added(randomUUID()), UsageMeterKeys.live(accountId, 0)],
      [USAGE_ADD_RECORD_TTL_MS, UsageMeterKeys.member(accountId, 0), 2, 'news.feed', 2, 2_000_000, `news.feed@${YESTERDAY}`, 1, 1_000_000],
    );
    expect(await history.daily(accountId, { days: 2, now: NOW })).toEqual([
      { date: YESTERDAY, endpoint: 'news.feed', calls: 1, creditsMicro: '1000000' },
      { date: TODAY, endpoint: 'news.feed', calls: 2, creditsMicro: '2000000' },
    ]);

    await sync.sync();

    const [{ synced_on: syncedOn }] = await db.query(`SELECT to_char((now() AT TIME ZONE 'UTC')::date, 'YYYY-MM-DD') AS synced_on`);
    expect(await durableDaily(accountId)).toEqual({
      [YESTERDAY]: { 'news.feed': { calls: 1, creditsMicro: 1_000_000 } },
      [syncedOn]: { 'news.feed': { calls: 2, creditsMicro: 2_000_000 } },
    });
    expect(await periodTotals(accountId, 0)).toEqual([{ endpoint: 'news.feed', calls: 3, creditsMicro: '3000000' }]);
  });

  it('finishes a claim of counts without a day that a replica left in flight', async () => {
    const { accountId } = await newAccount();
    await kv.run(
      ADD_USAGE_SCRIPT,
      [UsageMeterKeys.dirty, UsageMeterKeys.added(randomUUID()), UsageMeterKeys.live(accountId, 0)],
      [USAGE_ADD_RECORD_TTL_MS, UsageMeterKeys.member(accountId, 0), 1, 'news.feed', 4, 0],
    );
    await replica(kv, new FailingUsageRepository(db), db).sync.sync();
    const { sync, history } = replica(kv, new UsageRepository(db), db);
    expect(await history.daily(accountId, { days: 1, now: NOW })).toEqual([{ date: TODAY, endpoint: 'news.feed', calls: 4, creditsMicro: '0' }]);

    await sync.sync();
    await sync.sync();

    expect(Object.values(await durableDaily(accountId))).toEqual([{ 'news.feed': { calls: 4, creditsMicro: 0 } }]);
    expect(await periodTotals(accountId, 0)).toEqual([{ endpoint: 'news.feed', calls: 4, creditsMicro: '0' }]);
  });

  it('reads the days of every period they span: durable, claimed in flight and live, and none outside the days', async () => {
    // Period 1 began yesterday at noon.
    const caller = await newAccount(addMonthsUtc(new Date(dayStartMs(YESTERDAY) + 12 * 3600_000), -1));
    const dayBefore = addDays(TODAY, -2);
    const { meter, sync, history } = replica(kv, new UsageRepository(db), db);
    meter.count(caller.accountId, 0, addDays(TODAY, -3), 'news.feed', 1_000_000);
    meter.count(caller.accountId, 0, dayBefore, 'news.feed', 1_000_000);
    meter.count(caller.accountId, 1, YESTERDAY, 'news.search', 2_000_000);
    await meter.flush();
    await sync.sync();
    meter.count(caller.accountId, 0, dayBefore, 'news.feed', 1_000_000);
    await meter.flush();
    // Claimed, never added: in flight in period 0.
    await replica(kv, new FailingUsageRepository(db), db).sync.sync();
    meter.count(caller.accountId, 1, TODAY, 'news.search', 2_000_000);
    meter.count(caller.accountId, 1, TODAY, 'usage.list', 0);

    expect(await history.daily(caller.accountId, { days: 3, now: NOW })).toEqual([
      { date: dayBefore, endpoint: 'news.feed', calls: 2, creditsMicro: '2000000' },
      { date: YESTERDAY, endpoint: 'news.search', calls: 1, creditsMicro: '2000000' },
      { date: TODAY, endpoint: 'news.search', calls: 1, creditsMicro: '2000000' },
      { date: TODAY, endpoint: 'usage.list', calls: 1, creditsMicro: '0' },
    ]);
    const other = await newAccount();
    expect(await history.daily(other.accountId, { days: 90, now: NOW })).toEqual([]);
  });
});
