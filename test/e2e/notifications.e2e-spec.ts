import request from 'supertest';
import { Wallet } from 'ethers';
import { NotificationsRepository, NewNotification } from '../../src/modules/notifications/notifications.repository';
import { createTestApp, TestApp } from '../support/create-test-app';
import { get } from '../support/http';
import { resetDb } from '../support/reset-db';
import { testConfig } from '../support/test-env';
import { BACKEND, backend, signIn } from '../support/wallet-session';

interface Holder {
  token: string;
  key: string;
  accountId: string;
}

const HOUR = 3_600_000;

describe('Notifications: read with the key (/account/notifications), marked and configured through the wallet session', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp(testConfig());
    await resetDb(t.db);
  });
  afterAll(() => t.close());

  async function holder(): Promise<Holder> {
    const wallet = Wallet.createRandom();
    const { token } = await signIn(t, wallet);
    const created = await backend(t, 'post', '/keys', token).send({ name: 'k' });
    expect(created.status).toBe(201);
    const [{ id }]: Array<{ id: string }> = await t.db.query(`SELECT id FROM accounts WHERE wallet_address = $1`, [wallet.address.toLowerCase()]);
    return { token, key: created.body.data.key, accountId: id };
  }

  /** Seeds the account's notifications, the first the oldest, an hour apart. */
  async function seed(accountId: string, rows: Array<Omit<NewNotification, 'accountId' | 'createdAt'>>): Promise<void> {
    const start = Date.now() - rows.length * HOUR;
    await t.app.get(NotificationsRepository).insert(rows.map((row, i) => ({ ...row, accountId, createdAt: new Date(start + i * HOUR) })));
  }

  const put = (path: string, body: unknown, token: string) =>
    request(t.server as never)
      .put(`${BACKEND}${path}`)
      .set('authorization', `Bearer ${token}`)
      .send(body as object);

  const list = async (h: Holder, query = '') => {
    const res = await get(t, `/account/notifications${query}`, h.key);
    expect(res.status).toBe(200);
    return res.body.data as { items: Array<{ id: string; type: string; coin: string; message: string; isRead: boolean; createdAt: string }> } & Record<
      string,
      unknown
    >;
  };

  it('lists the key holder’s notifications newest first, paged, with unreadCount beside the pagination fields', async () => {
    const h = await holder();
    const other = await holder();
    await seed(
      h.accountId,
      ['BTC', 'ETH', 'SOL', 'BTC', 'HYPE'].map((coin, i) => ({ type: i % 2 ? 'liquidation_risk' : 'price_move', coin, message: `message ${i}` })),
    );
    await seed(other.accountId, [{ type: 'price_move', coin: 'BTC', message: 'not yours' }]);

    const first = await list(h, '?limit=2');
    expect(first).toMatchObject({ page: 1, limit: 2, total: 5, hasMore: true, unreadCount: 5 });
    expect(first.items.map((n) => n.message)).toEqual(['message 4', 'message 3']);
    expect(first.items[0]).toEqual({
      id: expect.stringMatching(/^\d+$/),
      type: 'price_move',
      coin: 'HYPE',
      message: 'message 4',
      isRead: false,
      createdAt: expect.any(String),
    });
    const last = await list(h, '?limit=2&page=3');
    expect(last).toMatchObject({ page: 3, total: 5, hasMore: false });
    expect(last.items.map((n) => n.message)).toEqual(['message 0']);
    expect((await list(h)).limit).toBe(20);
    expect((await list(h, '?order=asc')).items.map((n) => n.message)).toEqual(['message 0', 'message 1', 'message 2', 'message 3', 'message 4']);
    expect((await list(other)).items.map((n) => n.message)).toEqual(['not yours']);

    // The portal reads the same page through the wallet session, unbilled, with the same validation.
    const bySession = await backend(t, 'get', '/notifications?limit=2', h.token);
    expect(bySession.status).toBe(200);
    expect(bySession.body.data).toEqual(first);
    expect((await backend(t, 'get', '/notifications?isRead=yes', h.token)).body).toMatchObject({
      code: 'VALIDATION_ERROR',
      msg: expect.stringMatching(/^isRead/),
    });
    expect((await backend(t, 'get', '/notifications')).status).toBe(401);
  });

  it('filters by type, coin and isRead, each alone and together; unreadCount stays the account’s', async () => {
    const h = await holder();
    await seed(h.accountId, [
      { type: 'price_move', coin: 'BTC', message: 'a' },
      { type: 'liquidation_risk', coin: 'BTC', message: 'b' },
      { type: 'price_move', coin: 'ETH', message: 'c' },
    ]);
    const [a] = (await list(h, '?order=asc')).items;
    expect((await backend(t, 'post', `/notifications/${a.id}/read`, h.token)).status).toBe(200);

    expect((await list(h, '?type=liquidation_risk')).items.map((n) => n.message)).toEqual(['b']);
    expect((await list(h, '?coin=BTC')).items.map((n) => n.message)).toEqual(['b', 'a']);
    expect((await list(h, '?coin=btc')).items).toEqual([]);
    const read = await list(h, '?isRead=true');
    expect(read).toMatchObject({ total: 1, unreadCount: 2 });
    expect(read.items.map((n) => [n.message, n.isRead])).toEqual([['a', true]]);
    expect((await list(h, '?isRead=false')).items.map((n) => n.message)).toEqual(['c', 'b']);
    expect((await list(h, '?isRead=false&type=price_move&coin=ETH')).items.map((n) => n.message)).toEqual(['c']);
    expect(await list(h, '?isRead=true&type=liquidation_risk')).toMatchObject({ items: [], total: 0, hasMore: false, unreadCount: 2 });
  });

  it('refuses a bad isRead, type, order or limit 400 naming the field', async () => {
    const h = await holder();
    for (const [query, field] of [
      ['isRead=1', 'isRead'],
      ['isRead=TRUE', 'isRead'],
      ['isRead=', 'isRead'],
      ['type=price', 'type'],
      ['type=PRICE_MOVE', 'type'],
      ['order=up', 'order'],
      ['limit=101', 'limit'],
      ['page=0', 'page'],
    ]) {
      const res = await get(t, `/account/notifications?${query}`, h.key);
      expect({ query, status: res.status, code: res.body.code, field: String(res.body.msg).split(':')[0] }).toEqual({
        query,
        status: 400,
        code: 'VALIDATION_ERROR',
        field,
      });
    }
  });

  it('marks one read (again: the same), and another account’s, an unknown or a malformed id is 404', async () => {
    const h = await holder();
    const other = await holder();
    await seed(h.accountId, [{ type: 'price_move', coin: 'BTC', message: 'mine' }]);
    await seed(other.accountId, [{ type: 'price_move', coin: 'ETH', message: 'theirs' }]);
    const [mine] = (await list(h)).items;
    const [theirs] = (await list(other)).items;

    const marked = await backend(t, 'post', `/notifications/${mine.id}/read`, h.token);
    expect(marked.status).toBe(200);
    expect(marked.body.data).toEqual({ ...mine, isRead: true });
    expect((await backend(t, 'post', `/notifications/${mine.id}/read`, h.token)).body.data).toEqual({ ...mine, isRead: true });
    expect((await list(h)).unreadCount).toBe(0);

    for (const id of [theirs.id, '999999999', 'abc', '0', '99999999999999999999']) {
      const res = await backend(t, 'post', `/notifications/${id}/read`, h.token);
      expect({ id, status: res.status, code: res.body.code }).toEqual({ id, status: 404, code: 'NOT_FOUND' });
    }
    expect((await list(other)).items[0].isRead).toBe(false);
    expect((await backend(t, 'post', `/notifications/${mine.id}/read`)).status).toBe(401);
  });

  it('read-all marks every unread one of the account only and says how many; the unread indicator follows', async () => {
    const h = await holder();
    const other = await holder();
    expect((await get(t, '/account/notifications/unread', h.key)).body.data).toEqual({ unread: false, count: 0 });
    await seed(h.accountId, [
      { type: 'price_move', coin: 'BTC', message: 'a' },
      { type: 'price_move', coin: 'ETH', message: 'b' },
      { type: 'liquidation_risk', coin: 'SOL', message: 'c' },
    ]);
    await seed(other.accountId, [{ type: 'price_move', coin: 'BTC', message: 'theirs' }]);
    const unread = await get(t, '/account/notifications/unread', h.key);
    expect(unread.status).toBe(200);
    expect(unread.body.data).toEqual({ unread: true, count: 3 });
    expect((await get(t, '/account/notifications/unread?x=1', h.key)).status).toBe(400);

    const [newest] = (await list(h)).items;
    await backend(t, 'post', `/notifications/${newest.id}/read`, h.token);
    expect((await get(t, '/account/notifications/unread', h.key)).body.data).toEqual({ unread: true, count: 2 });

    const all = await backend(t, 'post', '/notifications/read-all', h.token);
    expect(all.status).toBe(200);
    expect(all.body.data).toEqual({ marked: 2 });
    expect((await backend(t, 'post', '/notifications/read-all', h.token)).body.data).toEqual({ marked: 0 });
    expect((await get(t, '/account/notifications/unread', h.key)).body.data).toEqual({ unread: false, count: 0 });
    expect((await list(h, '?isRead=true')).total).toBe(3);
    expect((await get(t, '/account/notifications/unread', other.key)).body.data).toEqual({ unread: true, count: 1 });
  });

  it('serves default thresholds, saves the fields given, validates each, and keeps accounts apart', async () => {
    const h = await holder();
    const other = await holder();
    const defaults = {
      priceMoveEnabled: true,
      priceMovePercent: 5,
      priceMoveWindowMinutes: 60,
      liquidationRiskEnabled: true,
      liquidationDistancePercent: 5,
      fundingRateEnabled: true,
      fundingRateAprPercent: 50,
    };
    const read = await backend(t, 'get', '/notifications/settings', h.token);
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual(defaults);

    const saved = await put('/notifications/settings', { priceMovePercent: 2.5, liquidationRiskEnabled: false }, h.token);
    expect(saved.status).toBe(200);
    expect(saved.body.data).toEqual({ ...defaults, priceMovePercent: 2.5, liquidationRiskEnabled: false });
    expect((await put('/notifications/settings', { liquidationDistancePercent: 10 }, h.token)).body.data).toEqual({
      ...defaults,
      priceMovePercent: 2.5,
      liquidationRiskEnabled: false,
      liquidationDistancePercent: 10,
    });
    expect((await put('/notifications/settings', { priceMovePercent: null }, h.token)).body.data.priceMovePercent).toBe(5);
    expect((await put('/notifications/settings', { fundingRateAprPercent: 200 }, h.token)).body.data.fundingRateAprPercent).toBe(200);
    expect((await backend(t, 'get', '/notifications/settings', h.token)).body.data).toMatchObject({
      liquidationRiskEnabled: false,
      liquidationDistancePercent: 10,
    });
    expect((await backend(t, 'get', '/notifications/settings', other.token)).body.data).toEqual(defaults);

    // What GET serves, written back with one field changed, is accepted; the window is the account's to choose.
    const current = (await backend(t, 'get', '/notifications/settings', h.token)).body.data;
    const rewritten = await put('/notifications/settings', { ...current, priceMoveWindowMinutes: 240 }, h.token);
    expect({ status: rewritten.status, data: rewritten.body.data }).toEqual({ status: 200, data: { ...current, priceMoveWindowMinutes: 240 } });
    expect((await put('/notifications/settings', { priceMoveWindowMinutes: null }, h.token)).body.data).toEqual(current);

    for (const [body, field] of [
      [{ priceMovePercent: 0.5 }, 'priceMovePercent'],
      [{ priceMovePercent: 51 }, 'priceMovePercent'],
      [{ priceMovePercent: '5' }, 'priceMovePercent'],
      [{ priceMovePercent: 5.555 }, 'priceMovePercent'],
      [{ liquidationDistancePercent: 0 }, 'liquidationDistancePercent'],
      [{ priceMoveEnabled: 'yes' }, 'priceMoveEnabled'],
      [{ fundingRateAprPercent: 4 }, 'fundingRateAprPercent'],
      [{ fundingRateAprPercent: 40_000 }, 'fundingRateAprPercent'],
      [{ fundingRateEnabled: 1 }, 'fundingRateEnabled'],
      [{ windowMinutes: 30 }, 'windowMinutes'],
      [{ priceMoveWindowMinutes: 30 }, 'priceMoveWindowMinutes'],
      [{ priceMoveWindowMinutes: '60' }, 'priceMoveWindowMinutes'],
    ] as const) {
      const res = await put('/notifications/settings', body, h.token);
      expect({ body, status: res.status, code: res.body.code, field: String(res.body.msg).split(':')[0] }).toEqual({
        body,
        status: 400,
        code: 'VALIDATION_ERROR',
        field,
      });
    }
    expect((await backend(t, 'get', '/notifications/settings', h.token)).body.data.liquidationDistancePercent).toBe(10);
    expect((await backend(t, 'get', '/notifications/settings')).status).toBe(401);
  });
});
