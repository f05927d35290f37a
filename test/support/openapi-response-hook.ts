import { INestApplication } from '@nestjs/common';
import { appendFileSync } from 'node:fs';
import { IncomingMessage, Server, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { servedOpenApiDocument } from '../../src/app.setup';
import { OpenApiDocument, OpenApiResponseChecker } from './openapi-validator';

/**
 * Every answer an e2e test's app sends is checked against the document that app serves at /docs-json
 * (test/support/e2e-setup.ts turns this on and fails the test that received a breaking answer). Checked at
 * the server, so a test's own way of calling (supertest, fetch, a raw socket) does not matter.
 */
let enabled = false;
const violations: string[] = [];
/** One checker per distinct document in this test file: apps of the same configuration share compiled validators. */
const checkers = new Map<string, OpenApiResponseChecker>();
const stats = { validated: 0, undocumented: 0, ms: 0, routes: new Set<string>() };
/** Larger answers (the portal's bundle) are not JSON routes of the document; their bytes are not kept. */
const MAX_CAPTURED_BYTES = 4 * 1024 * 1024;

export function enableOpenApiResponseChecks(): void {
  enabled = true;
}

/** The answers since the last call that broke the document (and forgets them). */
export function takeOpenApiViolations(): string[] {
  return violations.splice(0);
}

/** With OPENAPI_CHECK_STATS set, appends this file's counts to that file (one JSON line) for the suite's totals. */
export function writeOpenApiCheckStats(testFile: string): void {
  const target = process.env.OPENAPI_CHECK_STATS;
  if (!target || stats.validated + stats.undocumented === 0) return;
  appendFileSync(target, JSON.stringify({ testFile, ...stats, routes: [...stats.routes] }) + '\n');
}

/** Called by createTestApp for every app it starts; a no-op outside the e2e project. */
export function watchResponses(app: INestApplication): void {
  const document = servedOpenApiDocument(app);
  if (!enabled || document === undefined) return;
  const text = JSON.stringify(document);
  let checker = checkers.get(text);
  if (!checker) {
    checker = new OpenApiResponseChecker(JSON.parse(text) as OpenApiDocument);
    checkers.set(text, checker);
  }
  const server = app.getHttpServer() as Server;
  const check = checker;
  // Prepended: the adapter's own listener must not answer before the body is being captured.
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    const captured = captureBody(res);
    res.once('finish', () => {
      if (req.method === 'HEAD') return;
      const started = performance.now();
      const path = (req.url ?? '/').split('?')[0];
      const route = check.route(req.method ?? 'GET', path);
      if (route === undefined) {
        stats.undocumented++;
      } else if (captured.bytes <= MAX_CAPTURED_BYTES) {
        stats.validated++;
        stats.routes.add(`${route} ${res.statusCode}`);
        const problem = check.violation({
          method: req.method ?? 'GET',
          path,
          status: res.statusCode,
          contentType: res.getHeader('content-type')?.toString() ?? captured.contentType,
          body: Buffer.concat(captured.chunks).toString('utf8'),
        });
        if (problem !== null) violations.push(problem);
      }
      stats.ms += performance.now() - started;
    });
  });
}

function captureBody(res: ServerResponse): { chunks: Buffer[]; bytes: number; contentType?: string } {
  const captured: { chunks: Buffer[]; bytes: number; contentType?: string } = { chunks: [], bytes: 0 };
  // Fastify hands its headers to writeHead in one object, where getHeader() never sees them.
  const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse;
  res.writeHead = ((...args: unknown[]) => {
    const headers = args.find((arg) => typeof arg === 'object' && arg !== null);
    const entries = Array.isArray(headers) ? pairs(headers as unknown[]) : Object.entries((headers ?? {}) as Record<string, unknown>);
    const type = entries.find(([name]) => String(name).toLowerCase() === 'content-type')?.[1];
    if (type !== undefined) captured.contentType = String(type);
    return writeHead(...args);
  }) as ServerResponse['writeHead'];
  const keep = (chunk: unknown, encoding: unknown) => {
    if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
    const buffer =
      typeof chunk === 'string' ? Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8') : Buffer.from(chunk as Uint8Array);
    captured.bytes += buffer.length;
    if (captured.bytes <= MAX_CAPTURED_BYTES) captured.chunks.push(buffer);
  };
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
  res.write = ((...args: unknown[]) => {
    keep(args[0], args[1]);
    return write(...args);
  }) as ServerResponse['write'];
  res.end = ((...args: unknown[]) => {
    keep(args[0], args[1]);
    return end(...args);
  }) as ServerResponse['end'];
  return captured;
}

/** [name, value, name, value, ...] (writeHead's raw form) as entries. */
function pairs(flat: unknown[]): Array<[unknown, unknown]> {
  const out: Array<[unknown, unknown]> = [];
  for (let i = 0; i + 1 < flat.length; i += 2) out.push([flat[i], flat[i + 1]]);
  return out;
}
