import request from 'supertest';
import { AccountAdminService } from '../../src/modules/account/account-admin.service';
import { createTestApp, TestApp } from '../support/create-test-app';
import { makeAccount } from '../support/factories';
import { eventually, get, waitForFreshWindow } from '../support/http';
import { resetDb } from '../support/reset-db';
import { TEST_ADAPTER, testConfig } from '../support/test-env';

describe('Public API pipeline', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp(testConfig({ API_KEY_CACHE_TTL_MS: '500' }));
    await resetDb(t.db);
  });
  afterAll(() => t.close());

  describe('key auth', () => {
    it('answers 401 INVALID_API_KEY without a key, with rate-limit-free error headers', async () => {
      const res = await get(t, '/account');
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ code: 'INVALID_API_KEY', msg: expect.stringContaining('x-api-key'), data: null });
      expect(res.headers['x-request-id']).toEqual(expect.any(String));
      expect(res.headers['x-credits-cost']).toBe('0');
    });

    it('answers 401 for a well-formed key that does not exist and for junk', async () => {
      for (const key of ['mdk_' + 'a'.repeat(32), 'not-a-key', '']) {
        const res = await get(t, '/account', key);
        expect(res.status).toBe(401);
        expect(res.body.code).toBe('INVALID_API_KEY');
      }
    });

    it('stops accepting a revoked key within 5 seconds', async () => {
      const { key, prefix } = await makeAccount(t, { tier: 'free' });
      expect((await get(t, '/account', key)).status).toBe(200);
      await t.app.get(AccountAdminService).revokeKey({ prefix });
      const started = Date.now();
      const res = await eventually(
        () => get(t, '/account', key),
        (r) => r.status === 401,
        5000,
      );
      expect(res.status).toBe(401);
      expect(Date.now() - started).toBeLessThan(5000);
    });
  });

  describe('headers and envelope', () => {
    it('wraps success in the envelope and sets every pipeline header', async () => {
      const { key, wallet, prefix } = await makeAccount(t, { tier: 'pro' });
      const res = await get(t, '/account', key).set('x-request-id', 'client-chosen');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        code: '0',
        msg: 'success',
        data: {
          walletAddress: wallet,
          tier: 'Pro',
          rpm: 200,
          credits: { balance: '9999999', resetAnchorAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/) },
          keyPrefix: prefix,
        },
      });
      // Minted by the server (it keys the ledger row), never the client's.
      expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      expect(res.headers['x-ratelimit-limit']).toBe('200');
      expect(Number(res.headers['x-ratelimit-remaining'])).toBe(199);
      const reset = Number(res.headers['x-ratelimit-reset']);
      expect(reset % 60).toBe(0);
      expect(reset).toBeGreaterThan(Date.now() / 1000);
      expect(reset - Date.now() / 1000).toBeLessThanOrEqual(60);
      expect(res.headers['ratelimit-policy']).toBe('"minute";q=200;w=60');
      expect(res.headers['ratelimit']).toMatch(/^"minute";r=199;t=\d{1,2}$/);
      expect(res.headers['x-credits-cost']).toBe('1');
      expect(res.headers['x-credits-remaining']).toBe('9999999');
    });

    it('names the offending field on validation errors and does not bill them', async () => {
      const { key } = await makeAccount(t, { tier: 'pro' });
      for (const [query, field] of [
        ['limit=abc', 'limit'],
        ['limit=101', 'limit'],
        ['page=0', 'page'],
        ['page=501&limit=20', 'page'],
        ['bogus=1', 'bogus'],
      ]) {
        const res = await get(t, `/account/credits/transactions?${query}`, key);
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ code: 'VALIDATION_ERROR', msg: expect.stringMatching(new RegExp(`^${field}\\b`)), data: null });
        expect(res.headers['x-credits-cost']).toBe('0');
        expect(res.headers['x-credits-remaining']).toBe('10000000');
        expect(res.headers['x-ratelimit-limit']).toBe('200');
      }
    });

    it('refuses any query parameter on a route that takes none, unbilled, naming it', async () => {
      const { key } = await makeAccount(t, { tier: 'pro' });
      for (const [path, field] of [
        ['/account/credits?bogus=1', 'bogus'],
        ['/account?limt=5&page=2', 'limt'],
        ['/usage?period=previous', 'period'],
      ]) {
        const res = await get(t, path, key);
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ code: 'VALIDATION_ERROR', msg: `${field}: is not a known parameter (this endpoint takes none)`, data: null });
        expect(res.headers['x-credits-cost']).toBe('0');
        expect(res.headers['x-credits-remaining']).toBe('10000000');
        expect(res.headers['x-ratelimit-limit']).toBe('200');
      }
      // An empty query is no parameter.
      expect((await get(t, '/account/credits?', key)).status).toBe(200);
    });

    it('answers unknown routes with 404 NOT_FOUND in the envelope', async () => {
      const res = await request(t.server as never).get('/api/public/v1/nope');
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ code: 'NOT_FOUND', msg: expect.any(String), data: null });
      expect(res.headers['x-request-id']).toEqual(expect.any(String));
    });

    it('answers a path whose percent-encoding does not decode in the envelope, with a request id', async () => {
      const res = await request(t.server as never).get('/api/public/v1/account%ZZ');
      // Fastify refuses the path before routing (400); Express finds no route for it (404).
      expect(res.status).toBe(TEST_ADAPTER === 'fastify' ? 400 : 404);
      expect(res.body).toEqual({ code: TEST_ADAPTER === 'fastify' ? 'VALIDATION_ERROR' : 'NOT_FOUND', msg: expect.any(String), data: null });
      expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      expect(res.headers['x-credits-cost']).toBe('0');
    });

    it('keeps Free callers unmetered: cost 0 and no balance header', async () => {
      const { key } = await makeAccount(t, { tier: 'free' });
      const res = await get(t, '/account/credits', key);
      expect(res.status).toBe(200);
      expect(res.body.data.balance).toBe('0');
      expect(res.headers['x-credits-cost']).toBe('0');
      expect(res.headers['x-credits-remaining']).toBeUndefined();
      expect(res.headers['x-ratelimit-limit']).toBe('60');
    });
  });

  describe('rate limit', () => {
    it('admits exactly the Pro cap of 250 concurrent calls and answers the rest 429 with Retry-After', async () => {
      const { key } = await makeAccount(t, { tier: 'pro' });
      await waitForFreshWindow();
      const responses = await Promise.all(Array.from({ length: 250 }, () => get(t, '/usage', key)));
      const ok = responses.filter((r) => r.status === 200);
      const limited = responses.filter((r) => r.status === 429);
      expect(ok).toHaveLength(200);
      expect(limited).toHaveLength(50);
      for (const res of limited) {
        expect(res.body).toEqual({ code: 'RATE_LIMITED', msg: expect.any(String), data: null });
        expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
        expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(60);
        expect(res.headers['x-ratelimit-remaining']).toBe('0');
        expect(res.headers['x-credits-cost']).toBe('0');
        // A paid caller learns its balance on a 429 too (/usage is free: nothing was taken).
        expect(res.headers['x-credits-remaining']).toBe('10000000');
      }
    });

    it('tells a Free caller no balance on a 429 either', async () => {
      const { key } = await makeAccount(t, { tier: 'free' });
      await waitForFreshWindow();
      const responses = await Promise.all(Array.from({ length: 61 }, () => get(t, '/usage', key)));
      const limited = responses.filter((r) => r.status === 429);
      expect(limited).toHaveLength(1);
      expect(limited[0].headers['x-credits-cost']).toBe('0');
      expect(limited[0].headers['x-credits-remaining']).toBeUndefined();
    });

    it('does not bill rate-limited calls', async () => {
      const { key } = await makeAccount(t, { tier: 'pro' });
      await waitForFreshWindow();
      const responses = await Promise.all(Array.from({ length: 210 }, () => get(t, '/account/credits', key)));
      expect(responses.filter((r) => r.status === 200)).toHaveLength(200);
      const last = await get(t, '/usage', key);
      expect(last.status).toBe(429);
      expect(last.headers['x-credits-remaining']).toBe('9999800');
      const balances = responses.filter((r) => r.status === 200).map((r) => Number(r.body.data.balance));
      expect(Math.min(...balances)).toBe(10_000_000 - 200);
    });
  });
});
