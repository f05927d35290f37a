import { DataSource } from 'typeorm';
import { HlCatalogService } from '../../src/modules/hl/hl-catalog.service';
import { startSimulator } from '../../src/simulator/simulator.server';
import { TestApp } from '../support/create-test-app';
import { makeAccount } from '../support/factories';
import { FaultProxy } from '../support/fault-proxy';
import { createHlApp, runAllJobs, runJob, Simulator } from '../support/hl-stack';
import { get } from '../support/http';
import { resetDb } from '../support/reset-db';

/** Every /hl answer that says how old its data is, by endpoint. */
interface Freshness {
  times: Record<string, string>;
  snapshotHeight: number;
  trendingPerp: unknown[];
}

/**
 * The next polling round reads every address again, as the cadence would once its interval passed: the
 * rounds of this test run back to back, long before any address is due by itself.
 */
async function makeEveryAddressDue(db: DataSource): Promise<void> {
  await db.query(`UPDATE hl_addresses SET next_poll_at = now() WHERE NOT is_vault`);
}

describe('Exchange-chain freshness: updatedAt is when the data was read from the exchange', () => {
  let sim: Simulator;
  let exchange: FaultProxy;
  let t: TestApp;
  let key: string;
  let spotCoin: string;
  let hip3Coin: string;

  async function readFreshness(): Promise<Freshness> {
    // This process just published: serve the new snapshot now rather than within the catalogue's 1 s.
    t.app.get(HlCatalogService).invalidate();
    const answers = {
      spotHolders: await get(t, `/hl/spot/holders?coin=${encodeURIComponent(spotCoin)}&limit=5`, key),
      perpHolders: await get(t, '/hl/perp/holders?coin=BTC&limit=5', key),
      leaderboard: await get(t, '/hl/leaderboard?limit=5', key),
      hip3: await get(t, `/hl/hip3/smart-trader?coin=${encodeURIComponent(hip3Coin)}`, key),
      hip4: await get(t, '/hl/hip4/smart-trader?outcomeId=0', key),
      trending: await get(t, '/hl/trending?market=perp', key),
    };
    for (const [name, res] of Object.entries(answers)) expect([name, res.status]).toEqual([name, 200]);
    const { trending, ...withUpdatedAt } = answers;
    const times = Object.fromEntries(Object.entries(withUpdatedAt).map(([name, res]) => [name, res.body.data.updatedAt as string]));
    times.trending = trending.body.data.snapshot_time;
    return { times, snapshotHeight: trending.body.data.snapshot_height, trendingPerp: trending.body.data.perp.items };
  }

  beforeAll(async () => {
    sim = await startSimulator({ wallets: 120, seed: 17, weightPerMinute: 0 });
    exchange = await FaultProxy.start({ host: sim.host, port: sim.port });
    t = await createHlApp(sim, {
      HYPERLIQUID_INFO_URL: exchange.urlFor(sim.infoUrl),
      HYPERLIQUID_STATS_URL: exchange.urlFor(sim.statsUrl),
      // A refused connection fails at once instead of after the client's retries.
      HYPERLIQUID_MAX_RETRIES: '0',
    });
    await resetDb(t.db);
    ({ key } = await makeAccount(t, { tier: 'max' }));
    const results = await runAllJobs(t);
    expect(results.map((r) => [r.name, r.status, r.error ?? null])).toEqual(results.map((r) => [r.name, 'ok', null]));
    spotCoin = (
      await t.db.query(
        `SELECT c.coin FROM hl_snapshot_coins c JOIN hl_current_snapshots s ON s.snapshot_id = c.snapshot_id AND s.kind = 'market'
          WHERE c.market = 'spot' AND c.holders > 0 ORDER BY c.holders DESC, c.coin LIMIT 1`,
      )
    )[0].coin;
    hip3Coin = (await t.db.query(`SELECT coin FROM hl_fills WHERE coin LIKE '%:%' GROUP BY coin ORDER BY count(*) DESC, coin LIMIT 1`))[0].coin;
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await exchange?.close();
    await sim?.close();
  });

  it('keeps every updatedAt while the exchange refuses connections, and moves them on once it answers again', async () => {
    const before = await readFreshness();

    await exchange.refuse();
    await makeEveryAddressDue(t.db);
    const addresses = Number((await t.db.query(`SELECT count(*) AS n FROM hl_addresses WHERE NOT is_vault`))[0].n);
    const outage = Object.fromEntries((await runAllJobs(t)).map((r) => [r.name, r]));
    expect(['hl.markets', 'hl.mids', 'hl.leaderboard'].map((name) => [name, outage[name].status])).toEqual([
      ['hl.markets', 'error'],
      ['hl.mids', 'error'],
      ['hl.leaderboard', 'error'],
    ]);
    // Every address was tried and none was read: the snapshot below republishes what was read before.
    expect(outage['hl.positions'].outcome).toEqual(expect.objectContaining({ rows: 0, failures: addresses }));
    expect(outage['hl.trades'].outcome?.rows).toBe(0);
    expect(outage['hl.snapshot'].status).toBe('ok');

    const during = await readFreshness();
    expect(during.snapshotHeight).toBeGreaterThan(before.snapshotHeight);
    expect(during.times).toEqual(before.times);
    // Trending's windows end when its trades were read, so a republished list does not drain as they age.
    expect(during.trendingPerp).toEqual(before.trendingPerp);

    await exchange.restore();
    await makeEveryAddressDue(t.db);
    const recovered = await runAllJobs(t);
    expect(recovered.map((r) => [r.name, r.status, r.outcome?.failures ?? 0])).toEqual(recovered.map((r) => [r.name, 'ok', 0]));

    const after = await readFreshness();
    for (const [answer, time] of Object.entries(after.times)) {
      expect([answer, Date.parse(time) > Date.parse(before.times[answer])]).toEqual([answer, true]);
    }
  }, 120_000);

  it('does not move updatedAt when a snapshot is republished from the same reads', async () => {
    const before = await readFreshness();
    expect((await runJob(t, 'hl.snapshot')).status).toBe('ok');
    const again = await readFreshness();
    expect(again.snapshotHeight).toBeGreaterThan(before.snapshotHeight);
    expect(again.times).toEqual(before.times);
  });
});
