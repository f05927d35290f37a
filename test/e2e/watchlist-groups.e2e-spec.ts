import request from 'supertest';
import { Wallet } from 'ethers';
import { AccountAdminService } from '../../src/modules/account/account-admin.service';
import { createTestApp, TestApp } from '../support/create-test-app';
import { get } from '../support/http';
import { resetDb } from '../support/reset-db';
import { testConfig } from '../support/test-env';
import { BACKEND, backend, signIn } from '../support/wallet-session';

type Method = 'get' | 'post' | 'patch' | 'delete';

/** A backend call with a bearer token and, when given, a JSON body. */
function call(t: TestApp, method: Method, path: string, token: string, body?: object) {
  const req = request(t.server as Parameters<typeof request>[0])
    [method](`${BACKEND}${path}`)
    .set('authorization', `Bearer ${token}`);
  return body === undefined ? req : req.send(body);
}

/** A signed-in Pro wallet and a key of its account, to write through /api/v1 and read through /api/public/v1. */
async function proWallet(t: TestApp): Promise<{ token: string; key: string }> {
  const wallet = Wallet.createRandom();
  const { token } = await signIn(t, wallet);
  await t.app.get(AccountAdminService).setTier({ wallet: wallet.address, tier: 'pro' });
  const created = await backend(t, 'post', '/keys', token).send({ name: 'k' });
  expect(created.status).toBe(201);
  return { token, key: created.body.data.key };
}

const expectRefusal = (res: request.Response, status: number, code: string, field?: string) => {
  expect({ status: res.status, code: res.body.code, data: res.body.data }).toEqual({ status, code, data: null });
  if (field !== undefined) expect(res.body.msg).toMatch(new RegExp(`^${field}: `));
};

describe('Watchlist groups through the backend and the public API', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp(testConfig());
    await resetDb(t.db);
  });
  afterAll(() => t.close());

  it('creates, lists, renames and deletes groups; every write shows on the next public read', async () => {
    const { token, key } = await proWallet(t);
    const created = await call(t, 'post', '/watchlist', token, { name: '  Majors  ' });
    expect(created.status).toBe(201);
    const majors = created.body.data;
    expect(majors).toEqual({ id: expect.any(String), name: 'Majors', entryCount: 0, createdAt: expect.any(String), updatedAt: expect.any(String) });
    const alts = (await call(t, 'post', '/watchlist', token, { name: 'alts' })).body.data;

    const listed = await call(t, 'get', '/watchlist', token);
    expect(listed.status).toBe(200);
    expect(listed.body.data).toEqual([
      { ...majors, entries: [] },
      { ...alts, entries: [] },
    ]);
    const read = await get(t, '/account/watchlist', key);
    expect(read.status).toBe(200);
    expect(read.headers['x-credits-cost']).toBe('1');
    expect(read.body.data).toEqual({
      items: [
        { id: majors.id, name: 'Majors', entryCount: 0 },
        { id: alts.id, name: 'alts', entryCount: 0 },
      ],
      page: 1,
      limit: 20,
      total: 2,
      hasMore: false,
    });

    // Another group's name, ignoring case, is refused; the group's own name in another case is a rename.
    expectRefusal(await call(t, 'post', '/watchlist', token, { name: 'MAJORS' }), 400, 'VALIDATION_ERROR', 'name');
    expectRefusal(await call(t, 'patch', `/watchlist/${alts.id}`, token, { name: 'majors' }), 400, 'VALIDATION_ERROR', 'name');
    const recased = await call(t, 'patch', `/watchlist/${majors.id}`, token, { name: 'MAJORS' });
    expect(recased.status).toBe(200);
    expect(recased.body.data).toMatchObject({ id: majors.id, name: 'MAJORS', createdAt: majors.createdAt });
    expect((await call(t, 'patch', `/watchlist/${alts.id}`, token, { name: 'Alts 2' })).body.data.name).toBe('Alts 2');

    const deleted = await call(t, 'delete', `/watchlist/${alts.id}`, token);
    expect(deleted.status).toBe(200);
    expect(deleted.body.data).toMatchObject({ id: alts.id, name: 'Alts 2' });
    expect((await get(t, '/account/watchlist', key)).body.data.items).toEqual([{ id: majors.id, name: 'MAJORS', entryCount: 0 }]);
    expectRefusal(await get(t, `/account/watchlist/${alts.id}`, key), 404, 'NOT_FOUND');
    expectRefusal(await call(t, 'delete', `/watchlist/${alts.id}`, token), 404, 'NOT_FOUND');
    // The freed name can be taken again.
    expect((await call(t, 'post', '/watchlist', token, { name: 'alts 2' })).status).toBe(201);
  });

  it('refuses names that are empty, too long, not text or hold control characters, 400 naming name', async () => {
    const { token } = await proWallet(t);
    for (const name of ['', '   ', 'x'.repeat(65), 42, undefined, 'a\u0007b']) {
      expectRefusal(await call(t, 'post', '/watchlist', token, { name }), 400, 'VALIDATION_ERROR', 'name');
    }
    const group = await call(t, 'post', '/watchlist', token, { name: ` ${'x'.repeat(64)} ` });
    expect(group.status).toBe(201);
    expectRefusal(await call(t, 'patch', `/watchlist/${group.body.data.id}`, token, { name: 'y'.repeat(65) }), 400, 'VALIDATION_ERROR', 'name');
    expect((await call(t, 'get', '/watchlist', token)).body.data.map((g: { name: string }) => g.name)).toEqual(['x'.repeat(64)]);
  });

  it('allows 20 groups per account and refuses the 21st, 400 naming name; public paging pages over them', async () => {
    const { token, key } = await proWallet(t);
    for (let n = 1; n <= 20; n++) expect((await call(t, 'post', '/watchlist', token, { name: `g${n}` })).status).toBe(201);
    const refused = await call(t, 'post', '/watchlist', token, { name: 'g21' });
    expectRefusal(refused, 400, 'VALIDATION_ERROR', 'name');
    expect(refused.body.msg).toContain('20');
    const second = await get(t, '/account/watchlist?page=2&limit=8', key);
    expect(second.body.data).toMatchObject({ page: 2, limit: 8, total: 20, hasMore: true });
    expect(second.body.data.items.map((g: { name: string }) => g.name)).toEqual(['g9', 'g10', 'g11', 'g12', 'g13', 'g14', 'g15', 'g16']);
    expect((await get(t, '/account/watchlist?page=3&limit=8', key)).body.data).toMatchObject({ total: 20, hasMore: false });
    expectRefusal(await get(t, '/account/watchlist?limit=101', key), 400, 'VALIDATION_ERROR', 'limit');
  });

  it('never exceeds 20 groups under concurrent creates', async () => {
    const { token } = await proWallet(t);
    const answers = await Promise.all(Array.from({ length: 30 }, (_, n) => call(t, 'post', '/watchlist', token, { name: `race ${n}` })));
    expect(answers.filter((res) => res.status === 201)).toHaveLength(20);
    for (const res of answers.filter((r) => r.status !== 201)) expectRefusal(res, 400, 'VALIDATION_ERROR', 'name');
    expect((await call(t, 'get', '/watchlist', token)).body.data).toHaveLength(20);
  });

  it('answers another wallet’s group and a malformed id 404 NOT_FOUND on every route of both surfaces', async () => {
    const owner = await proWallet(t);
    const stranger = await proWallet(t);
    const group = (await call(t, 'post', '/watchlist', owner.token, { name: 'mine' })).body.data;
    for (const id of [group.id, 'not-a-uuid', '00000000-0000-0000-0000-000000000000']) {
      expectRefusal(await call(t, 'patch', `/watchlist/${id}`, stranger.token, { name: 'taken over' }), 404, 'NOT_FOUND');
      expectRefusal(await call(t, 'post', `/watchlist/${id}/entries`, stranger.token, { coin: 'BTC' }), 404, 'NOT_FOUND');
      expectRefusal(await call(t, 'post', `/watchlist/${id}/entries`, stranger.token, { coin: 'NOT-A-COIN' }), 404, 'NOT_FOUND');
      expectRefusal(await call(t, 'delete', `/watchlist/${id}/entries/BTC`, stranger.token), 404, 'NOT_FOUND');
      expectRefusal(await call(t, 'delete', `/watchlist/${id}`, stranger.token), 404, 'NOT_FOUND');
      const read = await get(t, `/account/watchlist/${id}`, stranger.key);
      expectRefusal(read, 404, 'NOT_FOUND');
      expect(read.headers['x-credits-cost']).toBe('0');
    }
    expect((await get(t, '/account/watchlist', stranger.key)).body.data).toMatchObject({ items: [], total: 0 });
    // Untouched for its owner.
    expect((await get(t, '/account/watchlist', owner.key)).body.data.items).toEqual([{ id: group.id, name: 'mine', entryCount: 0 }]);
  });
});
