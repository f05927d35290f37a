import request from 'supertest';
import { getAddress } from 'ethers';
import { HlAddressesRepository } from '../../src/modules/hl/jobs/hl-addresses.repository';
import { SnapshotStore } from '../../src/modules/hl/snapshot/snapshot-store';
import { startSimulator } from '../../src/simulator/simulator.server';
import { TestApp } from '../support/create-test-app';
import { createHlApp, runJob, Simulator } from '../support/hl-stack';
import { resetDb } from '../support/reset-db';
import { BACKEND, signIn } from '../support/wallet-session';

interface PositionItem {
  address: string;
  tags: string[];
  coin: string;
  size: string;
  side: string;
  entryPx: string;
  markPx: string;
  positionValue: string;
  unrealizedPnl: string;
  leverage: string;
  liquidationPx: string | null;
  snapshotTime: string;
}

/** An address the simulated exchange has never seen: a member with no positions. */
const STRANGER = '0x' + 'ab'.repeat(20);

describe('Cohort positions: members added through the backend are polled and shown after the next snapshot', () => {
  let sim: Simulator;
  let t: TestApp;
  let token: string;
  let cohortId: string;
  let traders: string[];

  const call = (path: string, body?: object) => {
    const req = request(t.server as Parameters<typeof request>[0])
      [body ? 'post' : 'get'](`${BACKEND}${path}`)
      .set('authorization', `Bearer ${token}`);
    return body ? req.send(body) : req;
  };

  beforeAll(async () => {
    sim = await startSimulator({ wallets: 60, seed: 23, weightPerMinute: 0 });
    t = await createHlApp(sim);
    await resetDb(t.db);
    // The catalogue and marks only: no leaderboard or trades, so the cohort's members are the whole universe.
    for (const job of ['hl.markets', 'hl.mids']) expect((await runJob(t, job)).status).toBe('ok');
    traders = sim.world.addresses
      .slice(0, sim.world.walletCount)
      .filter((address) => sim.world.walletOf(address)!.perps.length > 0)
      .slice(0, 3);
    expect(traders).toHaveLength(3);
    ({ token } = await signIn(t));
    const created = await call('/cohorts', {
      name: 'desk',
      addresses: [{ address: getAddress(traders[0]), tags: ['lead'] }, { address: traders[1] }, { address: STRANGER }],
    });
    expect(created.status).toBe(201);
    cohortId = created.body.data.id;
    expect((await call(`/cohorts/${cohortId}/addresses`, { addresses: [{ address: traders[2].toUpperCase().replace('0X', '0x') }] })).status).toBe(200);
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await sim?.close();
  });

  it('shows no positions before any market snapshot', async () => {
    const res = await call(`/cohorts/${cohortId}/positions`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ items: [], page: 1, limit: 20, total: 0, hasMore: false });
  });

  it('makes every member due for the positions poll, which reads them', async () => {
    const due = await t.app.get(HlAddressesRepository).dueAddresses({ limit: 100, fullReadIntervalMs: 60_000 });
    expect(due.map((d) => d.address).sort()).toEqual([...traders, STRANGER].sort());
    expect((await runJob(t, 'hl.positions')).status).toBe('ok');
    const polled = await t.db.query(`SELECT DISTINCT address FROM hl_positions WHERE address = ANY($1) ORDER BY address`, [[...traders, STRANGER]]);
    expect(polled.map((r: { address: string }) => r.address)).toEqual([...traders].sort());
  }, 60_000);

  it('lists the members’ positions from the next snapshot, as the simulated exchange holds them', async () => {
    expect((await runJob(t, 'hl.snapshot')).status).toBe('ok');
    const snapshot = (await t.app.get(SnapshotStore).current('market'))!;
    const res = await call(`/cohorts/${cohortId}/positions?limit=100`);
    expect(res.status).toBe(200);
    const items: PositionItem[] = res.body.data.items;

    const expected = traders.flatMap((address) => sim.world.walletOf(address)!.perps.map((slot) => `${address} ${slot.instrument.coin}`));
    expect(items.map((i) => `${i.address} ${i.coin}`).sort()).toEqual(expected.sort());
    expect(res.body.data).toMatchObject({ page: 1, limit: 100, total: expected.length, hasMore: false });

    const stored = await t.db.query(`SELECT address, coin, szi::text AS szi FROM hl_positions WHERE address = ANY($1)`, [traders]);
    const sziOf = new Map(stored.map((r: { address: string; coin: string; szi: string }) => [`${r.address} ${r.coin}`, Number(r.szi)]));
    for (const item of items) {
      expect(item.snapshotTime).toBe(snapshot.snapshotTime.toISOString());
      expect(Number(item.size)).toBe(sziOf.get(`${item.address} ${item.coin}`));
      expect(item.side).toBe(Number(item.size) > 0 ? 'long' : 'short');
      expect(item.tags).toEqual(item.address === traders[0] ? ['lead'] : []);
      for (const value of [item.size, item.entryPx, item.markPx, item.positionValue, item.unrealizedPnl, item.leverage]) {
        expect(value).toMatch(/^-?\d+(\.\d+)?$/);
      }
      expect(Number(item.positionValue)).toBeCloseTo(Math.abs(Number(item.size)) * Number(item.markPx), 4);
      expect(Number(item.unrealizedPnl)).toBeCloseTo(Number(item.size) * (Number(item.markPx) - Number(item.entryPx)), 4);
    }
    const values = items.map((i) => Number(i.positionValue));
    expect(values).toEqual([...values].sort((a, b) => b - a));
  }, 60_000);

  it('pages the positions with page and limit, and refuses out-of-range ones 400 naming the field', async () => {
    const all: PositionItem[] = (await call(`/cohorts/${cohortId}/positions?limit=100`)).body.data.items;
    expect(all.length).toBeGreaterThan(3);
    const second = await call(`/cohorts/${cohortId}/positions?page=2&limit=2`);
    expect(second.body.data).toMatchObject({ page: 2, limit: 2, total: all.length, hasMore: all.length > 4 });
    expect(second.body.data.items).toEqual(all.slice(2, 4));
    const defaults = await call(`/cohorts/${cohortId}/positions`);
    expect(defaults.body.data.limit).toBe(20);
    for (const [query, field] of [
      ['limit=101', 'limit'],
      ['limit=0', 'limit'],
      ['page=0', 'page'],
      ['page=x', 'page'],
    ]) {
      const res = await call(`/cohorts/${cohortId}/positions?${query}`);
      expect({ query, status: res.status, msg: res.body.msg }).toEqual({ query, status: 400, msg: expect.stringMatching(new RegExp(`^${field}: `)) });
    }
  });

  it('drops a removed member’s positions from the listing', async () => {
    const removed = await request(t.server as Parameters<typeof request>[0])
      .delete(`${BACKEND}/cohorts/${cohortId}/addresses`)
      .set('authorization', `Bearer ${token}`)
      .send({ addresses: [traders[0]] });
    expect(removed.status).toBe(200);
    const items: PositionItem[] = (await call(`/cohorts/${cohortId}/positions?limit=100`)).body.data.items;
    expect(items.length).toBeGreaterThan(0);
    expect(items.some((i) => i.address === traders[0])).toBe(false);
  });
});
