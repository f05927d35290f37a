import { Controller, Get, Module } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import request from 'supertest';
import { createApp } from '../../src/app.factory';
import { OpenRoute, WalletSessionRoute } from '../../src/common/auth/audience';
import { Enveloped } from '../../src/common/decorators/enveloped.decorator';
import { CurrentPrincipal } from '../../src/modules/access/current-principal.decorator';
import { Principal } from '../../src/modules/access/principal';
import { PublicApiController, PublicEndpoint } from '../../src/modules/access/public-endpoint.decorator';
import { createTestApp, TestApp } from '../support/create-test-app';
import { makeAccount } from '../support/factories';
import { get, PUBLIC } from '../support/http';
import { resetDb } from '../support/reset-db';
import { testConfig } from '../support/test-env';

@Controller('test-undeclared')
class UndeclaredController {
  @Get('secret')
  secret() {
    return { leaked: true };
  }
}

@Module({ controllers: [UndeclaredController] })
class UndeclaredModule {}

@WalletSessionRoute()
@Enveloped()
// A test fixture, not part of the product: kept out of the served document (and so out of its response checks).
@ApiExcludeController()
@Controller('api/v1/test-session')
class SessionController {
  @Get('status')
  status() {
    return { served: true };
  }

  @Get('open')
  @OpenRoute()
  open() {
    return { served: true };
  }
}

@ApiExcludeController()
@PublicApiController('test-principal', 'Test')
class PrincipalProbeController {
  @Get()
  @PublicEndpoint('account.summary', 'Who is calling', { query: false })
  who(@CurrentPrincipal() principal: Principal) {
    return { kind: principal.kind, accountId: principal.accountId };
  }
}

@Module({ controllers: [SessionController, PrincipalProbeController] })
class AudienceProbeModule {}

describe('Route audiences (default-deny)', () => {
  it('refuses to start an app with a route that declares no audience, naming the route', async () => {
    const app = await createApp(testConfig(), { logger: false, imports: [UndeclaredModule] });
    try {
      await expect(app.init()).rejects.toThrow('GET /test-undeclared/secret (UndeclaredController.secret): declares no audience');
    } finally {
      await app.close();
    }
  });

  describe('a running app', () => {
    let t: TestApp;

    beforeAll(async () => {
      t = await createTestApp(testConfig(), [AudienceProbeModule]);
      await resetDb(t.db);
    });
    afterAll(() => t.close());

    it('refuses a wallet-session route 401 in the envelope: UNAUTHORIZED without a bearer token, INVALID_TOKEN with a bad one', async () => {
      const refusals = [
        [undefined, { code: 'UNAUTHORIZED', msg: 'authorization: a wallet session is required', data: null }],
        ['Bearer not-a-session', { code: 'INVALID_TOKEN', msg: 'authorization: not a valid session token', data: null }],
      ] as const;
      for (const [authorization, body] of refusals) {
        const call = request(t.server as never).get('/api/v1/test-session/status');
        const res = await (authorization ? call.set('authorization', authorization) : call);
        expect(res.status).toBe(401);
        expect(res.body).toEqual(body);
        expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
        expect(res.headers['x-ratelimit-limit']).toBeUndefined();
      }
    });

    it("serves a handler declared open inside a wallet-session controller (the handler's audience wins)", async () => {
      const res = await request(t.server as never).get('/api/v1/test-session/open');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ code: '0', msg: 'success', data: { served: true } });
    });

    it.each(['/health/live', '/health/ready', '/docs', '/docs-json'])('keeps %s open: 200 without a key', async (path) => {
      const res = await request(t.server as never)
        .get(path)
        .redirects(1);
      expect(res.status).toBe(200);
    });

    it('serves the OpenAPI document as JSON and the Swagger UI as HTML', async () => {
      const json = await request(t.server as never).get('/docs-json');
      expect(json.headers['content-type']).toMatch(/application\/json/);
      expect(json.body.openapi).toMatch(/^3\./);
      const ui = await request(t.server as never)
        .get('/docs')
        .redirects(1);
      expect(ui.headers['content-type']).toMatch(/text\/html/);
      expect(ui.text).toContain('swagger-ui');
    });

    it('still answers unknown routes 404 NOT_FOUND in the envelope', async () => {
      for (const path of ['/no-such-route', '/api/v1/test-session/none', `${PUBLIC}/no-such-route`]) {
        const res = await request(t.server as never).get(path);
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ code: 'NOT_FOUND', msg: 'route not found', data: null });
      }
    });

    it('hands a key-pipeline handler the key holder as its principal', async () => {
      const { key, account } = await makeAccount(t, { tier: 'pro' });
      const res = await get(t, '/test-principal', key);
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({ kind: 'api-key', accountId: account.id });
      expect(res.headers['x-credits-cost']).toBe('1');
      expect((await get(t, '/test-principal')).status).toBe(401);
    });
  });
});
