import { INestApplication, LogLevel } from '@nestjs/common';
import { AbstractHttpAdapter, NestFactory } from '@nestjs/core';
import { ExpressAdapter } from '@nestjs/platform-express';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppModule } from './app.module';
import { configureApp } from './app.setup';
import { requestState } from './common/http/request-state';
import { HEADER } from './common/http/response-headers';
import { ErrorEnvelopeDto } from './common/dto/envelope.dto';
import { ERROR_STATUS, ErrorCode } from './common/errors/error-code';
import { AppConfig } from './config/app.config';

const LOG_LEVELS: LogLevel[] = ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'];

/**
 * The one place that knows which HTTP adapter runs: everything else goes through Nest's abstractions
 * and the node request/response underneath, so HTTP_ADAPTER=fastify is a configuration switch.
 */
export async function createApp(config: AppConfig, options: { logger?: boolean } = {}): Promise<INestApplication> {
  const logger = options.logger === false ? false : LOG_LEVELS.slice(0, LOG_LEVELS.indexOf(config.logLevel) + 1);
  const module = AppModule.register(config);
  // Requests end within node's 300 s default, as on Express. No Nest middleware exists (the request id is
  // the hook below), so Fastify's @fastify/middie would only cost every request a pass through its runner.
  const adapter: AbstractHttpAdapter = config.http.adapter === 'fastify' ? fastifyAdapter() : expressAdapter();
  // Every request gets its id and X-Request-Id header before anything else runs (unknown routes and guard
  // failures included), in the hook each adapter runs first for every request. A Nest middleware would run
  // through @fastify/middie on Fastify, and a hook of Fastify's own would add a link to its hook chain, both
  // measurable per request (docs/benchmarks.md). On Fastify the header goes on the reply, not reply.raw:
  // Fastify then writes all headers in one pass (see setResponseHeaders).
  adapter.setOnRequestHook((req: unknown, res: unknown, done: () => void) => {
    adapter.setHeader(res, HEADER.requestId, requestState(req).requestId);
    done();
  });
  const app = await NestFactory.create(module, adapter, { logger });
  return configureApp(app);
}

function fastifyAdapter(): FastifyAdapter {
  return new FastifyAdapter({ trustProxy: true, requestTimeout: 300_000, skipMiddie: true, frameworkErrors: answerFrameworkError });
}

/**
 * What Fastify refuses before routing (a path whose percent-encoding does not decode, a path parameter
 * over its length limit) would otherwise leave as Fastify's own JSON, without the envelope or a request id:
 * neither Nest nor the request hook sees it. Express has no such step (it answers those paths 404 in the
 * envelope).
 */
function answerFrameworkError(error: Error, request: FastifyRequest, reply: FastifyReply): void {
  const body: ErrorEnvelopeDto = { code: ErrorCode.VALIDATION_ERROR, msg: `path: ${error.message}`, data: null };
  void reply
    .code(ERROR_STATUS[ErrorCode.VALIDATION_ERROR])
    .header(HEADER.requestId, requestState(request).requestId)
    .header(HEADER.creditsCost, '0')
    .type('application/json; charset=utf-8')
    .send(JSON.stringify(body));
}

/**
 * Nest's Express adapter, sending a Buffer body as it is, as the Fastify one does: Nest's would serialise
 * it as a JSON object ({"type":"Buffer","data":[...]}). Routes answer bytes for JSON made once (JsonText).
 */
class ExpressBytesAdapter extends ExpressAdapter {
  override reply(response: { status(code: number): unknown; send(body: Buffer): unknown }, body: unknown, statusCode?: number): unknown {
    if (!Buffer.isBuffer(body)) return super.reply(response, body, statusCode);
    if (statusCode) response.status(statusCode);
    return response.send(body);
  }
}

function expressAdapter(): ExpressAdapter {
  const express = new ExpressBytesAdapter();
  // ETags hash every body and no client here revalidates; the header would only cost CPU.
  express.set('etag', false);
  express.disable('x-powered-by');
  return express;
}
