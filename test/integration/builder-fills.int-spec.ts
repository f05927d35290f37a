import { ConfigService } from '@nestjs/config';
import { DataSource } from 'typeorm';
import { BuilderFillsRepository } from '../../src/modules/builder-fills/builder-fills.repository';
import { BuilderFillsJob } from '../../src/modules/builder-fills/builder-fills.job';
import { OpcRevenueRepository } from '../../src/modules/opc/opc-revenue.repository';
import { PointsLedgerRepository } from '../../src/modules/points/points-ledger.repository';
import { BuilderFillsDay, BuilderFillsSource, DailyBuilderFillsParams } from '../../src/providers/hyperliquid/builder-fills-source';
import { withFillKeys } from '../../src/providers/hyperliquid/fill-identity';
import { HyperliquidInfoClient } from '../../src/providers/hyperliquid/hyperliquid-info.client';
import { BuilderFill, Fill } from '../../src/providers/hyperliquid/hyperliquid.types';
import { openTestDbInOwnSchema } from '../support/test-db';
import { testConfig } from '../support/test-env';

const SERVICE = '0x' + '5'.repeat(40);
const ALICE = '0x' + 'a'.repeat(40);
const BOB = '0x' + 'b'.repeat(40);
const DAY_MS = 86_400_000;
const NOW = Date.parse('2026-11-28T12:00:00Z');
const YESTERDAY = '2026-11-27';
const T0 = Date.parse(`${YESTERDAY}T08:00:00Z`);

type Row = Omit<BuilderFill, 'fillKey' | 'builder' | 'closedPnl' | 'twapId' | 'specialTradeType' | 'isTrigger' | 'tif'>;

/** A builder's daily files, as the stats host would serve them: days listed here are published. */
class FakeFiles implements BuilderFillsSource {
  readonly name = 'fake';
  readonly days = new Map<string, Row[]>();
  readonly asked: string[] = [];
  /** Days whose file cannot be read (the stats host failing). */
  readonly failing = new Set<string>();

  async dailyFills({ builder, day }: DailyBuilderFillsParams): Promise<BuilderFillsDay> {
    this.asked.push(`${builder} ${day}`);
    if (this.failing.has(day)) throw new Error(`stats host: ${day} timed out`);
    const rows = builder === SERVICE ? this.days.get(day) : undefined;
    if (!rows) return { status: 'not-published', builder, day };
    const fills = withFillKeys(rows.map((row) => ({ ...row, builder, closedPnl: '0', twapId: null, specialTradeType: null, isTrigger: null, tif: 'Gtc' })));
    return { status: 'published', builder, day, fills };
  }
}

function fill(over: Partial<Row> & { time: number }): Row {
  return { user: ALICE, coin: 'BTC', side: 'B', px: '100000', sz: '0.01', crossed: true, counterparty: BOB, builderFee: '0.1', ...over };
}

describe(BuilderFillsJob.name, () => {
  let db: DataSource;
  let drop: () => Promise<void>;
  let files: FakeFiles;
  let ownFills: Map<string, Fill[]>;
  /** Wallets whose own fills the info API fails to answer. */
  let unreadable: Set<string>;
  let sut: BuilderFillsJob;

  beforeAll(async () => {
    ({ db, drop } = await openTestDbInOwnSchema('builder_fills', 2));
  });
  afterAll(() => drop());

  beforeEach(async () => {
    await db.query(`TRUNCATE builder_fills, builder_fill_days, points_transactions, points_balances, account_tier_changes, accounts CASCADE`);
    files = new FakeFiles();
    ownFills = new Map();
    unreadable = new Set();
    const info = {
      userFillsByTime: async (user: string, start: number, end = Infinity) => {
        if (unreadable.has(user)) throw new Error(`userFillsByTime ${user}: 502`);
        return (ownFills.get(user) ?? []).filter((f) => f.time >= start && f.time <= end);
      },
      spotMetaAndAssetCtxs: async () => ({ meta: { tokens: [], universe: [] }, ctxs: [] }),
    } as unknown as HyperliquidInfoClient;
    const config = new ConfigService(testConfig({ BUILDER_ADDRESS: SERVICE, BUILDER_FILLS_BACKFILL_DAYS: '3', POINTS_MIN_NOTIONAL_USD: '10' }));
    sut = new BuilderFillsJob(files, info, new BuilderFillsRepository(db), new PointsLedgerRepository(db), new OpcRevenueRepository(db), config as never);
  });

  async function account(wallet: string, tier: string, createdAt: number): Promise<string> {
    const [{ id }] = await db.query(`INSERT INTO accounts (wallet_address, tier, created_at) VALUES ($1, $2, $3) RETURNING id`, [
      wallet,
      tier,
      new Date(createdAt),
    ]);
    await db.query(`INSERT INTO account_tier_changes (account_id, effective_at, tier) VALUES ($1, $2, $3)`, [id, new Date(createdAt), tier]);
    return id;
  }

  const points = (accountId: string) =>
    db.query(
      `SELECT volume_bucket AS bucket, role, volume_usd::text AS volume, vip_tier_snap AS tier, vip_multiplier_snap::text AS multiplier,
              raw_points::text AS raw, points::text AS points, balance_after::text AS "balanceAfter"
         FROM points_transactions WHERE account_id = $1 ORDER BY id`,
      [accountId],
    );

  it('reads each published day once, asks again for one not yet published, and a re-run changes nothing', async () => {
    const alice = await account(ALICE, 'pro', T0 - 30 * DAY_MS);
    files.days.set(YESTERDAY, [fill({ time: T0 }), fill({ time: T0 + 1000, crossed: false })]);

    const first = await sut.run(undefined, undefined, NOW);
    expect(first).toMatchObject({ rows: 2, failures: 0, details: { pointsCredited: 2 } });
    // Three finished days; two were not published and are asked for again next run.
    expect(files.asked).toEqual([`${SERVICE} 2026-11-25`, `${SERVICE} 2026-11-26`, `${SERVICE} ${YESTERDAY}`]);
    const balance = await db.query(
      `SELECT trim_scale(balance)::text AS balance, raw_balance::text AS raw, trim_scale(total_earned)::text AS earned FROM points_balances`,
    );
    expect(balance).toEqual([{ balance: '165', raw: '150', earned: '165' }]);

    files.asked.length = 0;
    const again = await sut.run(undefined, undefined, NOW);
    expect(again).toMatchObject({ rows: 0, details: { pointsCredited: 0 } });
    expect(files.asked).toEqual([`${SERVICE} 2026-11-25`, `${SERVICE} 2026-11-26`]);
    expect(
      await db.query(`SELECT trim_scale(balance)::text AS balance, raw_balance::text AS raw, trim_scale(total_earned)::text AS earned FROM points_balances`),
    ).toEqual(balance);
    expect(await db.query(`SELECT count(*)::int AS n FROM builder_fills`)).toEqual([{ n: 2 }]);

    // The same day read again from scratch (its record lost): still no new rows.
    await db.query(`DELETE FROM builder_fill_days`);
    expect((await sut.run(undefined, undefined, NOW)).rows).toBe(0);
    expect(await points(alice)).toHaveLength(2);
  });

  it('names each day it could not read in its outcome, and goes on with the rest', async () => {
    files.failing.add('2026-11-25');
    files.failing.add('2026-11-26');
    files.days.set(YESTERDAY, [fill({ time: T0 })]);

    const outcome = await sut.run(undefined, undefined, NOW);

    expect(outcome).toMatchObject({
      rows: 1,
      failures: 2,
      failed: [
        `builder fills ${SERVICE} 2026-11-25: stats host: 2026-11-25 timed out`,
        `builder fills ${SERVICE} 2026-11-26: stats host: 2026-11-26 timed out`,
      ],
    });
  });

  it('prices points per bucket, role and the tier at fill time, skips self-matched and small fills, and keeps a running balance', async () => {
    const alice = await account(ALICE, 'free', T0 - DAY_MS);
    const tierChange = T0 + 60_000;
    await db.query(`UPDATE accounts SET tier = 'max' WHERE id = $1`, [alice]);
    await db.query(`INSERT INTO account_tier_changes (account_id, effective_at, tier) VALUES ($1, $2, 'max')`, [alice, new Date(tierChange)]);
    files.days.set(YESTERDAY, [
      fill({ time: T0, px: '2000.5', sz: '0.5' }), // 1000.25 USD taker, Free: floor(100.025) = 100 raw, × 1
      fill({ time: T0 + 1000, px: '999.9', sz: '1', crossed: false }), // 999.9 maker: floor(49.995) = 49
      fill({ time: T0 + 2000, px: '9.99', sz: '1' }), // under the 10 USD minimum: nothing
      fill({ time: T0 + 3000, counterparty: ALICE }), // self-matched: nothing
      fill({ time: tierChange + 1000, px: '1000', sz: '1' }), // after the change to Max: 100 raw × 1.25
      fill({ time: T0 + 4000, user: BOB }), // not an account: stored, no points
    ]);

    await sut.run(undefined, undefined, NOW);

    expect(await points(alice)).toEqual([
      { bucket: 'perp', role: 'taker', volume: '1000.25', tier: 'free', multiplier: '1', raw: '100', points: '100', balanceAfter: '100' },
      { bucket: 'perp', role: 'maker', volume: '999.9', tier: 'free', multiplier: '1', raw: '49', points: '49', balanceAfter: '149' },
      { bucket: 'perp', role: 'taker', volume: '1000', tier: 'max', multiplier: '1.25', raw: '100', points: '125.00', balanceAfter: '274.00' },
    ]);
    expect(await db.query(`SELECT count(*)::int AS n FROM builder_fills`)).toEqual([{ n: 6 }]);
    expect(await db.query(`SELECT rank FROM points_balances WHERE account_id = $1`, [alice])).toEqual([{ rank: 1 }]);
  });

  it("stores today's own fills of account wallets attributed by the fee's rate, and yesterday's file later adds none twice", async () => {
    await account(ALICE, 'pro', T0 - DAY_MS);
    const today = Date.parse('2026-11-28T09:30:00.250Z');
    const own = (time: number, builderFee: string | null, hash: string): Fill =>
      ({ coin: 'ETH', px: '3000', sz: '1', side: 'A', time, crossed: true, builderFee, hash, fee: '1', tid: time }) as unknown as Fill;
    // 3000 × 1 bp = 0.3 (the service's f=10); 0.75 is 2.5 bp (no builder we track); null paid no builder.
    ownFills.set(ALICE, [own(T0 + 5000, '0.3', '0xaaa'), own(today, '0.3', '0xbbb'), own(today + 1, '0.75', '0xccc'), own(today + 2, null, '0xddd')]);

    const first = await sut.run(undefined, undefined, NOW);
    expect(first.rows).toBe(2);
    expect(await db.query(`SELECT tx_hash AS hash, source, builder FROM builder_fills ORDER BY fill_time`)).toEqual([
      { hash: '0xaaa', source: 'user_fills', builder: SERVICE },
      { hash: '0xbbb', source: 'user_fills', builder: SERVICE },
    ]);

    // Yesterday's file comes out with the same fill (whole seconds, a counterparty): the row is confirmed, its hash kept.
    files.days.set(YESTERDAY, [fill({ time: Math.floor((T0 + 5000) / 1000) * 1000, coin: 'ETH', side: 'A', px: '3000.0', sz: '1', builderFee: '0.3' })]);
    expect((await sut.run(undefined, undefined, NOW)).rows).toBe(0);
    expect(await db.query(`SELECT tx_hash AS hash, source FROM builder_fills ORDER BY fill_time`)).toEqual([
      { hash: '0xaaa', source: 'daily_file' },
      { hash: '0xbbb', source: 'user_fills' },
    ]);
  });

  it("gives a day file's fills of account wallets the hash of the wallet's own matching fill, and a points row the hash once it is known", async () => {
    const alice = await account(ALICE, 'pro', T0 - 30 * DAY_MS);
    const own = (time: number, hash: string): Fill =>
      ({ coin: 'BTC', px: '100000.0', sz: '0.010', side: 'B', time, crossed: true, builderFee: '0.1', hash, fee: '1', tid: time }) as unknown as Fill;
    // The wallet's own fills give milliseconds; the file whole seconds. Bob has no account: nobody asks for his fills.
    ownFills.set(ALICE, [own(T0 + 250, '0xa1'), own(T0 + 7_000_400, '0xa2')]);
    files.days.set(YESTERDAY, [fill({ time: T0 }), fill({ time: T0 + 7_000_000 }), fill({ time: T0 + 9_000_000, user: BOB, counterparty: ALICE })]);
    const hashes = () =>
      db.query(
        `SELECT f.user_address AS "user", f.tx_hash AS fill, p.trade_tx_hash AS points FROM builder_fills f
           LEFT JOIN points_transactions p ON p.fill_id = f.id ORDER BY f.fill_time`,
      );

    // Both reads of Alice's fills fail: the day file's hashes and today's own fills.
    unreadable.add(ALICE);
    expect(await sut.run(undefined, undefined, NOW)).toMatchObject({ rows: 3, failures: 2, details: { pointsCredited: 2 } });
    expect(await hashes()).toEqual([
      { user: ALICE, fill: null, points: null },
      { user: ALICE, fill: null, points: null },
      { user: BOB, fill: null, points: null },
    ]);

    // The day read again (its record lost) while the wallet's fills answer: both rows get the hash, no points twice.
    unreadable.clear();
    await db.query(`DELETE FROM builder_fill_days`);
    expect(await sut.run(undefined, undefined, NOW)).toMatchObject({ rows: 0, failures: 0, details: { pointsCredited: 0 } });
    expect(await hashes()).toEqual([
      { user: ALICE, fill: '0xa1', points: '0xa1' },
      { user: ALICE, fill: '0xa2', points: '0xa2' },
      { user: BOB, fill: null, points: null },
    ]);
    expect(await points(alice)).toHaveLength(2);
  });

  it("gives a day file's fill the hash at once when the wallet's own fills answer", async () => {
    await account(ALICE, 'pro', T0 - 30 * DAY_MS);
    ownFills.set(ALICE, [
      { coin: 'BTC', px: '100000', sz: '0.01', side: 'B', time: T0 + 999, crossed: true, builderFee: '0.1', hash: '0xa1' } as unknown as Fill,
    ]);
    files.days.set(YESTERDAY, [fill({ time: T0 })]);

    await sut.run(undefined, undefined, NOW);
    expect(await db.query(`SELECT trade_tx_hash AS hash FROM points_transactions`)).toEqual([{ hash: '0xa1' }]);
  });
});
