import { DataSource } from 'typeorm';
import { JobRegistry } from '../../src/jobs/job-registry';
import { JobRunner } from '../../src/jobs/job-runner';
import { HlAddressesRepository } from '../../src/modules/hl/jobs/hl-addresses.repository';
import { SnapshotJob } from '../../src/modules/hl/jobs/snapshot.job';
import { SnapshotStore } from '../../src/modules/hl/snapshot/snapshot-store';
import { startSimulator } from '../../src/simulator/simulator.server';
import { TestApp } from '../support/create-test-app';
import { makeAccount } from '../support/factories';
import { createHlApp, runAllJobs, runJob, Simulator } from '../support/hl-stack';
import { eventually, get } from '../support/http';
import { resetDb } from '../support/reset-db';

async function count(db: DataSource, sql: string, params: unknown[] = []): Promise<number> {
  return Number((await db.query(sql, params))[0].n);
}

describe('Exchange-chain pipeline: simulator -> jobs -> PostgreSQL -> API', () => {
  let sim: Simulator;
  let t: TestApp;
  let key: string;

  beforeAll(async () => {
    sim = await startSimulator({ wallets: 300, seed: 11, weightPerMinute: 0 });
    t = await createHlApp(sim);
    await resetDb(t.db);
    ({ key } = await makeAccount(t, { tier: 'max' }));
    const results = await runAllJobs(t);
    expect(results.map((r) => [r.name, r.status, r.error ?? null])).toEqual(results.map((r) => [r.name, 'ok', null]));
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await sim?.close();
  });

  it('grows the address universe from the leaderboard and trades, without vaults', async () => {
    expect(await count(t.db, `SELECT count(*) AS n FROM hl_addresses WHERE 'leaderboard' = ANY(sources)`)).toBeGreaterThan(100);
    expect(await count(t.db, `SELECT count(*) AS n FROM hl_addresses WHERE 'trades' = ANY(sources)`)).toBeGreaterThan(0);
    const vaults = await count(t.db, `SELECT count(*) AS n FROM hl_addresses WHERE is_vault`);
    expect(vaults).toBeGreaterThan(0);
    const leaderboard = await get(t, '/hl/leaderboard?limit=500', key);
    const listed = new Set(leaderboard.body.data.items.map((i: { ethAddress: string }) => i.ethAddress));
    const vaultAddresses = (await t.db.query(`SELECT address FROM hl_addresses WHERE is_vault`)).map((r: { address: string }) => r.address);
    expect(vaultAddresses.some((v: string) => listed.has(v))).toBe(false);
  });

  it('drops a delisted market from the catalogue, and with it from the valid coins', async () => {
    await t.db.query(`INSERT INTO hl_markets (market, coin, dex, upstream_coin, mark_px) VALUES ('perp', 'gone:OLD', 'gone', 'gone:OLD', 1)`);
    expect((await runJob(t, 'hl.markets')).status).toBe('ok');
    expect(await count(t.db, `SELECT count(*) AS n FROM hl_markets WHERE coin = 'gone:OLD'`)).toBe(0);
    expect((await runJob(t, 'hl.mids')).status).toBe('ok');
  });

  it('serves mids whose keys are the valid coins: perps, HIP-3 dex:SYMBOL and spot tokens', async () => {
    const res = await get(t, '/hl/prices/mids', key);
    expect(res.status).toBe(200);
    const coins = Object.keys(res.body.data.mids);
    expect(coins).toEqual(expect.arrayContaining(['BTC', 'ETH']));
    expect(coins.some((c) => /^[a-z]+:[A-Z0-9]+$/.test(c))).toBe(true);
    expect(coins.some((c) => c.startsWith('#') || c.startsWith('@'))).toBe(false);
    for (const mid of Object.values(res.body.data.mids)) expect(mid).toMatch(/^\d+(\.\d+)?$/);
  });

  it('ranks every polled BTC position, and a cursor walk visits each exactly once', async () => {
    const positions = await count(t.db, `SELECT count(*) AS n FROM hl_positions WHERE coin = 'BTC'`);
    expect(positions).toBeGreaterThan(20);
    const seen: string[] = [];
    let cursor: string | null = null;
    let first = true;
    while (first || cursor) {
      const res = await get(t, `/hl/perp/holders?coin=BTC&limit=7${cursor ? `&cursor=${cursor}` : ''}`, key);
      expect(res.status).toBe(200);
      seen.push(...res.body.data.items.map((i: { address: string }) => i.address));
      cursor = res.body.data.nextCursor;
      first = false;
    }
    expect(seen).toHaveLength(positions);
    expect(new Set(seen).size).toBe(positions);
  });

  it("keeps each listed perp's hourly funding rate (the funding-rate alerts read it), none for spot", async () => {
    const rows: Array<{ market: string; funding: string | null }> = await t.db.query(
      `SELECT market, funding::text AS funding FROM hl_markets WHERE market IN ('perp', 'spot')`,
    );
    const perps = rows.filter((r) => r.market === 'perp');
    expect(perps.length).toBeGreaterThan(0);
    for (const { funding } of perps) expect(funding).toMatch(/^-?\d+(\.\d+)?$/);
    expect(new Set(perps.map((r) => r.funding)).size).toBeGreaterThan(1);
    expect(rows.filter((r) => r.market === 'spot').every((r) => r.funding === null)).toBe(true);
  });

  it('values holders at the current mark and reports coverage per coin', async () => {
    const res = await get(t, '/hl/perp/holders?coin=ETH&limit=5', key);
    const top = res.body.data.items[0];
    expect(Number(top.value)).toBeCloseTo(Number(top.size) * Number(top.markPrice), 3);
    const [{ coverage }] = await t.db.query(
      `SELECT s.coverage FROM hl_snapshots s JOIN hl_current_snapshots c ON c.snapshot_id = s.id WHERE c.kind = 'market'`,
    );
    expect(coverage['perp:ETH']).toBeGreaterThan(0);
    expect(coverage['perp:ETH']).toBeLessThanOrEqual(1);
  });

  it('serves HIP-3 holders, liquidation map, trending and both smart-trader lists', async () => {
    const hip3 = (await t.db.query(`SELECT coin FROM hl_markets WHERE market = 'perp' AND dex <> '' ORDER BY day_ntl_vlm DESC NULLS LAST LIMIT 1`))[0].coin;
    expect((await get(t, `/hl/perp/holders?coin=${encodeURIComponent(hip3)}`, key)).status).toBe(200);
    const map = await get(t, '/hl/perp/liquidation-map?coin=BTC', key);
    expect(map.status).toBe(200);
    expect(map.body.data.heatmap.length).toBeGreaterThan(0);
    const trending = await get(t, '/hl/trending', key);
    expect(trending.status).toBe(200);
    expect(trending.body.data.perp.items.length).toBeGreaterThan(0);
    expect(trending.body.data.spot.items.length).toBeGreaterThan(0);
    const traded = (await t.db.query(`SELECT coin FROM hl_fills WHERE coin LIKE '%:%' GROUP BY coin ORDER BY count(*) DESC LIMIT 1`))[0]?.coin;
    expect(traded).toBeDefined();
    const hip3Traders = await get(t, `/hl/hip3/smart-trader?coin=${encodeURIComponent(traded)}`, key);
    expect(hip3Traders.status).toBe(200);
    expect(hip3Traders.body.data.items.length).toBeGreaterThan(0);
    const hip4Traders = await get(t, '/hl/hip4/smart-trader?outcomeId=0', key);
    expect(hip4Traders.status).toBe(200);
    expect(hip4Traders.body.data.sides).toEqual(['YES', 'NO']);
  });

  it('carries operator tags into the next snapshot as addressTags', async () => {
    const top = (await get(t, '/hl/perp/holders?coin=BTC&limit=1', key)).body.data.items[0];
    await t.app.get(HlAddressesRepository).upsertAddresses({ addresses: [top.address], source: 'operator', tags: ['desk-a'] });
    expect((await runJob(t, 'hl.snapshot')).status).toBe('ok');
    // Replicas notice a newly published snapshot within their 1 s catalogue cache.
    const res = await eventually(
      () => get(t, `/hl/perp/holders?coin=BTC&address=${top.address}`, key),
      (r) => (r.body.data.items[0]?.addressTags ?? []).includes('desk-a'),
      3000,
    );
    expect(res.body.data.items[0].addressTags).toContain('desk-a');
  });

  it('resumes a cursor minted before a snapshot refresh at the same rank in the new snapshot', async () => {
    const page1 = await get(t, '/hl/perp/holders?coin=BTC&limit=5', key);
    const before = (await t.app.get(SnapshotStore).current('market'))!.id;
    expect((await runJob(t, 'hl.snapshot')).status).toBe('ok');
    expect((await t.app.get(SnapshotStore).current('market'))!.id).toBeGreaterThan(before);
    const page2 = await get(t, `/hl/perp/holders?coin=BTC&limit=5&cursor=${page1.body.data.nextCursor}`, key);
    expect(page2.status).toBe(200);
    expect(page2.body.data.items).toHaveLength(5);
    const ranks = await t.db.query(
      `SELECT address FROM hl_perp_holders h JOIN hl_current_snapshots c ON c.snapshot_id = h.snapshot_id AND c.kind = 'market'
        WHERE h.coin = 'BTC' AND h.rank_value BETWEEN 6 AND 10 ORDER BY h.rank_value`,
    );
    expect(page2.body.data.items.map((i: { address: string }) => i.address)).toEqual(ranks.map((r: { address: string }) => r.address));
  });

  it('keeps serving the previous snapshot when a build is stopped before it publishes', async () => {
    const store = t.app.get(SnapshotStore);
    const before = (await store.current('market'))!.id;
    const job = t.app.get(SnapshotJob);
    const controller = new AbortController();
    controller.abort(new Error('killed'));
    await expect(job.run(controller.signal)).rejects.toThrow('killed');
    expect((await store.current('market'))!.id).toBe(before);
    const res = await get(t, '/hl/perp/holders?coin=BTC&limit=1', key);
    expect(res.status).toBe(200);
    const building = await count(t.db, `SELECT count(*) AS n FROM hl_snapshots WHERE status = 'building'`);
    expect(building).toBe(1);
  });
});

describe('Job locks across replicas', () => {
  let sim: Simulator;
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    sim = await startSimulator({ wallets: 200, seed: 3, weightPerMinute: 0 });
    a = await createHlApp(sim);
    b = await createHlApp(sim, { REDIS_KEY_PREFIX: a.config.redis.keyPrefix });
    await runJob(a, 'hl.markets');
    await runJob(a, 'hl.leaderboard');
  }, 60_000);
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await sim?.close();
  });

  it('never runs the same job on two replicas at once', async () => {
    const results = await Promise.all([runJobOnce(a, 'hl.positions'), runJobOnce(b, 'hl.positions')]);
    expect(results.map((r) => r.status).sort()).toEqual(['ok', 'skipped']);
  });
});

/** No waiting for the lock: a replica that finds the job running skips it. */
function runJobOnce(t: TestApp, name: string) {
  return t.app.get(JobRunner).run(t.app.get(JobRegistry).get(name)!);
}
