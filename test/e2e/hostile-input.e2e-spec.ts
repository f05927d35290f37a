import request from 'supertest';
import { Wallet } from 'ethers';
import { MAX_BODY_DEPTH } from '../../src/common/http/body-depth';
import { AccountAdminService } from '../../src/modules/account/account-admin.service';
import { HlCatalogService } from '../../src/modules/hl/hl-catalog.service';
import { createTestApp, TestApp } from '../support/create-test-app';
import { seedHlReference } from '../support/hl-seed';
import { get } from '../support/http';
import { resetDb } from '../support/reset-db';
import { TEST_ADAPTER } from '../support/test-env';
import { BACKEND, backend, signIn } from '../support/wallet-session';

type Method = 'get' | 'post' | 'put' | 'delete';
type Answer = { status: number; body: unknown };

const NUL = '\u0000';
const refusal = (msg: string): Answer => ({ status: 400, body: { code: 'VALIDATION_ERROR', msg, data: null } });
const nulRefusal = (field: string) => refusal(`${field}: must not contain a NUL character (U+0000)`);
const answer = ({ status, body }: Answer): Answer => ({ status, body });

/** A JSON document whose `field` holds `depth` nested arrays: `{"field":[[...]]}` is depth + 1 levels. */
const nested = (field: string, depth: number) => `{"${field}":${'['.repeat(depth)}${']'.repeat(depth)}}`;

describe('Hostile input: NUL characters and deeply nested bodies are 400 naming the field', () => {
  let t: TestApp;
  let token: string;
  let key: string;
  let groupId: string;

  const call = (method: Method, path: string, body?: object | string) => {
    const req = request(t.server as Parameters<typeof request>[0])
      [method](`${BACKEND}${path}`)
      .set('authorization', `Bearer ${token}`);
    if (typeof body === 'string') return req.set('content-type', 'application/json').send(body);
    return body === undefined ? req : req.send(body);
  };

  const put = (path: string, body: object) => call('put', path, body);

  beforeAll(async () => {
    t = await createTestApp();
    await resetDb(t.db);
    await seedHlReference(t.db);
    t.app.get(HlCatalogService).invalidate();
    const wallet = Wallet.createRandom();
    ({ token } = await signIn(t, wallet));
    await t.app.get(AccountAdminService).setTier({ wallet: wallet.address, tier: 'pro' });
    key = (await backend(t, 'post', '/keys', token).send({ name: 'k' })).body.data.key;
    groupId = (await call('post', '/watchlist', { name: 'watch' })).body.data.id;
  });
  afterAll(() => t.close());

  describe('NUL (U+0000)', () => {
    it('refuses one in a query value on a public route, unbilled', async () => {
      const res = await get(t, '/account/notifications?coin=BTC%00', key);
      expect(answer(res)).toEqual(nulRefusal('coin'));
      expect(res.headers['x-credits-cost']).toBe('0');
    });

    // The public routes the fuzzer found answering 500, each with the field it named.
    it.each([
      ['/assets/BTC%00', 'symbol'],
      ['/assets/BTC%00/klines?interval=1h', 'symbol'],
      ['/assets/BTC%00/tickers', 'symbol'],
      ['/search?q=bt%00c', 'q'],
      ['/news/search?q=%00', 'q'],
      ['/news?assetSymbol=BTC%00', 'assetSymbol'],
      ['/news/1?assetSymbol=BTC%00', 'assetSymbol'],
      ['/stock/AAPL%00/fundamentals', 'symbol'],
      ['/stock/AAPL%00/company', 'symbol'],
      ['/stock/AAPL%00/sec-filings', 'symbol'],
      ['/stock/AAPL%00/news', 'symbol'],
    ])('refuses one on %s naming %s', async (path, field) => {
      expect(answer(await get(t, path, key))).toEqual(nulRefusal(field));
    });

    it('refuses one in a query value on a backend route', async () => {
      expect(answer(await call('get', '/notifications?coin=%00BTC'))).toEqual(nulRefusal('coin'));
    });

    it('refuses one in a query parameter name, naming the query', async () => {
      expect(answer(await get(t, '/account/notifications?co%00in=BTC', key))).toEqual(refusal('query: a name must not contain a NUL character (U+0000)'));
    });

    it('refuses one in a path parameter', async () => {
      expect(answer(await call('delete', `/watchlist/${groupId}/entries/BTC%00`))).toEqual(nulRefusal('coin'));
      expect(answer(await get(t, `/account/watchlist/${groupId}%00`, key))).toEqual(nulRefusal('groupId'));
    });

    it('refuses one in a body field, and in a field nested in arrays and objects, by its path', async () => {
      expect(answer(await call('post', `/watchlist/${groupId}/entries`, { coin: `BTC${NUL}` }))).toEqual(nulRefusal('coin'));
      expect(answer(await call('post', '/cohorts', { name: `desk${NUL}` }))).toEqual(nulRefusal('name'));
      const member = { address: '0x' + 'c'.repeat(40), tags: ['ok', `x${NUL}`] };
      expect(answer(await call('post', '/cohorts', { name: 'desk', addresses: [member] }))).toEqual(nulRefusal('addresses.0.tags.1'));
      expect(answer(await put('/opc', { name: `opc${NUL}` }))).toEqual(nulRefusal('name'));
      expect(answer(await put('/opc', { name: 'opc', logoUrl: `https://example.com/${NUL}.png` }))).toEqual(nulRefusal('logoUrl'));
    });

    it('refuses one in a body field name, naming the object that holds it', async () => {
      expect(answer(await call('post', '/cohorts', { [`na${NUL}me`]: 'desk' }))).toEqual(refusal('body: a name must not contain a NUL character (U+0000)'));
    });

    it('still accepts the same requests without it', async () => {
      expect((await get(t, '/account/notifications?coin=BTC', key)).status).toBe(200);
      expect((await call('post', `/watchlist/${groupId}/entries`, { coin: 'BTC' })).status).toBe(201);
      expect((await call('delete', `/watchlist/${groupId}/entries/BTC`)).status).toBe(200);
    });
  });

  describe('nesting depth', () => {
    it.each(['/auth/login', '/auth/sign-message'])('refuses a body 2,000 levels deep on %s, which needs no session', async (path) => {
      const res = await request(t.server as Parameters<typeof request>[0])
        .post(`${BACKEND}${path}`)
        .set('content-type', 'application/json')
        .send(nested('address', 2000));
      expect(answer(res)).toEqual(refusal(`body: nested deeper than ${MAX_BODY_DEPTH} levels`));
    });

    it('refuses a form body nested past the bound naming body where its parser nests names (Express)', async () => {
      const res = await request(t.server as Parameters<typeof request>[0])
        .post(`${BACKEND}/auth/login`)
        .type('form')
        .send(`address${'[a]'.repeat(MAX_BODY_DEPTH + 8)}=1`);
      // Fastify's form parser never nests: the bracketed name is one unknown field.
      expect(answer(res)).toEqual(
        TEST_ADAPTER === 'express' ? refusal(`body: nested deeper than ${MAX_BODY_DEPTH} levels`) : expect.objectContaining({ status: 400 }),
      );
    });

    it('refuses a body one level past the bound on a session route, and checks one at the bound as usual', async () => {
      expect(answer(await call('post', '/cohorts', nested('name', MAX_BODY_DEPTH)))).toEqual(refusal(`body: nested deeper than ${MAX_BODY_DEPTH} levels`));
      expect(answer(await call('post', '/cohorts', nested('name', MAX_BODY_DEPTH - 1)))).toEqual(refusal('name: must be a string'));
    });
  });
});
