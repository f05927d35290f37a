import { ArgumentsHost, BadRequestException, Logger } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { UpstreamError } from '../../providers/kit/upstream.error';
import { ProviderDisabledError } from '../../providers/kit/provider-disabled.error';
import { AppError } from '../errors/app-error';
import { ErrorCode } from '../errors/error-code';
import { ErrorEnvelopeFilter, UPSTREAM_UNAVAILABLE } from './error-envelope.filter';
import { FailedCallSettler } from './failed-call-settler';

/** Runs the filter on one exception and returns what it replied. */
async function answerTo(exception: unknown): Promise<{ status: number; body: unknown }> {
  let answer = { status: 0, body: undefined as unknown };
  const adapter = {
    setHeader: () => undefined,
    isHeadersSent: () => false,
    reply: (_res: unknown, body: unknown, status: number) => (answer = { status, body }),
  };
  const settler: FailedCallSettler = { settle: async () => undefined };
  const sut = new ErrorEnvelopeFilter({ httpAdapter: adapter } as unknown as HttpAdapterHost, settler);
  const host = { switchToHttp: () => ({ getRequest: () => ({ headers: {} }), getResponse: () => ({}) }) } as unknown as ArgumentsHost;
  await sut.catch(exception, host);
  return answer;
}

describe(ErrorEnvelopeFilter.name, () => {
  let error: jest.SpyInstance;
  beforeEach(() => (error = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined)));
  afterEach(() => error.mockRestore());

  it.each([429, 404, 500, undefined])('answers an upstream failure (upstream status %s) 502 in its own words', async (upstreamStatus) => {
    const failure = new UpstreamError({
      provider: 'acme',
      kind: upstreamStatus ? 'http' : 'timeout',
      upstreamStatus,
      message: `HTTP ${upstreamStatus} from GET http://10.1.2.3:8080/v1/x`,
    });
    expect(await answerTo(failure)).toEqual({ status: 502, body: { code: ErrorCode.MARKET_UPSTREAM_ERROR, msg: UPSTREAM_UNAVAILABLE, data: null } });
  });

  it('answers a switched-off provider 503 MARKET_DATA_DISABLED', async () => {
    expect(await answerTo(new ProviderDisabledError('market data'))).toEqual({
      status: 503,
      body: { code: ErrorCode.MARKET_DATA_DISABLED, msg: 'market data: disabled or not configured', data: null },
    });
  });

  it.each([
    ['status', { status: 429, message: 'from a library' }],
    ['statusCode', { statusCode: 404, message: 'from a library' }],
  ])("does not take %s from an error that is not ours nor the framework's: 500 with nothing inside", async (_field, fields) => {
    const foreign = Object.assign(new Error('GET http://upstream.example/x failed'), fields);
    expect(await answerTo(foreign)).toEqual({ status: 500, body: { code: ErrorCode.INTERNAL_ERROR, msg: 'internal error', data: null } });
  });

  it("keeps the status of our own and the framework's errors", async () => {
    expect((await answerTo(new AppError(ErrorCode.RATE_LIMITED, 'slow down'))).status).toBe(429);
    expect((await answerTo(new BadRequestException('limit: too big'))).status).toBe(400);
    const bodyParser = Object.assign(new Error('raw'), { type: 'entity.parse.failed', expose: true, status: 400, statusCode: 400 });
    expect(await answerTo(bodyParser)).toEqual({ status: 400, body: { code: ErrorCode.VALIDATION_ERROR, msg: 'body: malformed JSON', data: null } });
    const fastify = Object.assign(new Error('raw'), { code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE', statusCode: 415 });
    expect(await answerTo(fastify)).toEqual({ status: 415, body: { code: ErrorCode.VALIDATION_ERROR, msg: 'content-type: not supported', data: null } });
  });
});
