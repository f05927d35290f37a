import { Wallet } from 'ethers';
import { createTestApp, TestApp } from '../support/create-test-app';
import { get } from '../support/http';
import { resetDb } from '../support/reset-db';
import { testConfig } from '../support/test-env';
import { backend, signIn } from '../support/wallet-session';

const createKey = (t: TestApp, token: string, name: unknown) => backend(t, 'post', '/keys', token).send({ name });

describe('API keys behind a wallet session (/api/v1/keys)', () => {
  let t: TestApp;
  let other: TestApp;

  beforeAll(async () => {
    const config = testConfig();
    t = await createTestApp(config);
    // A second replica on the same PostgreSQL and Redis.
    other = await createTestApp(testConfig({ REDIS_KEY_PREFIX: config.redis.keyPrefix }));
    await resetDb(t.db);
  });
  afterAll(async () => {
    await other.close();
    await t.close();
  });

  it('creates a key whose plaintext is answered once and works on the public API; listings never show it', async () => {
    const { token } = await signIn(t);
    const created = await createKey(t, token, '  trading bot  ');
    expect(created.status).toBe(201);
    const key = created.body.data;
    expect(key).toMatchObject({ name: 'trading bot', status: 'active', lastUsedAt: null, revokedAt: null, key: expect.stringMatching(/^mdk_/) });
    expect(key.key.startsWith(key.prefix)).toBe(true);
    expect((await get(t, '/usage', key.key)).status).toBe(200);

    const listed = await backend(t, 'get', '/keys', token);
    expect(listed.status).toBe(200);
    expect(listed.body.data).toEqual([
      { id: key.id, name: 'trading bot', prefix: key.prefix, createdAt: key.createdAt, lastUsedAt: null, revokedAt: null, status: 'active' },
    ]);
    expect(JSON.stringify(listed.body)).not.toContain(key.key);
  });

  it('refuses a sixth active key 403 FORBIDDEN saying the limit, and allows one again after a revoke', async () => {
    const { token } = await signIn(t);
    const ids: string[] = [];
    for (let n = 1; n <= 5; n++) ids.push((await createKey(t, token, `key ${n}`)).body.data.id);
    const sixth = await createKey(t, token, 'key 6');
    expect(sixth.status).toBe(403);
    expect(sixth.body).toMatchObject({ code: 'FORBIDDEN', data: null });
    expect(sixth.body.msg).toContain('5 active keys');
    expect((await backend(t, 'delete', `/keys/${ids[0]}`, token)).status).toBe(200);
    expect((await createKey(t, token, 'key 6')).status).toBe(201);
    const listed = (await backend(t, 'get', '/keys', token)).body.data as Array<{ name: string; status: string }>;
    expect(listed.map((k) => k.name)).toEqual(['key 6', 'key 5', 'key 4', 'key 3', 'key 2', 'key 1']);
    expect(listed.filter((k) => k.status === 'active')).toHaveLength(5);
  });

  it('refuses bad names 400 naming name', async () => {
    const { token } = await signIn(t);
    for (const name of ['', '   ', 'x'.repeat(65), 42, undefined, '<script>']) {
      const res = await createKey(t, token, name);
      expect(res.status).toBe(400);
      expect(res.body.msg).toMatch(/^name: /);
    }
  });

  it('revokes a key: refused by the public API on another replica within 5 seconds; revoking again answers the same', async () => {
    const { token } = await signIn(t);
    const key = (await createKey(t, token, 'to revoke')).body.data;
    // The other replica has the key cached as valid before the revoke.
    expect((await get(other, '/usage', key.key)).status).toBe(200);
    const revoked = await backend(t, 'delete', `/keys/${key.id}`, token);
    expect(revoked.status).toBe(200);
    expect(revoked.body.data).toMatchObject({ id: key.id, status: 'revoked', revokedAt: expect.any(String) });
    const revokedAt = Date.now();
    let status = 200;
    while (status === 200 && Date.now() - revokedAt < 6000) {
      status = (await get(other, '/usage', key.key)).status;
      if (status === 200) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(status).toBe(401);
    expect(Date.now() - revokedAt).toBeLessThan(5000);
    const again = await backend(t, 'delete', `/keys/${key.id}`, token);
    expect(again.body.data.revokedAt).toBe(revoked.body.data.revokedAt);
  });

  it("answers 404 for another wallet's key (and leaves it working), 400 for an id that is no UUID", async () => {
    const owner = await signIn(t);
    const stranger = await signIn(t, Wallet.createRandom());
    const key = (await createKey(t, owner.token, 'mine')).body.data;
    const res = await backend(t, 'delete', `/keys/${key.id}`, stranger.token);
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: 'NOT_FOUND', data: null });
    expect((await backend(t, 'get', '/keys', owner.token)).body.data[0].status).toBe('active');
    expect((await backend(t, 'get', '/keys', stranger.token)).body.data).toEqual([]);
    const bad = await backend(t, 'delete', '/keys/not-a-uuid', owner.token);
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toMatch(/^id: /);
  });

  it('refuses every key route without a session', async () => {
    for (const res of [
      await backend(t, 'get', '/keys'),
      await backend(t, 'post', '/keys').send({ name: 'x' }),
      await backend(t, 'delete', `/keys/${crypto.randomUUID()}`),
    ]) {
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('UNAUTHORIZED');
    }
  });
});
