import { request as httpRequest } from 'node:http';
import { AddressInfo } from 'node:net';
import request from 'supertest';
import { PORTAL_CSP } from '../../src/modules/portal/portal.controller';
import { createTestApp, TestApp } from '../support/create-test-app';
import { testConfig } from '../support/test-env';

interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** The path exactly as written: supertest's URL parsing would resolve `%2e%2e` before it left. */
function rawGet(port: number, path: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, method: 'GET' }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

function expectPortalHeaders(headers: Record<string, unknown>): void {
  expect(headers['content-security-policy']).toBe(PORTAL_CSP);
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['referrer-policy']).toBe('no-referrer');
}

describe('The developer portal at /portal (static files)', () => {
  let t: TestApp;
  let port: number;
  let assets: { script: string; styles: string };

  beforeAll(async () => {
    t = await createTestApp(testConfig({ JOBS_ENABLED: 'false' }));
    await t.app.listen(0, '127.0.0.1');
    port = (t.app.getHttpServer().address() as AddressInfo).port;
    const index = await request(t.server as never).get('/portal');
    assets = {
      script: /<script type="module" src="(\/portal\/app-[A-Z0-9]+\.js)">/.exec(index.text)?.[1] ?? 'missing',
      styles: /<link rel="stylesheet" href="(\/portal\/styles-[A-Z0-9]+\.css)"/.exec(index.text)?.[1] ?? 'missing',
    };
  });
  afterAll(() => t.close());

  it.each(['/portal/', '/portal/?from=docs'])('sends %s to /portal, the one address of the page', async (path) => {
    const res = await request(t.server as never).get(path);

    expect(res.status).toBe(308);
    expect(res.headers.location).toBe(path.replace('/portal/', '/portal'));
    expectPortalHeaders(res.headers);
  });

  it.each(['/portal', '/portal/index.html'])('answers %s with the page, without a key, revalidated on every visit', async (path) => {
    const res = await request(t.server as never).get(path);

    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-cache');
    expectPortalHeaders(res.headers);
    expect(res.text).toContain('<title>Developer portal');
    expect(res.headers['x-ratelimit-limit']).toBeUndefined();
  });

  it('points the page at hashed bundles it serves as script and stylesheet, cached for a year', async () => {
    expect(assets.script).not.toBe('missing');
    expect(assets.styles).not.toBe('missing');
    const script = await request(t.server as never).get(assets.script);
    const styles = await request(t.server as never).get(assets.styles);

    expect(script.status).toBe(200);
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(script.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expectPortalHeaders(script.headers);
    expect(styles.status).toBe(200);
    expect(styles.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(styles.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expectPortalHeaders(styles.headers);
  });

  it('keeps scripts and styles out of the page itself, so the policy forbids nothing it needs', async () => {
    const index = (await request(t.server as never).get('/portal')).text;

    expect(index).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);
    expect(index).not.toMatch(/<style|\sstyle=|\son[a-z]+=/i);
    expect(index).not.toMatch(/https?:\/\//);
  });

  it('answers an unknown file 404 NOT_FOUND in the envelope, with the portal headers', async () => {
    const res = await request(t.server as never).get('/portal/no-such-file.js');

    expect(res.status).toBe(404);
    expect(res.body).toEqual({ code: 'NOT_FOUND', msg: 'route not found', data: null });
    expectPortalHeaders(res.headers);
  });

  it.each([
    '/portal/..%2fpackage.json',
    '/portal/%2e%2e/src/main.ts',
    '/portal/..%2f..%2fpackage.json',
    '/portal/%2e%2e%2fsrc%2fmain.ts',
    '/portal/../package.json',
  ])('refuses the path traversal %s without reading outside the build', async (path) => {
    const res = await rawGet(port, path);

    expect([400, 404]).toContain(res.status);
    expect(JSON.parse(res.body)).toMatchObject({ data: null });
    expect(res.body).not.toContain('"devDependencies"');
    expect(res.body).not.toContain('NestFactory');
  });

  it('answers HEAD with the headers and no body', async () => {
    const res = await request(t.server as never).head('/portal');

    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expectPortalHeaders(res.headers);
    expect(res.text ?? '').toBe('');
  });

  it('stays out of the OpenAPI document', async () => {
    const res = await request(t.server as never).get('/docs-json');

    expect(Object.keys(res.body.paths).filter((path) => path.startsWith('/portal'))).toEqual([]);
  });
});
