import request from 'supertest';
import { CREDIT_COSTS } from '../../src/common/billing/credit-costs';
import { createTestApp, TestApp } from '../support/create-test-app';

type Operation = {
  operationId: string;
  description?: string;
  security?: Array<Record<string, string[]>>;
  parameters?: Array<{ name: string; in: string; schema?: Record<string, unknown> }>;
  responses: Record<string, { content?: { 'application/json'?: { schema?: { allOf?: unknown[] } } }; headers?: object }>;
};

describe('OpenAPI document', () => {
  let t: TestApp;
  let doc: { paths: Record<string, Record<string, Operation>>; components: { securitySchemes: Record<string, unknown>; schemas: Record<string, unknown> } };

  beforeAll(async () => {
    t = await createTestApp();
    doc = (await request(t.server as never).get('/docs-json').expect(200)).body;
  });
  afterAll(() => t.close());

  const publicOperations = () =>
    Object.entries(doc.paths)
      .filter(([path]) => path.startsWith('/api/public/v1/'))
      .flatMap(([path, ops]) => Object.values(ops).map((op) => ({ path, op })));

  it('declares the x-api-key security scheme', () => {
    expect(doc.components.securitySchemes['api-key']).toEqual(expect.objectContaining({ type: 'apiKey', in: 'header', name: 'x-api-key' }));
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
      for (const status of ['400', '401', '403', '429', '500']) expect(op.responses).toHaveProperty(status);
      // Errors after key auth carry the pipeline's headers too; a 429 says when to come back.
      expect(op.responses['429'].headers).toHaveProperty('Retry-After');
      expect(op.responses['429'].headers).toHaveProperty('RateLimit');
      expect(op.responses['403'].headers).toHaveProperty('X-Credits-Remaining');
      expect(Object.keys(op.responses['401'].headers ?? {}).sort()).toEqual(['X-Credits-Cost', 'X-Request-Id']);
    }
  });

  it('states page bounds on paged routes', () => {
    const op = doc.paths['/api/public/v1/account/credits/transactions'].get;
    const limit = op.parameters!.find((p) => p.name === 'limit')!;
    expect(limit.schema).toEqual(expect.objectContaining({ minimum: 1, maximum: 100, default: 20 }));
    expect(op.responses).toHaveProperty('400');
  });

  it('serves Swagger UI at /docs', async () => {
    const res = await request(t.server as never).get('/docs').redirects(1);
    expect(res.status).toBe(200);
    expect(res.text).toContain('swagger-ui');
  });
});
