import request from 'supertest';
import { Wallet } from 'ethers';
import { AccountAdminService } from '../../src/modules/account/account-admin.service';
import { HlCatalogService } from '../../src/modules/hl/hl-catalog.service';
import { createTestApp, TestApp } from '../support/create-test-app';
import { seedHlReference } from '../support/hl-seed';
import { get } from '../support/http';
import { resetDb } from '../support/reset-db';
import { testConfig } from '../support/test-env';
import { BACKEND, backend, signIn } from '../support/wallet-session';

type Method = 'get' | 'post' | 'delete';

function call(t: TestApp, method: Method, path: string, token: string, body?: object) {
  const req = request(t.server as Parameters<typeof request>[0])
    [method](`${BACKEND}${path}`)
    .set('authorization', `Bearer ${token}`);
  return body === undefined ? req : req.send(body);
}

/** A signed-in Pro wallet with one group, and a key of its account. */
async function walletWithGroup(t: TestApp, name = 'watch'): Promise<{ token: string; key: string; groupId: string }> {
  const wallet = Wallet.createRandom();
  const { token } = await signIn(t, wallet);
  await t.app.get(AccountAdminService).setTier({ wallet: wallet.address, tier: 'pro' });
  const key = (await backend(t, 'post', '/keys', token).send({ name: 'k' })).body.data.key;
  const group = await call(t, 'post', '/watchlist', token, { name });
  expect(group.status).toBe(201);
  return { token, key, groupId: group.body.data.id };
}

const add = (t: TestApp, token: string, groupId: string, coin: unknown) => call(t, 'post', `/watchlist/${groupId}/entries`, token, { coin });

describe('Watchlist entries through the backend and the public API', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp(testConfig());
    await resetDb(t.db);
    await seedHlReference(t.db);
    // A listed catalogue stock and an unlisted one.
    await t.db.query(
      `INSERT INTO assets (type, symbol, name, market, stock_code, yahoo_symbol, listed) VALUES
         ('STOCK', 'AAPL', 'Apple Inc.', 'US', 'AAPL-US', 'AAPL', true),
         ('STOCK', 'GONE', 'Delisted Corp', 'US', 'GONE-US', 'GONE', false)`,
    );
    t.app.get(HlCatalogService).invalidate();
  });
  afterAll(() => t.close());

  it('adds coins under their canonical spelling, re-adds idempotently, removes, and the public read follows each write', async () => {
    const { token, key, groupId } = await walletWithGroup(t);
    const btc = await add(t, token, groupId, ' btc ');
    expect(btc.status).toBe(201);
    expect(btc.body.data).toEqual({ coin: 'BTC', addedAt: expect.any(String), added: true });
    const again = await add(t, token, groupId, 'BTC');
    expect(again.status).toBe(201);
    expect(again.body.data).toEqual({ coin: 'BTC', addedAt: btc.body.data.addedAt, added: false });
    // HIP-3 coins keep the dex in lower case and the symbol as listed; spot tokens and catalogue symbols count too.
    expect((await add(t, token, groupId, 'XYZ:tsla')).body.data.coin).toBe('xyz:TSLA');
    expect((await add(t, token, groupId, 'purr')).body.data.coin).toBe('PURR');
    expect((await add(t, token, groupId, 'aapl')).body.data.coin).toBe('AAPL-US');

    const read = await get(t, `/account/watchlist/${groupId}`, key);
    expect(read.status).toBe(200);
    expect(read.headers['x-credits-cost']).toBe('1');
    expect(read.body.data).toMatchObject({ page: 1, limit: 20, total: 4, hasMore: false });
    expect(read.body.data.items.map((e: { coin: string }) => e.coin)).toEqual(['BTC', 'xyz:TSLA', 'PURR', 'AAPL-US']);
    expect(read.body.data.items[0]).toEqual({ coin: 'BTC', addedAt: btc.body.data.addedAt });
    expect((await get(t, '/account/watchlist', key)).body.data.items).toEqual([{ id: groupId, name: 'watch', entryCount: 4 }]);

    // Removal matches the stored spelling ignoring case, and is idempotent.
    const removed = await call(t, 'delete', `/watchlist/${groupId}/entries/${encodeURIComponent('xyz:tsla')}`, token);
    expect(removed.status).toBe(200);
    expect(removed.body.data).toEqual({ coin: 'xyz:TSLA', removed: true });
    const twice = await call(t, 'delete', `/watchlist/${groupId}/entries/${encodeURIComponent('xyz:TSLA')}`, token);
    expect(twice.status).toBe(200);
    expect(twice.body.data).toEqual({ coin: 'xyz:TSLA', removed: false });
    expect((await get(t, `/account/watchlist/${groupId}`, key)).body.data.items.map((e: { coin: string }) => e.coin)).toEqual(['BTC', 'PURR', 'AAPL-US']);

    const overview = (await call(t, 'get', '/watchlist', token)).body.data;
    expect(overview).toEqual([
      expect.objectContaining({ id: groupId, entryCount: 3, entries: read.body.data.items.filter((e: { coin: string }) => e.coin !== 'xyz:TSLA') }),
    ]);

    // Deleting the group takes its entries with it.
    expect((await call(t, 'delete', `/watchlist/${groupId}`, token)).status).toBe(200);
    expect((await get(t, `/account/watchlist/${groupId}`, key)).status).toBe(404);
    const [{ count }] = await t.db.query(`SELECT count(*)::int AS count FROM watchlist_entries WHERE group_id = $1`, [groupId]);
    expect(count).toBe(0);
  });

  it('refuses an unknown, unlisted or missing coin 400 naming coin', async () => {
    const { token, groupId } = await walletWithGroup(t);
    for (const coin of ['DOGE', 'GONE', 'GONE-US', '#0', 'abc:TSLA', '', '   ', 'x'.repeat(65), 7, undefined]) {
      const res = await add(t, token, groupId, coin);
      expect({ coin, status: res.status, code: res.body.code }).toEqual({ coin, status: 400, code: 'VALIDATION_ERROR' });
      expect(res.body.msg).toMatch(/^coin: /);
    }
    expect((await call(t, 'get', '/watchlist', token)).body.data[0].entryCount).toBe(0);
  });

  it('holds 200 coins per group: the 201st is refused 400 naming coin, re-adding one of them still answers it', async () => {
    const { token, key, groupId } = await walletWithGroup(t);
    // 199 stored rows in one statement (any spelling: the limit counts rows), then the 200th through the API.
    await t.db.query(
      `INSERT INTO watchlist_entries (group_id, coin, added_at)
       SELECT $1, 'C' || lpad(n::text, 3, '0'), now() - interval '1 hour' + n * interval '1 second' FROM generate_series(1, 199) AS n`,
      [groupId],
    );
    expect((await add(t, token, groupId, 'eth')).status).toBe(201);
    const refused = await add(t, token, groupId, 'SOL');
    expect({ status: refused.status, code: refused.body.code }).toEqual({ status: 400, code: 'VALIDATION_ERROR' });
    expect(refused.body.msg).toMatch(/^coin: .*200/);
    const again = await add(t, token, groupId, 'ETH');
    expect(again.status).toBe(201);
    expect(again.body.data).toMatchObject({ coin: 'ETH', added: false });

    // Paging over the entries: in the order added, total counted, nothing past the end.
    const first = (await get(t, `/account/watchlist/${groupId}`, key)).body.data;
    expect(first).toMatchObject({ page: 1, limit: 20, total: 200, hasMore: true });
    expect(first.items.map((e: { coin: string }) => e.coin)).toEqual(Array.from({ length: 20 }, (_, n) => `C${String(n + 1).padStart(3, '0')}`));
    const last = (await get(t, `/account/watchlist/${groupId}?page=2&limit=100`, key)).body.data;
    expect(last).toMatchObject({ page: 2, limit: 100, total: 200, hasMore: false });
    expect(last.items).toHaveLength(100);
    expect(last.items[99].coin).toBe('ETH');
    expect((await get(t, `/account/watchlist/${groupId}?page=3&limit=100`, key)).body.data).toMatchObject({ items: [], hasMore: false });
    expect((await get(t, `/account/watchlist/${groupId}?limit=0`, key)).status).toBe(400);
  });

  it('never exceeds 200 coins under concurrent adds', async () => {
    const { token, groupId } = await walletWithGroup(t);
    await t.db.query(`INSERT INTO watchlist_entries (group_id, coin) SELECT $1, 'C' || n FROM generate_series(1, 197) AS n`, [groupId]);
    const answers = await Promise.all(['BTC', 'ETH', 'SOL', 'HYPE', 'PURR', 'xyz:NVDA'].map((coin) => add(t, token, groupId, coin)));
    expect(answers.filter((res) => res.status === 201)).toHaveLength(3);
    expect(answers.filter((res) => res.status === 400)).toHaveLength(3);
    const [{ count }] = await t.db.query(`SELECT count(*)::int AS count FROM watchlist_entries WHERE group_id = $1`, [groupId]);
    expect(count).toBe(200);
  });
});
