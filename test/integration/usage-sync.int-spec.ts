import { randomUUID } from 'node:crypto';
import { Wallet } from 'ethers';
import { DataSource } from 'typeorm';
import { ApiCaller } from '../../src/modules/account/api-caller';
import { EndpointName } from '../../src/modules/billing/credit-costs';
import { addDays, utcDayOf } from '../../src/modules/billing/usage-day';
import { UsageHistoryService } from '../../src/modules/billing/usage-history.service';
import { KvStore } from '../../src/infra/kv/kv-store';
import { MemoryKvStore } from '../../src/infra/kv/memory-kv.store';
import { RedisKvStore } from '../../src/infra/kv/redis-kv.store';
import { UsageMeterKeys } from '../../src/modules/billing/usage-meter.format';
import { FINALIZE_SCRIPT } from '../../src/modules/billing/usage-meter.scripts';
import { UsageSyncService } from '../../src/modules/billing/usage-sync.service';
import { UsageTotalsService } from '../../src/modules/billing/usage-totals.service';
import { UsageClaim, UsageRepository } from '../../src/modules/billing/usage.repository';
import { UsageService } from '../../src/modules/usage/usage.service';
import { ledgerDrain, redisAdmission } from '../support/billing-kit';
import { openTestDb } from '../support/test-db';
import { TEST_REDIS_URL, uniqueKeyPrefix } from '../support/test-env';

const ENDPOINTS: EndpointName[] = ['account.summary', 'hl.perp.holders', 'usage.list'];
const CREDITS_MICRO: Record<string, number> = { 'account.summary': 1_000_000, 'hl.perp.holders': 2_000_000, 'usage.list': 0 };

type Totals = Record<string, { calls: number; creditsMicro: number }>;
/** Totals by day, then endpoint. */
type DailyTotals = Record<string, Totals>;

// Histories are read as of the suite's start, so a run across midnight reads the days it counted on.
const NOW = new Date();
const TODAY = utcDayOf(NOW.getTime());
const DAYS = [addDays(TODAY, -2), addDays(TODAY, -1), TODAY];

/** A small seeded generator, so a failing interleaving can be run again. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The repository, but an add may fail before it commits or, worse, after (the reply lost on the way back). */
class CrashingUsageRepository extends UsageRepository {
  constructor(
    db: DataSource,
    private readonly chance: () => number,
    private readonly failRate: number,
  ) {
    super(db);
  }

  override async add(claims: UsageClaim[]): Promise<string[]> {
    const roll = this.chance();
    if (roll < this.failRate / 2) throw new Error('connection reset before commit');
    const orphans = await super.add(claims);
    if (roll < this.failRate) throw new Error('connection reset after commit');
    return orphans;
  }
}

/** The store, but marking claims synced may fail (the replica dies between its two KV steps). */
function crashingFinalize(kv: KvStore, chance: () => number, failRate: number): KvStore {
  return new Proxy(kv, {
    get(target, prop, receiver) {
      if (prop !== 'run') return Reflect.get(target, prop, receiver);
      return (script: { name: string }, keys: string[], args: unknown[]) => {
        if (script.name === FINALIZE_SCRIPT.name && chance() < failRate) return Promise.reject(new Error('replica died'));
        return (target.run as (...a: unknown[]) => Promise<unknown>)(script, keys, args);
      };
    },
  });
}

/** One service replica: its own in-memory counts, its own sync, its own /usage and history readers. */
function replica(kv: KvStore, repository: UsageRepository, db: DataSource) {
  const { admission, meter } = redisAdmission(kv, () => ({ balanceMicro: '10000000', epoch: 0, period: 0 }));
  return {
    meter,
    sync: new UsageSyncService(kv, repository, meter, {} as never),
    usage: new UsageService(new UsageTotalsService(kv, repository, meter, admission, ledgerDrain(kv, db))),
    history: new UsageHistoryService(kv, repository, meter),
  };
}

/** A history read (UsageHistoryService.daily) as totals by day. */
function toDailyTotals(rows: Array<{ date: string; endpoint: string; calls: number; creditsMicro: string }>): DailyTotals {
  const days: DailyTotals = {};
  for (const r of rows) (days[r.date] ??= {})[r.endpoint] = { calls: r.calls, creditsMicro: Number(r.creditsMicro) };
  return days;
}

const caller = (accountId: string) => ({ accountId, resetAnchorAt: new Date() }) as ApiCaller;

function toTotals(rows: Array<{ endpoint: string; calls: number; credits: string }>): Totals {
  return Object.fromEntries(rows.map((r) => [r.endpoint, { calls: r.calls, creditsMicro: Math.round(Number(r.credits) * 1_000_000) }]));
}

/**
 * Connections to one store as separate replicas would have them: Redis connections sharing one key prefix,
 * or the one in-process store (replicas then are concurrent tasks of one process).
 */
function redisStores(): () => KvStore {
  const prefix = uniqueKeyPrefix();
  return () => RedisKvStore.connect(TEST_REDIS_URL, prefix);
}

/** Deletes every key the test wrote (only under its own prefix). */
async function wipe(store: KvStore): Promise<void> {
  if (!(store instanceof RedisKvStore)) return;
  const prefix = store.client.options.keyPrefix!;
  await store.client.eval(`for _, k in ipairs(redis.call('KEYS', ARGV[1])) do redis.call('DEL', k) end`, 0, `${prefix}*`);
}
function memoryStores(): () => KvStore {
  const store = new MemoryKvStore();
  return () => store;
}

describe.each([
  ['Redis', redisStores],
  ['the in-process store', memoryStores],
])('Usage sync on PostgreSQL and %s', (_name, stores) => {
  let db: DataSource;
  let connect: () => KvStore;
  let kv: KvStore;
  let opened: KvStore[];

  beforeAll(async () => {
    db = await openTestDb();
  });
  beforeEach(() => {
    const open = stores();
    opened = [];
    connect = () => {
      const store = open();
      opened.push(store);
      return store;
    };
    kv = connect();
  });
  afterEach(async () => {
    await wipe(kv);
    for (const store of new Set(opened)) await store.close();
  });
  afterAll(() => db.destroy());

  async function newAccount(): Promise<string> {
    const [{ id }] = await db.query(`INSERT INTO accounts (wallet_address, tier) VALUES ($1, 'pro') RETURNING id`, [
      Wallet.createRandom().address.toLowerCase(),
    ]);
    return id;
  }

  async function durable(accountId: string): Promise<Totals> {
    const rows = await db.query(`SELECT endpoint, calls::int AS calls, credits::text AS credits FROM usage_counters WHERE account_id = $1 AND period = 0`, [
      accountId,
    ]);
    return toTotals(rows.filter((r: { calls: number; credits: string }) => r.calls !== 0 || Number(r.credits) !== 0));
  }

  /** usage_daily of the account, by day; checked to sum, endpoint by endpoint, to the period's usage_counters. */
  async function durableDaily(accountId: string): Promise<DailyTotals> {
    const rows: Array<{ day: string; endpoint: string; calls: number; credits: string }> = await db.query(
      `SELECT to_char(day, 'YYYY-MM-DD') AS day, endpoint, calls::int AS calls, credits::text AS credits FROM usage_daily WHERE account_id = $1`,
      [accountId],
    );
    const days: DailyTotals = {};
    const sums: Totals = {};
    for (const r of rows.filter((row) => row.calls !== 0 || Number(row.credits) !== 0)) {
      const t = toTotals([r])[r.endpoint];
      (days[r.day] ??= {})[r.endpoint] = t;
      const sum = (sums[r.endpoint] ??= { calls: 0, creditsMicro: 0 });
      sum.calls += t.calls;
      sum.creditsMicro += t.creditsMicro;
    }
    expect(Object.fromEntries(Object.entries(sums).filter(([, t]) => t.calls !== 0 || t.creditsMicro !== 0))).toEqual(await durable(accountId));
    return days;
  }

  it('answers /usage and the history exactly while a delta is claimed but not added, and once added but not yet marked synced', async () => {
    const accountId = await newAccount();
    let failing: 'add' | 'finalize' | undefined;
    const failWhen = (step: string) => () => (failing === step ? 0 : 1);
    const flaky = crashingFinalize(kv, failWhen('finalize'), 0.5);
    const { meter, sync, usage, history } = replica(flaky, new CrashingUsageRepository(db, failWhen('add'), 0.5), db);
    const read = async () => {
      const totals = toTotals(await usage.currentPeriod(caller(accountId)));
      // Every call is today's, so the history's one day is the period's totals.
      expect(toDailyTotals(await history.daily(accountId, { days: 7, now: NOW }))).toEqual({ [TODAY]: totals });
      return totals;
    };
    const holders = (calls: number) => ({ calls, creditsMicro: calls * 2_000_000 });
    const usageList = (calls: number) => ({ calls, creditsMicro: 0 });
    for (let i = 0; i < 3; i++) meter.count(accountId, 0, TODAY, 'hl.perp.holders', 2_000_000);
    await meter.flush();

    failing = 'add';
    await sync.sync();
    // Claimed in the KV store, not in PostgreSQL: counted from the claim.
    expect(await durable(accountId)).toEqual({});
    expect(await read()).toEqual({ 'hl.perp.holders': holders(3) });

    failing = 'finalize';
    meter.count(accountId, 0, TODAY, 'hl.perp.holders', 2_000_000);
    await sync.sync();
    // Added in PostgreSQL and still a claim in the KV store: counted once; the newer call is still live.
    expect(await durableDaily(accountId)).toEqual({ [TODAY]: { 'hl.perp.holders': holders(3) } });
    expect(await read()).toEqual({ 'hl.perp.holders': holders(4) });

    failing = undefined;
    meter.count(accountId, 0, TODAY, 'usage.list', 0);
    await meter.flush();
    // The retry of the claim already added adds nothing, to either table.
    await sync.sync();
    expect(await durableDaily(accountId)).toEqual({ [TODAY]: { 'hl.perp.holders': holders(4), 'usage.list': usageList(1) } });
    expect(await read()).toEqual({ 'hl.perp.holders': holders(4), 'usage.list': usageList(1) });
    expect(await kv.hgetall(UsageMeterKeys.syncing)).toEqual({});
  });

  it('adds a claim listed twice in one add once', async () => {
    const accountId = await newAccount();
    const sut = new UsageRepository(db);
    const claim: UsageClaim = {
      accountId,
      period: 0,
      batchId: randomUUID(),
      prevBatchId: null,
      counts: [
        { accountId, period: 0, endpoint: 'usage.list', day: DAYS[1], calls: 2, creditsMicro: '0' },
        { accountId, period: 0, endpoint: 'usage.list', day: TODAY, calls: 1, creditsMicro: '0' },
      ],
    };
    const next: UsageClaim = { ...claim, batchId: randomUUID(), prevBatchId: claim.batchId };

    expect(await sut.add([claim, claim])).toEqual([]);
    expect(await sut.add([next, next])).toEqual([]);
    // Retried, alone and together: both already added.
    expect(await sut.add([claim])).toEqual([]);
    expect(await sut.add([next, claim])).toEqual([]);

    expect(await durableDaily(accountId)).toEqual({
      [DAYS[1]]: { 'usage.list': { calls: 4, creditsMicro: 0 } },
      [TODAY]: { 'usage.list': { calls: 2, creditsMicro: 0 } },
    });
  });

  it('adds a delta once when a claim handed over by another replica turns out stale and the live delta moves in the same run', async () => {
    const accountId = await newAccount();
    const calls = (r: ReturnType<typeof replica>, n: number) => {
      for (let i = 0; i < n; i++) r.meter.count(accountId, 0, TODAY, 'hl.perp.holders', 2_000_000);
      return r.meter.flush();
    };
    const other = replica(kv, new UsageRepository(db), db);
    await calls(other, 1);
    await other.sync.sync();
    // A replica claims the next delta and dies before adding it: the claim stays in flight.
    const dying = replica(kv, new CrashingUsageRepository(db, () => 0, 1), db);
    await calls(dying, 2);
    await dying.sync.sync();
    // This replica picks up that claim; while it is on its way to PostgreSQL, another replica adds it,
    // moves a newer delta after it, and a third delta is counted.
    let held = true;
    const slow = new (class extends UsageRepository {
      override async add(claims: UsageClaim[]): Promise<string[]> {
        if (held) {
          held = false;
          await other.sync.sync();
          await calls(other, 4);
          await other.sync.sync();
          await calls(other, 8);
        }
        return super.add(claims);
      }
    })(db);
    const { sync } = replica(kv, slow, db);

    // Its add finds the handed-over claim stale, then its second pass moves the third delta.
    await sync.sync();

    expect(await durableDaily(accountId)).toEqual({ [TODAY]: { 'hl.perp.holders': { calls: 15, creditsMicro: 30_000_000 } } });
    expect(await kv.hgetall(UsageMeterKeys.syncing)).toEqual({});
  });

  it('adds every call exactly once across replicas that count, refund, sync, crash and read at the same time', async () => {
    const accounts = [await newAccount(), await newAccount(), await newAccount()];
    const chance = random(17);
    const connections = [kv, connect(), connect(), connect()];
    const replicas = connections.map((store) => replica(crashingFinalize(store, chance, 0.2), new CrashingUsageRepository(db, chance, 0.2), db));
    // Net usage per flush is never negative (a refund follows its call), so the true totals only grow:
    // `landed` counts a flush once it is in the store, `sent` as soon as it starts, and any read must fall between.
    const landed: Record<string, Totals> = Object.fromEntries(accounts.map((a) => [a, {}]));
    const sent: Record<string, Totals> = Object.fromEntries(accounts.map((a) => [a, {}]));
    const add = (into: Record<string, Totals>, accountId: string, endpoint: string, calls: number, creditsMicro: number) => {
      const t = (into[accountId][endpoint] ??= { calls: 0, creditsMicro: 0 });
      t.calls += calls;
      t.creditsMicro += creditsMicro;
    };
    const snapshot = (of: Record<string, Totals>, accountId: string) => JSON.parse(JSON.stringify(of[accountId])) as Totals;
    // The same by day, for usage_daily and the history read.
    const landedDaily: Record<string, DailyTotals> = Object.fromEntries(accounts.map((a) => [a, {}]));
    const sentDaily: Record<string, DailyTotals> = Object.fromEntries(accounts.map((a) => [a, {}]));
    const addDaily = (into: Record<string, DailyTotals>, accountId: string, day: string, endpoint: string, calls: number, creditsMicro: number) => {
      const t = ((into[accountId][day] ??= {})[endpoint] ??= { calls: 0, creditsMicro: 0 });
      t.calls += calls;
      t.creditsMicro += creditsMicro;
    };
    const snapshotDaily = (of: Record<string, DailyTotals>, accountId: string) => JSON.parse(JSON.stringify(of[accountId])) as DailyTotals;
    let reads = 0;

    await Promise.all(
      replicas.map(async (r) => {
        for (let step = 0; step < 60; step++) {
          const accountId = accounts[Math.floor(chance() * accounts.length)];
          const endpoint = ENDPOINTS[Math.floor(chance() * ENDPOINTS.length)];
          const credits = CREDITS_MICRO[endpoint];
          const day = DAYS[Math.floor(chance() * DAYS.length)];
          const calls = 1 + Math.floor(chance() * 3) - (chance() < 0.3 ? 1 : 0);
          for (let i = 0; i < calls; i++) r.meter.count(accountId, 0, day, endpoint, credits);
          if (chance() < 0.3) {
            r.meter.count(accountId, 0, day, endpoint, credits);
            r.meter.uncount(accountId, 0, day, endpoint, credits);
          }
          add(sent, accountId, endpoint, calls, calls * credits);
          addDaily(sentDaily, accountId, day, endpoint, calls, calls * credits);
          await r.meter.flush();
          add(landed, accountId, endpoint, calls, calls * credits);
          addDaily(landedDaily, accountId, day, endpoint, calls, calls * credits);
          if (chance() < 0.4) await r.sync.sync();
          if (chance() < 0.3) {
            const low = snapshot(landed, accountId);
            const lowDaily = snapshotDaily(landedDaily, accountId);
            const seen = toTotals(await r.usage.currentPeriod(caller(accountId)));
            const seenDaily = toDailyTotals(await r.history.daily(accountId, { days: DAYS.length, now: NOW }));
            const high = snapshot(sent, accountId);
            const highDaily = snapshotDaily(sentDaily, accountId);
            reads += 1;
            const within = (seenTotals: Totals, lowTotals: Totals = {}, highTotals: Totals = {}) => {
              for (const e of ENDPOINTS) {
                expect(seenTotals[e]?.calls ?? 0).toBeGreaterThanOrEqual(lowTotals[e]?.calls ?? 0);
                expect(seenTotals[e]?.calls ?? 0).toBeLessThanOrEqual(highTotals[e]?.calls ?? 0);
                expect(seenTotals[e]?.creditsMicro ?? 0).toBeGreaterThanOrEqual(lowTotals[e]?.creditsMicro ?? 0);
                expect(seenTotals[e]?.creditsMicro ?? 0).toBeLessThanOrEqual(highTotals[e]?.creditsMicro ?? 0);
              }
            };
            within(seen, low, high);
            for (const d of DAYS) within(seenDaily[d] ?? {}, lowDaily[d], highDaily[d]);
          }
        }
      }),
    );

    // Every replica's last runs, with no failures left to inject.
    const clean = connections.map((store) => replica(store, new UsageRepository(db), db));
    for (const r of clean) await r.sync.sync();
    for (const accountId of accounts) {
      const expected = Object.fromEntries(Object.entries(landed[accountId]).filter(([, t]) => t.calls !== 0 || t.creditsMicro !== 0));
      expect(await durable(accountId)).toEqual(expected);
      expect(toTotals(await clean[0].usage.currentPeriod(caller(accountId)))).toEqual(expected);
      const expectedDaily = Object.fromEntries(
        Object.entries(landedDaily[accountId])
          .map(([d, totals]) => [d, Object.fromEntries(Object.entries(totals).filter(([, t]) => t.calls !== 0 || t.creditsMicro !== 0))])
          .filter(([, totals]) => Object.keys(totals).length > 0),
      );
      expect(await durableDaily(accountId)).toEqual(expectedDaily);
      expect(toDailyTotals(await clean[0].history.daily(accountId, { days: DAYS.length, now: NOW }))).toEqual(expectedDaily);
    }
    expect(reads).toBeGreaterThan(10);
    expect(await kv.hgetall(UsageMeterKeys.syncing)).toEqual({});
  });
});
