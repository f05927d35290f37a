import { Controller, Get, INestApplication, Logger, Module } from '@nestjs/common';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { ApiExcludeController } from '@nestjs/swagger';
import { Writable } from 'node:stream';
import request from 'supertest';
import { createApp } from '../../src/app.factory';
import { OpenRoute } from '../../src/common/auth/audience';
import { createAppLogger } from '../../src/infra/logging/app-logger';
import { UpstreamError } from '../../src/providers/kit/upstream.error';
import { testConfig } from '../support/test-env';
import { watchResponses } from '../support/openapi-response-hook';

/** A route that logs after an await (the request's context must survive it), then fails unexpectedly. */
// A test fixture, not part of the product: kept out of the served document (and so out of its response checks).
@ApiExcludeController()
@OpenRoute()
@Controller('log-probe')
class LogProbeController {
  private readonly logger = new Logger('LogProbe');

  @Get()
  async probe(): Promise<never> {
    await new Promise((resolve) => setTimeout(resolve, 20));
    this.logger.warn('probe: about to fail');
    throw new Error('probe failure');
  }

  @Get('upstream')
  async upstream(): Promise<never> {
    await new Promise((resolve) => setImmediate(resolve));
    throw new UpstreamError({ provider: 'probe-vendor', kind: 'timeout', message: 'GET /quotes timed out' });
  }
}

@Module({ controllers: [LogProbeController] })
class LogProbeModule {}

/** Every line the app logger writes, as text. */
function captured(): { lines: string[]; stream: Writable } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(
        ...chunk
          .toString()
          .split('\n')
          .filter((line) => line !== ''),
      );
      done();
    },
  });
  return { lines, stream };
}

async function startApp(logFormat: 'json' | 'pretty', stream: Writable, env: Record<string, string> = {}): Promise<INestApplication> {
  const config = testConfig({ LOG_LEVEL: 'log', LOG_FORMAT: logFormat, JOBS_ENABLED: 'false', ...env });
  const app = await createApp(config, { logger: createAppLogger(config, stream), imports: [LogProbeModule] });
  await app.init();
  if (config.http.adapter === 'fastify') await (app as NestFastifyApplication).getHttpAdapter().getInstance().ready();
  watchResponses(app);
  return app;
}

async function settle(): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 50));
}

describe('Logs (JSON)', () => {
  const log = captured();
  let app: INestApplication;

  beforeAll(async () => {
    app = await startApp('json', log.stream);
  });
  afterAll(() => app.close());

  const entries = () => log.lines.map((line) => JSON.parse(line) as Record<string, unknown>);

  it('writes one JSON object a line, with level, time, context and message', async () => {
    const started = entries().find((entry) => entry.context === 'NestApplication');

    expect(started).toMatchObject({ level: 'info', msg: 'Nest application successfully started', time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
    expect(started).not.toHaveProperty('requestId');
  });

  it('puts the request id on every line a request causes, each request its own, across awaits', async () => {
    const server = app.getHttpServer();
    const mark = log.lines.length;

    const responses = await Promise.all([request(server).get('/log-probe'), request(server).get('/log-probe')]);
    await settle();

    const ids = responses.map((res) => res.headers['x-request-id']);
    expect(responses.map((res) => res.status)).toEqual([500, 500]);
    expect(new Set(ids).size).toBe(2);
    const caused = entries().slice(mark);
    for (const id of ids) {
      const lines = caused.filter((entry) => entry.requestId === id);
      expect(lines).toEqual([
        expect.objectContaining({ level: 'warn', context: 'LogProbe', msg: 'probe: about to fail' }),
        expect.objectContaining({ level: 'error', context: 'ErrorEnvelopeFilter', err: { stack: expect.stringContaining('probe failure') } }),
      ]);
    }
    expect(caused.filter((entry) => !ids.includes(entry.requestId as string))).toEqual([]);
  });
});

describe('Logs without the request context (LOG_REQUEST_CONTEXT=false, the production default)', () => {
  const log = captured();
  let app: INestApplication;

  beforeAll(async () => {
    app = await startApp('json', log.stream, { LOG_REQUEST_CONTEXT: 'false' });
  });
  afterAll(() => app.close());

  const entriesSince = (mark: number) => log.lines.slice(mark).map((line) => JSON.parse(line) as Record<string, unknown>);

  it("names the request id on a 502's warning line, with the upstream's failure", async () => {
    const mark = log.lines.length;
    const res = await request(app.getHttpServer()).get('/log-probe/upstream');
    await settle();

    expect(res.status).toBe(502);
    expect(entriesSince(mark)).toContainEqual(
      expect.objectContaining({
        level: 'warn',
        context: 'ErrorEnvelopeFilter',
        requestId: res.headers['x-request-id'],
        msg: expect.stringContaining('probe-vendor: GET /quotes timed out'),
      }),
    );
  });

  it("names the request id on a 500's error line, though not on the lines written where the request is not at hand", async () => {
    const mark = log.lines.length;
    const res = await request(app.getHttpServer()).get('/log-probe');
    await settle();

    const caused = entriesSince(mark);
    expect(caused).toContainEqual(expect.objectContaining({ level: 'error', context: 'ErrorEnvelopeFilter', requestId: res.headers['x-request-id'] }));
    expect(caused.find((entry) => entry.msg === 'probe: about to fail')).not.toHaveProperty('requestId');
  });
});

describe('Logs (pretty)', () => {
  const log = captured();
  let app: INestApplication;

  beforeAll(async () => {
    app = await startApp('pretty', log.stream);
  });
  afterAll(() => app.close());

  it('writes one readable line per entry, with the level, the context and the request id', async () => {
    const mark = log.lines.length;
    const res = await request(app.getHttpServer()).get('/log-probe');
    await settle();

    const warning = log.lines.slice(mark).find((line) => line.includes('probe: about to fail'));
    expect(warning).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] WARN: \[LogProbe\] probe: about to fail /);
    expect(warning).toContain(`"requestId":"${res.headers['x-request-id']}"`);
    expect(warning).not.toMatch(/^\{/);
  });
});
