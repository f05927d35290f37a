import { Wallet } from 'ethers';
import { AccountAdminService } from '../../src/modules/account/account-admin.service';
import { createTestApp, TestApp } from '../support/create-test-app';
import { get } from '../support/http';
import { resetDb } from '../support/reset-db';
import { testConfig } from '../support/test-env';
import { backend, signIn } from '../support/wallet-session';

const today = () => new Date().toISOString().slice(0, 10);

describe('The wallet’s account and usage behind a session (/api/v1/account, /api/v1/usage)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp(testConfig());
    await resetDb(t.db);
  });
  afterAll(() => t.close());

  it('shows a new wallet its Free account: 60 rpm, balance "0", no key yet', async () => {
    const wallet = Wallet.createRandom();
    const { token } = await signIn(t, wallet);
    const res = await backend(t, 'get', '/account', token);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      walletAddress: wallet.address.toLowerCase(),
      tier: 'Free',
      rpm: 60,
      credits: { balance: '0', resetAnchorAt: expect.stringMatching(/Z$/) },
      keyPrefix: null,
    });
  });

  it('refuses an unknown query parameter on a backend route that takes none, naming it, as every other route does', async () => {
    const { token } = await signIn(t);
    for (const path of ['/account?verbose=1', '/keys?limt=5', '/watchlist?x=1']) {
      const res = await backend(t, 'get', path, token);
      expect({ path, status: res.status, code: res.body.code, msg: res.body.msg }).toEqual({
        path,
        status: 400,
        code: 'VALIDATION_ERROR',
        msg: `${path.split('?')[1].split('=')[0]}: is not a known parameter (this endpoint takes none)`,
      });
    }
    // A route with a query DTO still takes its own parameters.
    expect((await backend(t, 'get', '/usage?days=7', token)).status).toBe(200);
    expect((await backend(t, 'get', '/account', token)).status).toBe(200);
  });

  it('shows a paid account the same balance the public /account shows its key, and the newest active key', async () => {
    const wallet = Wallet.createRandom();
    const { token } = await signIn(t, wallet);
    await t.app.get(AccountAdminService).setTier({ wallet: wallet.address, tier: 'pro' });
    const older = (await backend(t, 'post', '/keys', token).send({ name: 'older' })).body.data;
    const newer = (await backend(t, 'post', '/keys', token).send({ name: 'newer' })).body.data;
    // Two billed calls, then the public summary (a third, 1 credit each).
    await get(t, '/hl/prices/mids', older.key);
    await get(t, '/account/credits', older.key);
    const viaKey = (await get(t, '/account', older.key)).body.data;
    const viaSession = (await backend(t, 'get', '/account', token)).body.data;
    expect(viaSession).toEqual({ ...viaKey, keyPrefix: newer.prefix });
    expect(viaSession.tier).toBe('Pro');
    expect(viaSession.credits.balance).toBe('9999997');
  });

  it('lists every one of the last N days, oldest first, with the calls made today per endpoint', async () => {
    const { token } = await signIn(t);
    const key = (await backend(t, 'post', '/keys', token).send({ name: 'bot' })).body.data.key;
    await get(t, '/usage', key);
    await get(t, '/usage', key);
    await get(t, '/account', key);
    const res = await backend(t, 'get', '/usage?days=7', token);
    expect(res.status).toBe(200);
    const { from, to, days } = res.body.data;
    expect(to).toBe(today());
    expect(days).toHaveLength(7);
    expect(days[0].date).toBe(from);
    expect(days.map((d: { date: string }) => d.date)).toEqual([...days.map((d: { date: string }) => d.date)].sort());
    expect(days.slice(0, 6).every((d: { calls: number; endpoints: unknown[] }) => d.calls === 0 && d.endpoints.length === 0)).toBe(true);
    expect(days[6]).toEqual({
      date: today(),
      calls: 3,
      credits: '0',
      endpoints: [
        { endpoint: 'account.summary', calls: 1, credits: '0' },
        { endpoint: 'usage.list', calls: 2, credits: '0' },
      ],
    });
  });

  it('defaults to 30 days and refuses days out of 1..90 or unknown parameters, naming them', async () => {
    const { token } = await signIn(t);
    expect((await backend(t, 'get', '/usage', token)).body.data.days).toHaveLength(30);
    for (const [query, field] of [
      ['days=0', 'days'],
      ['days=91', 'days'],
      ['days=abc', 'days'],
      ['day=3', 'day'],
    ]) {
      const res = await backend(t, 'get', `/usage?${query}`, token);
      expect(res.status).toBe(400);
      expect(res.body.msg).toMatch(new RegExp(`^${field}: `));
    }
  });

  it('refuses both routes without a session', async () => {
    for (const path of ['/account', '/usage']) expect((await backend(t, 'get', path)).status).toBe(401);
  });
});
