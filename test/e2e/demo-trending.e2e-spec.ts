import BigNumber from 'bignumber.js';
import { startSimulator } from '../../src/simulator/simulator.server';
import { TestApp } from '../support/create-test-app';
import { makeAccount } from '../support/factories';
import { createHlApp, runJob, Simulator } from '../support/hl-stack';
import { get } from '../support/http';
import { resetDb } from '../support/reset-db';

const MINUTE_MS = 60_000;

interface TrendingItem {
  coin: string;
  price: string;
  priceChange: string;
}

/**
 * A fresh install (the demo's first hour): the service has sampled mids for minutes only, so no sample is as
 * old as the period. priceChange then compares with the oldest sample inside the period (24 h: the upstream's
 * prevDayPx), never a silent 0.
 */
describe('Trending on a fresh install', () => {
  let sim: Simulator;
  let t: TestApp;
  let key: string;
  let oldBtc: BigNumber;

  beforeAll(async () => {
    sim = await startSimulator({ wallets: 60, seed: 5, weightPerMinute: 0 });
    t = await createHlApp(sim);
    await resetDb(t.db);
    ({ key } = await makeAccount(t, { tier: 'max' }));
    for (const job of ['hl.markets', 'hl.mids']) expect((await runJob(t, job)).status).toBe('ok');
    // The service sampled BTC ten minutes ago, 10 % lower than now; nothing older exists.
    const minute = Math.floor(Date.now() / MINUTE_MS);
    const [{ px }] = await t.db.query(`SELECT px::text AS px FROM hl_mid_samples WHERE coin = 'BTC' ORDER BY minute DESC LIMIT 1`);
    oldBtc = new BigNumber(px).times(0.9).decimalPlaces(2);
    await t.db.query(`INSERT INTO hl_mid_samples (coin, minute, px) VALUES ('BTC', $1, $2)`, [minute - 10, oldBtc.toFixed()]);
    expect((await runJob(t, 'hl.snapshot')).status).toBe('ok');
  }, 90_000);

  afterAll(async () => {
    await t?.close();
    await sim?.close();
  });

  async function trendingPerp(period: string): Promise<Map<string, TrendingItem>> {
    const res = await get(t, `/hl/trending?period=${period}&market=perp&limit=200`, key);
    expect(res.status).toBe(200);
    return new Map((res.body.data.perp.items as TrendingItem[]).map((item) => [item.coin, item]));
  }

  it.each(['1h', '4h'])('compares with the oldest sample inside the period (%s) when none is that old', async (period) => {
    const btc = (await trendingPerp(period)).get('BTC')!;
    const expected = new BigNumber(btc.price).minus(oldBtc).div(oldBtc).times(100).decimalPlaces(4);
    expect(new BigNumber(btc.priceChange).toFixed(4)).toBe(expected.toFixed(4));
    expect(new BigNumber(btc.priceChange).gt(5)).toBe(true);
  });

  it("compares 24h with the upstream's previous-day price rather than the samples", async () => {
    const btc = (await trendingPerp('24h')).get('BTC')!;
    const [{ prev }] = await t.db.query(`SELECT prev_day_px::text AS prev FROM hl_markets WHERE market = 'perp' AND coin = 'BTC'`);
    const expected = new BigNumber(btc.price).minus(prev).div(prev).times(100).decimalPlaces(4);
    expect(new BigNumber(btc.priceChange).toFixed(4)).toBe(expected.toFixed(4));
  });
});
