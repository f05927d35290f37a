import request from 'supertest';
import { CREDIT_COSTS } from '../../src/modules/billing/credit-costs';
import { ERROR_STATUS, ErrorCode } from '../../src/common/errors/error-code';
import { HlCatalogService } from '../../src/modules/hl/hl-catalog.service';
import { createTestApp, TestApp } from '../support/create-test-app';
import { makeAccount } from '../support/factories';
import { seedHlReference } from '../support/hl-seed';
import { get } from '../support/http';
import { compileWithComponents, strictOpenApiAjv } from '../support/openapi-validator';
import { resetDb } from '../support/reset-db';

type Operation = {
  operationId: string;
  tags?: string[];
  summary?: string;
  description?: string;
  security?: Array<Record<string, string[]>>;
  parameters?: Array<{ name: string; in: string; schema?: Record<string, unknown> }>;
  responses: Record<string, { description: string; content?: { 'application/json'?: { schema?: { allOf?: unknown[]; $ref?: string } } }; headers?: object }>;
};

/** Every /hl route that reads a snapshot, called with valid parameters (a listed coin, a listed outcome). */
const HL_SNAPSHOT_ROUTES: Record<string, string> = {
  '/api/public/v1/hl/spot/holders': '?coin=HYPE',
  '/api/public/v1/hl/perp/holders': '?coin=BTC',
  '/api/public/v1/hl/perp/liquidation-map': '?coin=BTC',
  '/api/public/v1/hl/trending': '',
  '/api/public/v1/hl/leaderboard': '',
  '/api/public/v1/hl/hip3/smart-trader': '?coin=xyz:TSLA',
  '/api/public/v1/hl/hip4/smart-trader': '?outcomeId=0',
};

describe('OpenAPI document', () => {
  let t: TestApp;
  let doc: { paths: Record<string, Record<string, Operation>>; components: { securitySchemes: Record<string, unknown>; schemas: Record<string, unknown> } };

  beforeAll(async () => {
    t = await createTestApp();
    doc = (
      await request(t.server as never)
        .get('/docs-json')
        .expect(200)
    ).body;
  });
  afterAll(() => t.close());

  const publicOperations = () =>
    Object.entries(doc.paths)
      .filter(([path]) => path.startsWith('/api/public/v1/'))
      .flatMap(([path, ops]) => Object.values(ops).map((op) => ({ path, op })));

  it('declares the x-api-key security scheme', () => {
    expect(doc.components.securitySchemes['api-key']).toEqual(expect.objectContaining({ type: 'apiKey', in: 'header', name: 'x-api-key' }));
  });

  it('documents the backend routes under their own tags: bearer security behind a session, none on login and sign-message', () => {
    expect(doc.components.securitySchemes['wallet-session']).toEqual(expect.objectContaining({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' }));
    const backend = Object.entries(doc.paths)
      .filter(([path]) => path.startsWith('/api/v1/'))
      .flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ route: `${method.toUpperCase()} ${path}`, op })));
    expect(backend.map((b) => b.route).sort()).toEqual([
      'DELETE /api/v1/cohorts/{id}',
      'DELETE /api/v1/cohorts/{id}/addresses',
      'DELETE /api/v1/keys/{id}',
      'DELETE /api/v1/watchlist/{groupId}',
      'DELETE /api/v1/watchlist/{groupId}/entries/{coin}',
      'GET /api/v1/account',
      'GET /api/v1/cohorts',
      'GET /api/v1/cohorts/{id}',
      'GET /api/v1/cohorts/{id}/positions',
      'GET /api/v1/keys',
      'GET /api/v1/notifications',
      'GET /api/v1/notifications/settings',
      'GET /api/v1/opc',
      'GET /api/v1/referral/status',
      'GET /api/v1/usage',
      'GET /api/v1/watchlist',
      'PATCH /api/v1/cohorts/{id}',
      'PATCH /api/v1/watchlist/{groupId}',
      'POST /api/v1/auth/login',
      'POST /api/v1/auth/logout',
      'POST /api/v1/auth/refresh',
      'POST /api/v1/auth/sign-message',
      'POST /api/v1/cohorts',
      'POST /api/v1/cohorts/{id}/addresses',
      'POST /api/v1/keys',
      'POST /api/v1/notifications/read-all',
      'POST /api/v1/notifications/{id}/read',
      'POST /api/v1/opc/activate',
      'POST /api/v1/opc/deactivate',
      'POST /api/v1/referral/bind',
      'POST /api/v1/watchlist',
      'POST /api/v1/watchlist/{groupId}/entries',
      'PUT /api/v1/notifications/settings',
      'PUT /api/v1/opc',
    ]);
    for (const { route, op } of backend) {
      const open = route.endsWith('/login') || route.endsWith('/sign-message');
      expect({ route, security: op.security }).toEqual({ route, security: open ? [] : [{ 'wallet-session': [] }] });
      expect({ route, tag: op.tags?.[0] }).toEqual({ route, tag: expect.stringMatching(/^Backend: /) });
      const success = op.responses['200'] ?? op.responses['201'];
      expect({ route, enveloped: success?.content?.['application/json']?.schema?.allOf !== undefined }).toEqual({ route, enveloped: true });
      expect({ route, statuses: Object.keys(op.responses) }).toEqual({ route, statuses: expect.arrayContaining([open ? '400' : '401']) });
    }
    const signIn = doc.paths['/api/v1/auth/sign-message'].post as Operation & { requestBody?: { content: Record<string, { schema: { $ref: string } }> } };
    expect(signIn.requestBody?.content['application/json'].schema.$ref).toBe('#/components/schemas/SignMessageDto');
  });

  it('documents every public route with its credit cost, key security, envelope schema and error codes', () => {
    const operations = publicOperations();
    expect(operations.length).toBeGreaterThanOrEqual(6);
    for (const { path, op } of operations) {
      const cost = CREDIT_COSTS[op.operationId as keyof typeof CREDIT_COSTS];
      expect({ path, cost }).toEqual({ path, cost: expect.any(Number) });
      expect(op.description).toContain(`**Cost:** ${cost} credit`);
      expect(op.security).toEqual([{ 'api-key': [] }]);
      expect(op.responses['200'].content?.['application/json']?.schema?.allOf).toBeDefined();
      expect(op.responses['200'].headers).toHaveProperty('X-RateLimit-Remaining');
      expect(op.responses['200'].headers).toHaveProperty('RateLimit-Policy');
      expect(op.responses['200'].headers).toHaveProperty('RateLimit');
      for (const status of ['400', '401', '403', '429', '500', '503']) expect(op.responses).toHaveProperty(status);
      // A key that could not be checked (the key store is down) is 503, whatever else the route's 503 means.
      expect({ path, description: op.responses['503'].description }).toEqual({ path, description: expect.stringContaining(ErrorCode.SERVICE_UNAVAILABLE) });
      // Errors after key auth carry the pipeline's headers too; a 429 says when to come back.
      expect(op.responses['429'].headers).toHaveProperty('Retry-After');
      expect(op.responses['429'].headers).toHaveProperty('RateLimit');
      expect(op.responses['403'].headers).toHaveProperty('X-Credits-Remaining');
      expect(Object.keys(op.responses['401'].headers ?? {}).sort()).toEqual(['X-Credits-Cost', 'X-Request-Id']);
    }
  });

  it('lists the status of every error code a route names in its text', () => {
    const operations = Object.entries(doc.paths).flatMap(([path, ops]) => Object.values(ops).map((op) => ({ path, op })));
    for (const { path, op } of operations) {
      const text = [op.summary, op.description, ...Object.values(op.responses).map((r) => r.description)].join(' ');
      for (const code of Object.values(ErrorCode).filter((c) => new RegExp(`\\b${c}\\b`).test(text))) {
        expect({ path, code, listed: Object.keys(op.responses) }).toEqual({ path, code, listed: expect.arrayContaining([String(ERROR_STATUS[code])]) });
      }
    }
  });

  it('lists 502 on every /hl route that reads a snapshot, with the error envelope and the pipeline headers', () => {
    for (const path of Object.keys(HL_SNAPSHOT_ROUTES)) {
      const response = doc.paths[path].get.responses['502'];
      expect({ path, listed: response !== undefined }).toEqual({ path, listed: true });
      expect(response.description).toContain('no snapshot published yet');
      expect(response.content?.['application/json']?.schema?.$ref).toBe('#/components/schemas/ErrorEnvelopeDto');
      expect(response.headers).toHaveProperty('X-RateLimit-Remaining');
    }
  });

  it("lists 503 on /health/ready, without the key pipeline's headers", () => {
    const response = doc.paths['/health/ready'].get.responses['503'];
    expect(response.content?.['application/json']?.schema?.$ref).toBe('#/components/schemas/ErrorEnvelopeDto');
    expect(Object.keys(response.headers ?? {}).sort()).toEqual(['X-Credits-Cost', 'X-Request-Id']);
    expect(doc.paths['/health/ready'].get.security).toEqual([]);
  });

  it('says on every 401 that it carries no rate-limit headers', () => {
    for (const { path, op } of publicOperations()) {
      expect({ path, description: op.responses['401'].description }).toEqual({ path, description: expect.stringContaining('No X-RateLimit-*') });
    }
  });

  it('answers each /hl snapshot route 502 before the first snapshot, a status the route lists', async () => {
    await resetDb(t.db);
    await seedHlReference(t.db);
    t.app.get(HlCatalogService).invalidate();
    const { key } = await makeAccount(t, { tier: 'max' });
    for (const [path, query] of Object.entries(HL_SNAPSHOT_ROUTES)) {
      const res = await get(t, `${path.replace('/api/public/v1', '')}${query}`, key);
      expect({ path, status: res.status, body: res.body }).toEqual({
        path,
        status: 502,
        body: { code: ErrorCode.MARKET_UPSTREAM_ERROR, msg: 'no snapshot published yet', data: null },
      });
      expect(Object.keys(doc.paths[path].get.responses)).toContain('502');
    }
  });

  it('states page bounds on paged routes', () => {
    const op = doc.paths['/api/public/v1/account/credits/transactions'].get;
    const limit = op.parameters!.find((p) => p.name === 'limit')!;
    expect(limit.schema).toEqual(expect.objectContaining({ minimum: 1, maximum: 100, default: 20 }));
    expect(op.responses).toHaveProperty('400');
  });

  it('compiles under a strict validator, and every schema marked nullable accepts null there (a nullable reference is anyOf with a null branch)', () => {
    const ajv = strictOpenApiAjv();
    const nullable: Array<{ at: string; schema: object }> = [];
    const visit = (node: unknown, at: string) => {
      if (node === null || typeof node !== 'object') return;
      if ((node as { nullable?: unknown }).nullable === true) nullable.push({ at, schema: node });
      for (const [key, child] of Object.entries(node)) visit(child, `${at}/${key}`);
    };
    visit(doc, '#');
    expect(nullable.length).toBeGreaterThan(50);
    for (const { at, schema } of nullable) {
      expect({ at, acceptsNull: compileWithComponents(ajv, doc, schema)(null) }).toEqual({ at, acceptsNull: true });
    }
    for (const schema of Object.values(doc.components.schemas)) expect(compileWithComponents(ajv, doc, schema as object)).toBeDefined();
  });

  it('declares the bounds the server enforces: required strings, the last page, slugs, times, key ids, address lists, the news id', () => {
    const param = (path: string, name: string, method = 'get') => {
      const found = doc.paths[path][method].parameters?.find((p) => p.name === name);
      expect({ path, name, found: found !== undefined }).toEqual({ path, name, found: true });
      return found!.schema ?? {};
    };
    for (const path of ['/api/public/v1/hl/perp/holders', '/api/public/v1/hl/spot/holders', '/api/public/v1/hl/hip3/smart-trader'])
      expect(param(path, 'coin')).toMatchObject({ minLength: 1, maxLength: 64 });
    // The last page at the route's largest limit: 10,000 rows / 100 on /assets, / 500 on the holders.
    expect(param('/api/public/v1/assets', 'page')).toMatchObject({ minimum: 1, maximum: 100 });
    expect(param('/api/public/v1/hl/perp/holders', 'page')).toMatchObject({ minimum: 1, maximum: 20 });
    for (const path of ['/api/public/v1/assets', '/api/public/v1/stock/overview'])
      expect(param(path, 'category')).toMatchObject({ pattern: '^[a-z0-9]+(-[a-z0-9]+)*$', minLength: 1, maxLength: 64 });
    for (const name of ['from', 'to']) expect(param('/api/public/v1/stock/{symbol}/sec-filings', name)).toHaveProperty('pattern');
    for (const name of ['startTime', 'endTime'])
      expect(new RegExp(String(param('/api/public/v1/account/fees', name).pattern)).test('2026-11-01T00:00:00Z')).toBe(true);
    expect(param('/api/v1/keys/{id}', 'id', 'delete')).toMatchObject({ format: 'uuid', pattern: expect.any(String) });
    expect(param('/api/public/v1/news/{id}', 'id')).toMatchObject({ minimum: 1, maximum: 2_147_483_647 });
    const schemas = doc.components.schemas as Record<string, { properties: Record<string, object> }>;
    expect(schemas.AddCohortAddressesDto.properties.addresses).toMatchObject({ minItems: 1, maxItems: expect.any(Number) });
    expect(schemas.RemoveCohortAddressesDto.properties.addresses).toMatchObject({ minItems: 1, maxItems: expect.any(Number) });
  });

  it('serves Swagger UI at /docs', async () => {
    const res = await request(t.server as never)
      .get('/docs')
      .redirects(1);
    expect(res.status).toBe(200);
    expect(res.text).toContain('swagger-ui');
  });
});
