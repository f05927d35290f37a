import request from 'supertest';
import { getAddress, Wallet } from 'ethers';
import { MAX_ADDRESSES_PER_COHORT, MAX_COHORTS_PER_ACCOUNT } from '../../src/modules/cohorts/cohort-limits';
import { createTestApp, TestApp } from '../support/create-test-app';
import { resetDb } from '../support/reset-db';
import { BACKEND, signIn } from '../support/wallet-session';

type Method = 'get' | 'post' | 'patch' | 'delete';

/** A backend call with the bearer token and, when given, a JSON body (DELETE included). */
function call(t: TestApp, method: Method, path: string, token: string, body?: object) {
  const req = request(t.server as Parameters<typeof request>[0])
    [method](`${BACKEND}${path}`)
    .set('authorization', `Bearer ${token}`);
  return body === undefined ? req : req.send(body);
}

/** The n-th test address, lower case. */
const addr = (n: number) => '0x' + n.toString(16).padStart(40, 'c');

describe('Cohorts behind a wallet session (/api/v1/cohorts)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
    await resetDb(t.db);
  });
  afterAll(async () => {
    await t.close();
  });

  const create = (token: string, body: object) => call(t, 'post', '/cohorts', token, body);

  it('creates, lists, reads, renames and deletes a cohort', async () => {
    const { token } = await signIn(t);
    const checksummed = getAddress(addr(1));
    expect(checksummed).not.toBe(addr(1));
    const created = await create(token, { name: '  Desk A  ', addresses: [{ address: checksummed, tags: ['desk-a', 'eth:whale'] }, { address: addr(2) }] });
    expect(created.status).toBe(201);
    const cohort = created.body.data;
    expect(cohort).toMatchObject({ name: 'Desk A', addressCount: 2 });
    expect(cohort.addresses.map((a: { address: string; tags: string[] }) => [a.address, a.tags])).toEqual([
      [addr(1), ['desk-a', 'eth:whale']],
      [addr(2), []],
    ]);

    const listed = await call(t, 'get', '/cohorts', token);
    expect(listed.status).toBe(200);
    expect(listed.body.data).toEqual([{ id: cohort.id, name: 'Desk A', addressCount: 2, createdAt: cohort.createdAt, updatedAt: cohort.updatedAt }]);
    const read = await call(t, 'get', `/cohorts/${cohort.id}`, token);
    expect(read.body.data).toEqual(cohort);

    const renamed = await call(t, 'patch', `/cohorts/${cohort.id}`, token, { name: 'Desk B' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data).toMatchObject({ id: cohort.id, name: 'Desk B', addressCount: 2 });
    // Renaming to its own name in another case is no clash with itself.
    expect((await call(t, 'patch', `/cohorts/${cohort.id}`, token, { name: 'DESK b' })).status).toBe(200);

    const deleted = await call(t, 'delete', `/cohorts/${cohort.id}`, token);
    expect(deleted.status).toBe(200);
    expect(deleted.body.data).toMatchObject({ id: cohort.id, name: 'DESK b' });
    expect((await call(t, 'get', `/cohorts/${cohort.id}`, token)).status).toBe(404);
    expect((await call(t, 'get', '/cohorts', token)).body.data).toEqual([]);
    expect(await t.db.query(`SELECT 1 FROM cohort_addresses WHERE cohort_id = $1`, [cohort.id])).toEqual([]);
  });

  it('adds members idempotently, replaces tags only when given, and removes members with a DELETE body', async () => {
    const { token } = await signIn(t);
    const { id } = (await create(token, { name: 'members' })).body.data;
    const add = (addresses: object[]) => call(t, 'post', `/cohorts/${id}/addresses`, token, { addresses });

    const first = await add([{ address: addr(1), tags: ['a'] }, { address: addr(2) }]);
    expect(first.status).toBe(200);
    const again = await add([{ address: addr(1), tags: ['a'] }, { address: addr(2) }]);
    expect(again.body.data.addresses).toEqual(first.body.data.addresses);

    // Tags given replace; omitted keep; an address repeated in one request counts once (last wins).
    const retagged = await add([{ address: addr(1) }, { address: addr(2), tags: ['x', 'y', 'x'] }, { address: addr(2), tags: ['z'] }]);
    expect(retagged.body.data.addresses.map((a: { address: string; tags: string[] }) => [a.address, a.tags])).toEqual([
      [addr(1), ['a']],
      [addr(2), ['z']],
    ]);
    const cleared = await add([{ address: addr(1), tags: [] }]);
    expect(cleared.body.data.addresses[0]).toMatchObject({ address: addr(1), tags: [] });

    const removed = await call(t, 'delete', `/cohorts/${id}/addresses`, token, { addresses: [addr(1).toUpperCase().replace('0X', '0x'), addr(9)] });
    expect(removed.status).toBe(200);
    expect(removed.body.data.addresses.map((a: { address: string }) => a.address)).toEqual([addr(2)]);
    expect(removed.body.data.addressCount).toBe(1);
  });

  it('puts every member into the polled universe with the cohort source, due for a read, without the private tags', async () => {
    const { token } = await signIn(t);
    await t.db.query(
      `INSERT INTO hl_addresses (address, sources, tags, polled_at, next_poll_at) VALUES ($1, '{leaderboard}', '{}', now(), now() + interval '1 hour')`,
      [addr(51)],
    );
    const created = await create(token, { name: 'universe', addresses: [{ address: addr(50), tags: ['secret'] }, { address: addr(51) }] });
    expect(created.status).toBe(201);
    const rows = await t.db.query(`SELECT address, sources, tags, next_poll_at <= now() AS due FROM hl_addresses WHERE address = ANY($1) ORDER BY address`, [
      [addr(50), addr(51)],
    ]);
    expect(rows).toEqual([
      { address: addr(50), sources: ['cohort'], tags: [], due: true },
      // Already polled on its own cadence: it keeps it, and gains the source.
      { address: addr(51), sources: ['leaderboard', 'cohort'], tags: [], due: false },
    ]);
    await call(t, 'post', `/cohorts/${created.body.data.id}/addresses`, token, { addresses: [{ address: addr(52) }] });
    expect(await t.db.query(`SELECT sources FROM hl_addresses WHERE address = $1 AND next_poll_at <= now()`, [addr(52)])).toEqual([{ sources: ['cohort'] }]);
    // Leaving the cohort does not leave the universe.
    await call(t, 'delete', `/cohorts/${created.body.data.id}/addresses`, token, { addresses: [addr(50)] });
    expect(await t.db.query(`SELECT 1 AS n FROM hl_addresses WHERE address = $1`, [addr(50)])).toEqual([{ n: 1 }]);
  });

  it('refuses duplicate names ignoring case, and bad names, 400 naming name', async () => {
    const { token } = await signIn(t);
    expect((await create(token, { name: 'Whales' })).status).toBe(201);
    const dup = await create(token, { name: ' wHALES ' });
    expect(dup.status).toBe(400);
    expect(dup.body).toMatchObject({ code: 'VALIDATION_ERROR', data: null });
    expect(dup.body.msg).toMatch(/^name: /);
    const { id } = (await create(token, { name: 'Other' })).body.data;
    expect((await call(t, 'patch', `/cohorts/${id}`, token, { name: 'whales' })).body.msg).toMatch(/^name: /);
    for (const name of ['', '   ', 'x'.repeat(65), 42, undefined]) {
      const res = await create(token, { name });
      expect({ name, status: res.status }).toEqual({ name, status: 400 });
      expect(res.body.msg).toMatch(/^name: /);
    }
    expect((await create(token, { name: 'x'.repeat(64) })).status).toBe(201);
    // Another wallet may use the same name.
    expect((await create((await signIn(t)).token, { name: 'Whales' })).status).toBe(201);
  });

  it('refuses bad addresses and tags 400 naming the field', async () => {
    const { token } = await signIn(t);
    const { id } = (await create(token, { name: 'validation' })).body.data;
    const badChecksum = getAddress(addr(3)).replace(/[a-f]/, (c) => c.toUpperCase());
    const cases: Array<[object, RegExp]> = [
      [{ addresses: [{ address: '0x1234' }] }, /^addresses\.0\.address: /],
      [{ addresses: [{ address: addr(77) }, { address: badChecksum }] }, /^addresses\.1\.address: .*EIP-55/],
      [{ addresses: [{ address: addr(77), tags: ['has space'] }] }, /^addresses\.0\.tags: /],
      [{ addresses: [{ address: addr(77), tags: ['x'.repeat(33)] }] }, /^addresses\.0\.tags: /],
      [{ addresses: [{ address: addr(77), tags: Array.from({ length: 9 }, (_, k) => `t${k}`) }] }, /^addresses\.0\.tags: /],
      [{ addresses: [] }, /^addresses: /],
      [{}, /^addresses: /],
    ];
    for (const [body, msg] of cases) {
      const res = await call(t, 'post', `/cohorts/${id}/addresses`, token, body);
      expect({ body, status: res.status, msg: res.body.msg }).toEqual({ body, status: 400, msg: expect.stringMatching(msg) });
    }
    const removal = await call(t, 'delete', `/cohorts/${id}/addresses`, token, { addresses: [addr(77), 'nope'] });
    expect(removal.status).toBe(400);
    expect(removal.body.msg).toMatch(/^addresses: /);
    expect((await call(t, 'get', `/cohorts/${id}`, token)).body.data.addressCount).toBe(0);
    expect(await t.db.query(`SELECT 1 FROM hl_addresses WHERE address = $1`, [addr(77)])).toEqual([]);
  });

  it(`holds at most ${MAX_COHORTS_PER_ACCOUNT} cohorts per wallet, even when created concurrently`, async () => {
    const { token } = await signIn(t);
    const results = await Promise.all(Array.from({ length: MAX_COHORTS_PER_ACCOUNT + 3 }, (_, n) => create(token, { name: `c${n}` })));
    expect(results.filter((r) => r.status === 201)).toHaveLength(MAX_COHORTS_PER_ACCOUNT);
    const refused = results.filter((r) => r.status !== 201);
    expect(refused.map((r) => [r.status, r.body.code])).toEqual(refused.map(() => [400, 'VALIDATION_ERROR']));
    expect(refused[0].body.msg).toMatch(new RegExp(`^name: .*${MAX_COHORTS_PER_ACCOUNT} cohorts`));
    expect((await call(t, 'get', '/cohorts', token)).body.data).toHaveLength(MAX_COHORTS_PER_ACCOUNT);
  });

  it(`holds at most ${MAX_ADDRESSES_PER_COHORT} addresses per cohort, even when added concurrently`, async () => {
    const { token } = await signIn(t);
    const members = (from: number, count: number) => Array.from({ length: count }, (_, k) => ({ address: addr(1000 + from + k) }));
    const { id } = (await create(token, { name: 'full', addresses: members(0, MAX_ADDRESSES_PER_COHORT - 10) })).body.data;
    const [a, b] = await Promise.all([
      call(t, 'post', `/cohorts/${id}/addresses`, token, { addresses: members(10_000, 8) }),
      call(t, 'post', `/cohorts/${id}/addresses`, token, { addresses: members(20_000, 8) }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 400]);
    expect((a.status === 400 ? a : b).body.msg).toMatch(new RegExp(`^addresses: .*${MAX_ADDRESSES_PER_COHORT}`));
    expect((await call(t, 'get', `/cohorts/${id}`, token)).body.data.addressCount).toBe(MAX_ADDRESSES_PER_COHORT - 2);
    // Re-adding present members is no growth, so it passes at the limit.
    const readd = await call(t, 'post', `/cohorts/${id}/addresses`, token, { addresses: members(0, 3) });
    expect(readd.status).toBe(200);
    const tooMany = await create(token, { name: 'too many', addresses: members(0, MAX_ADDRESSES_PER_COHORT + 1) });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.msg).toMatch(/^addresses: /);
  });

  it('answers 404 NOT_FOUND for another wallet’s cohort and for a malformed id, on every route', async () => {
    const owner = await signIn(t);
    const intruder = await signIn(t, Wallet.createRandom());
    const { id } = (await create(owner.token, { name: 'private', addresses: [{ address: addr(7) }] })).body.data;
    for (const target of [id, 'not-a-uuid']) {
      const attempts = [
        call(t, 'get', `/cohorts/${target}`, intruder.token),
        call(t, 'patch', `/cohorts/${target}`, intruder.token, { name: 'mine' }),
        call(t, 'delete', `/cohorts/${target}`, intruder.token),
        call(t, 'post', `/cohorts/${target}/addresses`, intruder.token, { addresses: [{ address: addr(8) }] }),
        call(t, 'delete', `/cohorts/${target}/addresses`, intruder.token, { addresses: [addr(7)] }),
        call(t, 'get', `/cohorts/${target}/positions`, intruder.token),
      ];
      for (const res of await Promise.all(attempts)) {
        expect({ target, status: res.status, code: res.body.code }).toEqual({ target, status: 404, code: 'NOT_FOUND' });
      }
    }
    const untouched = (await call(t, 'get', `/cohorts/${id}`, owner.token)).body.data;
    expect(untouched).toMatchObject({ name: 'private', addressCount: 1 });
    expect((await call(t, 'get', '/cohorts', intruder.token)).body.data).toEqual([]);
  });

  it('refuses a request without a session 401', async () => {
    const res = await request(t.server as Parameters<typeof request>[0]).get(`${BACKEND}/cohorts`);
    expect(res.status).toBe(401);
  });
});
