import request from 'supertest';
import { HlCatalogService } from '../../src/modules/hl/hl-catalog.service';
import { createTestApp, TestApp } from '../support/create-test-app';
import { makeAccount } from '../support/factories';
import { seedHlReference } from '../support/hl-seed';
import { get } from '../support/http';
import { resetDb } from '../support/reset-db';

type Parameter = { name: string; in: string; required?: boolean; example?: unknown; schema?: Record<string, unknown> };

/** Every public route that takes query parameters, with the least query that passes validation. */
const PAGED_ROUTES = [
  '/hl/spot/holders?coin=HYPE',
  '/hl/perp/holders?coin=BTC',
  '/hl/trending?period=1h',
  '/hl/leaderboard?sort=pnl_day',
  '/hl/hip3/smart-trader?coin=xyz:TSLA',
  '/hl/hip4/smart-trader?outcomeId=0',
  '/account/credits/transactions?',
];
const join = (route: string, extra: string) => (route.endsWith('?') ? `${route}${extra}` : `${route}&${extra}`);

describe('Query parameter validation', () => {
  let t: TestApp;
  let key: string;
  let calls = 0;

  beforeAll(async () => {
    t = await createTestApp();
    await resetDb(t.db);
    // The listed coins and outcomes, without a snapshot: a valid query then gets 502, never 400.
    await seedHlReference(t.db);
    t.app.get(HlCatalogService).invalidate();
  });
  afterAll(() => t.close());

  /** A fresh key every 300 calls keeps the suite far below the tier's per-minute cap. */
  async function call(path: string) {
    if (calls++ % 300 === 0) ({ key } = await makeAccount(t, { tier: 'max' }));
    return get(t, path, key);
  }

  async function expectRefused(path: string, msg: string): Promise<void> {
    const res = await call(path);
    expect({ path, status: res.status, body: res.body }).toEqual({ path, status: 400, body: { code: 'VALIDATION_ERROR', msg, data: null } });
    expect(res.headers['x-credits-cost']).toBe('0');
  }

  /** Passed validation: the /hl routes then answer 502, as no snapshot is published. */
  async function expectAccepted(path: string): Promise<void> {
    const res = await call(path);
    expect({ path, status: res.status, body: res.body }).toEqual({
      path,
      status: 502,
      body: { code: 'MARKET_UPSTREAM_ERROR', msg: 'no snapshot published yet', data: null },
    });
  }

  describe('integers', () => {
    it.each(PAGED_ROUTES)('%s says a non-numeric limit or page is not an integer', async (route) => {
      await expectRefused(join(route, 'limit=abc'), 'limit: must be an integer');
      await expectRefused(join(route, 'page=abc'), 'page: must be an integer');
      await expectRefused(join(route, 'limit='), 'limit: must be an integer');
    });

    it.each(PAGED_ROUTES)('%s says a repeated limit or page is given more than once', async (route) => {
      await expectRefused(join(route, 'limit=1&limit=2'), 'limit: given more than once');
      await expectRefused(join(route, 'page=1&page=1'), 'page: given more than once');
    });

    // Decimal digits only: no hex, exponent, sign, surrounding space or fraction.
    it.each(['1e2', '0x10', '+1', '%205', '5%20', '1.0', '1_0', '-', '--1', '1-', '%D9%A3'])('refuses limit=%s as not an integer', async (limit) => {
      await expectRefused(`/hl/perp/holders?coin=BTC&limit=${limit}`, 'limit: must be an integer');
      await expectRefused(`/account/credits/transactions?limit=${limit}`, 'limit: must be an integer');
    });

    it.each(['0x1', '1e0', '+0', '%200'])('refuses outcomeId=%s as not an integer', async (outcomeId) => {
      await expectRefused(`/hl/hip4/smart-trader?outcomeId=${outcomeId}`, 'outcomeId: must be an integer');
    });

    it('says a negative number is negative where negatives make no sense', async () => {
      await expectRefused('/hl/perp/holders?coin=BTC&limit=-1', 'limit: must not be negative');
      await expectRefused('/hl/trending?page=-2', 'page: must not be negative');
      await expectRefused('/hl/hip4/smart-trader?outcomeId=-0', 'outcomeId: must not be negative');
    });

    it('keeps the bounds messages for integers out of range', async () => {
      await expectRefused('/hl/perp/holders?coin=BTC&limit=501', 'limit: must not be greater than 500');
      await expectRefused('/hl/perp/holders?coin=BTC&limit=0', 'limit: must not be less than 1');
      await expectRefused('/hl/perp/holders?coin=BTC&limit=99999999999999999999', 'limit: must not be greater than 500');
      await expectRefused('/hl/trending?page=0', 'page: must not be less than 1');
    });

    it('accepts plain decimal integers, leading zeros included', async () => {
      await expectAccepted('/hl/perp/holders?coin=BTC&limit=007&page=2');
      await expectAccepted('/hl/hip4/smart-trader?outcomeId=00');
      const res = await call('/account/credits/transactions?limit=020&page=01');
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ page: 1, limit: 20 });
    });

    it('answers the same query string the same way every time (the validation pipe remembers only valid ones)', async () => {
      for (let i = 0; i < 3; i++) {
        await expectRefused('/account/credits/transactions?limit=1e2', 'limit: must be an integer');
        expect((await call('/account/credits/transactions?limit=5')).body.data).toMatchObject({ limit: 5 });
      }
    });
  });

  describe('required and repeated parameters', () => {
    it.each([
      ['/hl/spot/holders', 'coin'],
      ['/hl/perp/holders?limit=5', 'coin'],
      ['/hl/perp/liquidation-map', 'coin'],
      ['/hl/hip3/smart-trader?page=1', 'coin'],
      ['/hl/hip4/smart-trader', 'outcomeId'],
    ])('%s says %s is required', async (path, field) => {
      await expectRefused(path, `${field}: is required`);
    });

    it.each([
      ['/hl/perp/holders?coin=BTC&coin=ETH', 'coin'],
      ['/hl/perp/liquidation-map?coin=BTC&coin=BTC', 'coin'],
      ['/hl/perp/holders?coin=BTC&order=asc&order=desc', 'order'],
      ['/hl/perp/holders?coin=BTC&sortBy=pnl&sortBy=pnl', 'sortBy'],
      [`/hl/perp/holders?coin=BTC&address=0x${'a'.repeat(40)}&address=0x${'b'.repeat(40)}`, 'address'],
      ['/hl/perp/holders?coin=BTC&cursor=a&cursor=b', 'cursor'],
      ['/hl/trending?period=1h&period=4h', 'period'],
      ['/hl/trending?market=spot&market=perp', 'market'],
      ['/hl/leaderboard?sort=pnl_day&sort=pnl_week', 'sort'],
      ['/hl/hip4/smart-trader?outcomeId=0&outcomeId=1', 'outcomeId'],
    ])('%s says %s is given more than once', async (path, field) => {
      await expectRefused(path, `${field}: given more than once`);
    });
  });

  describe('unknown parameters', () => {
    const PROTOTYPE_NAMES = ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf', 'isPrototypeOf', '__defineGetter__'];

    it.each(PROTOTYPE_NAMES)('refuses %s=1 on every route with parameters', async (name) => {
      for (const route of [...PAGED_ROUTES, '/hl/perp/liquidation-map?coin=BTC']) {
        await expectRefused(join(route, `${name}=1`), `${name}: is not a known parameter`);
      }
    });

    it('refuses bracketed names as unknown, on either adapter', async () => {
      await expectRefused('/hl/perp/holders?coin=BTC&limit[a]=1', 'limit[a]: is not a known parameter');
      await expectRefused('/hl/perp/holders?coin=BTC&coin[]=ETH', 'coin[]: is not a known parameter');
    });

    it('names a parameter without a name as the query, and one with spaces as it is', async () => {
      await expectRefused('/hl/perp/holders?coin=BTC&=1', 'query: is not a known parameter');
      await expectRefused('/hl/perp/holders?coin=BTC&a%20b=1', 'a b: is not a known parameter');
    });

    // Routes without parameters are refused by the public guard before any DTO: check they agree.
    it.each(['constructor', 'toString', '__proto__'])('refuses %s=1 on routes that take no parameters', async (name) => {
      for (const path of ['/account', '/usage', '/hl/prices/mids']) {
        await expectRefused(`${path}?${name}=1`, `${name}: is not a known parameter (this endpoint takes none)`);
      }
    });
  });

  describe('OpenAPI parameters', () => {
    let parameters: Array<{ path: string; parameter: Parameter }>;

    beforeAll(async () => {
      const doc = (
        await request(t.server as never)
          .get('/docs-json')
          .expect(200)
      ).body as {
        paths: Record<string, Record<string, { parameters?: Parameter[] }>>;
      };
      parameters = Object.entries(doc.paths).flatMap(([path, ops]) =>
        Object.values(ops).flatMap((op) => (op.parameters ?? []).filter((p) => p.in === 'query').map((parameter) => ({ path, parameter }))),
      );
    });

    it('types page, limit and outcomeId as integers on every route', () => {
      const integers = parameters.filter(({ parameter }) => ['page', 'limit', 'outcomeId'].includes(parameter.name));
      expect(integers.length).toBeGreaterThanOrEqual(15);
      for (const { path, parameter } of integers) {
        expect({ path, name: parameter.name, type: parameter.schema?.type }).toEqual({ path, name: parameter.name, type: 'integer' });
      }
    });

    // Swagger UI's "Try it out" sends an example as the value: on an optional filter that silently narrows the answer.
    it('gives optional parameters no example, so Try it out sends only what the visitor fills in', () => {
      for (const { path, parameter } of parameters.filter(({ parameter }) => !parameter.required)) {
        const example = parameter.example ?? parameter.schema?.example;
        expect({ path, name: parameter.name, example }).toEqual({ path, name: parameter.name, example: undefined });
      }
    });

    // Swagger UI offers an enum's values in a list (and drops an example beside them); other required parameters need an example.
    it('gives every required parameter an enum or an example that exists in the demo', () => {
      const required = parameters.filter(({ parameter }) => parameter.required && parameter.schema?.enum === undefined);
      const enums = parameters.filter(({ parameter }) => parameter.required && parameter.schema?.enum !== undefined);
      expect(enums.map(({ path, parameter }) => `${path} ${parameter.name}`)).toEqual(['/api/public/v1/assets type']);
      const examples = Object.fromEntries(required.map(({ path, parameter }) => [`${path} ${parameter.name}`, parameter.example ?? parameter.schema?.example]));
      expect(examples).toEqual({
        '/api/public/v1/hl/spot/holders coin': 'HYPE',
        '/api/public/v1/hl/perp/holders coin': 'BTC',
        '/api/public/v1/hl/perp/liquidation-map coin': 'BTC',
        '/api/public/v1/hl/hip3/smart-trader coin': 'xyz:TSLA',
        '/api/public/v1/hl/hip4/smart-trader outcomeId': 0,
        '/api/public/v1/search q': 'apple',
        '/api/public/v1/news/search q': 'bitcoin',
      });
    });
  });
});
