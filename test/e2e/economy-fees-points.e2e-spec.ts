import { BuilderFill } from '../../src/providers/hyperliquid/hyperliquid.types';
import { SIMULATED_SERVICE_BUILDER } from '../../src/simulator/world/builders';
import { AccountAdminService } from '../../src/modules/account/account-admin.service';
import { POINTS_PER_USD } from '../../src/modules/points/points-rules';
import { Decimal } from '../../src/common/decimal/decimal';
import BigNumber from 'bignumber.js';
import { TestApp } from '../support/create-test-app';
import { builderFile, signInTraders, startEconomyStack, Trader, walletOf } from '../support/economy-stack';
import { Simulator, runJob } from '../support/hl-stack';
import { get } from '../support/http';

const DAY_MS = 86_400_000;

describe('Builder fees and points, from the simulator’s builder fills, signed in as simulated traders', () => {
  let sim: Simulator;
  let t: TestApp;
  let trader: Trader;
  let yesterday: string;
  let fileRows: BuilderFill[];

  beforeAll(async () => {
    ({ sim, t } = await startEconomyStack());
    // The trader with the most fills through the service's builder yesterday, whichever day that is.
    yesterday = new Date(Math.floor(Date.now() / DAY_MS) * DAY_MS - DAY_MS).toISOString().slice(0, 10);
    const file = await builderFile(sim, SIMULATED_SERVICE_BUILDER, yesterday);
    const counts = new Map<string, number>();
    for (const row of file) counts.set(row.user, (counts.get(row.user) ?? 0) + 1);
    const [busiest] = [...counts].sort((a, b) => b[1] - a[1])[0];
    [trader] = await signInTraders(t, [walletOf(sim, busiest)]);
    expect((await runJob(t, 'economy.builder-fills')).status).toBe('ok');
    fileRows = file.filter((row) => row.user === trader.address);
    expect(fileRows.length).toBeGreaterThan(0);
  });
  afterAll(async () => {
    await t.close();
    await sim.close();
  });

  it("lists one fee record per fill of yesterday's file, priced at the base rate and the tier's discount", async () => {
    const res = await get(t, `/account/fees?startTime=${yesterday}&endTime=${Date.parse(yesterday) + DAY_MS}&limit=500`, trader.key);
    expect(res.status).toBe(200);
    const records: Array<{ txHash: string | null; svcFee: string; vipDiscountRate: string; svcFeeDiscounted: string; tradeTime: string }> = res.body.data.items;
    expect(res.body.data).toMatchObject({ page: 1, limit: 500, total: null, hasMore: false });
    expect(records.map((r) => r.tradeTime).sort()).toEqual(fileRows.map((row) => new Date(row.time).toISOString()).sort());
    const expected = fileRows.map((row) => new Decimal(row.px).times(row.sz).times('0.0001').decimalPlaces(6, BigNumber.ROUND_HALF_UP).toFixed()).sort();
    expect(records.map((r) => r.svcFee).sort()).toEqual(expected);
    for (const record of records) {
      // The fills were made before the account existed: Free's discount, 0.
      expect(record.vipDiscountRate).toBe('0');
      expect(record.svcFeeDiscounted).toBe(record.svcFee);
    }
    const times = records.map((r) => r.tradeTime);
    expect(times).toEqual([...times].sort().reverse());
  });

  it('refuses a window wider than 31 days, an end before its start and an unparseable time, naming the field, unbilled', async () => {
    const before = (await get(t, '/account/credits', trader.key)).body.data.balance;
    const cases: Array<[string, string]> = [
      ['?startTime=2026-01-01T00:00:00Z&endTime=2026-02-01T00:00:01Z', 'endTime'],
      [`?startTime=${Date.parse('2026-02-01')}&endTime=${Date.parse('2026-01-01')}`, 'endTime'],
      ['?startTime=last-week', 'startTime'],
      ['?endTime=2026-01-01T00:00:00', 'endTime'],
      ['?limit=501', 'limit'],
    ];
    for (const [query, field] of cases) {
      const res = await get(t, `/account/fees${query}`, trader.key);
      expect({ query, status: res.status, code: res.body.code, field: String(res.body.msg).split(':')[0] }).toEqual({
        query,
        status: 400,
        code: 'VALIDATION_ERROR',
        field,
      });
    }
    const exactly31 = await get(t, `/account/fees?startTime=2026-01-01T00:00:00Z&endTime=2026-02-01T00:00:00Z`, trader.key);
    expect(exactly31.status).toBe(200);
    // Only the one that answered 200 (and the credits read itself) cost a credit.
    const after = (await get(t, '/account/credits', trader.key)).body.data.balance;
    expect(new Decimal(before).minus(after).toFixed()).toBe('2');
  });

  it('credits points per fill with exact arithmetic and a running balance; the overview sums them', async () => {
    const all: Array<Record<string, string>> = [];
    for (let page = 1; ; page++) {
      const res = await get(t, `/account/points/transactions?limit=100&page=${page}`, trader.key);
      expect(res.status).toBe(200);
      all.push(...res.body.data.items);
      if (!res.body.data.hasMore) break;
    }
    expect(all.length).toBeGreaterThan(0);
    const oldestFirst = [...all].reverse();
    let balance = new Decimal(0);
    for (const tx of oldestFirst) {
      const rate = POINTS_PER_USD[tx.volumeBucket as 'perp' | 'spot'][tx.role as 'taker' | 'maker'];
      expect(tx.rawPoints).toBe(new Decimal(tx.volumeUsd).times(rate).integerValue(BigNumber.ROUND_FLOOR).toFixed());
      expect([tx.vipTierSnap, tx.vipMultiplierSnap]).toEqual(['Free', '1']);
      expect(tx.points).toBe(new Decimal(tx.rawPoints).times(tx.vipMultiplierSnap).toFixed());
      balance = balance.plus(tx.points);
      expect(tx.balanceAfter).toBe(balance.toFixed());
      expect([tx.sourceType, tx.eventTimeSource]).toEqual(['trade', 'fill']);
    }
    const overview = (await get(t, '/account/points', trader.key)).body.data;
    expect(overview).toMatchObject({ walletAddress: trader.address, balance: balance.toFixed(), totalEarned: balance.toFixed(), rank: 1 });
    const raw = overview.buckets.reduce((sum: number, b: { rawPoints: number }) => sum + b.rawPoints, 0);
    expect(overview.rawBalance).toBe(raw);
    expect(overview.buckets.map((b: { bucket: string }) => b.bucket)).toEqual(['perp', 'spot']);
    expect((await get(t, '/account/points/transactions?bucket=spot', trader.key)).body.data.items).toEqual(
      all.filter((tx) => tx.volumeBucket === 'spot').slice(0, 20),
    );
    expect((await get(t, '/account/points/transactions?bucket=futures', trader.key)).status).toBe(400);
  });

  it('keeps points of earlier fills at the tier they were made on when the tier changes; a re-run repeats none', async () => {
    const history = async () => (await get(t, '/account/points/transactions?limit=100', trader.key)).body.data.items as Array<Record<string, string>>;
    const before = await history();
    const changedAt = new Date().toISOString();
    await t.app.get(AccountAdminService).setTier({ wallet: trader.address, tier: 'max' });
    expect((await runJob(t, 'economy.builder-fills')).status).toBe('ok');
    const after = await history();
    // Fills the simulator made since the first run may have arrived: each priced at the tier of its own time.
    expect(after.slice(after.length - before.length)).toEqual(before);
    for (const { eventAt, vipTierSnap } of after) expect({ eventAt, vipTierSnap }).toEqual({ eventAt, vipTierSnap: eventAt >= changedAt ? 'Max' : 'Free' });
    expect(new Set(after.map((tx) => tx.id)).size).toBe(after.length);
  });
});
