import { INestApplication, LoggerService, PayloadTooLargeException } from '@nestjs/common';
import { AbstractHttpAdapter, NestFactory } from '@nestjs/core';
import { ExpressAdapter } from '@nestjs/platform-express';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Server, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { AppModule, ModuleImport } from './app.module';
import { configureApp } from './app.setup';
import { BODY_TOO_LARGE } from './common/http/body-error-message';
import { MAX_BODY_BYTES } from './common/http/body-limit';
import { useBodyParsers } from './common/http/body-parsers';
import { answerClientError } from './common/http/client-error-response';
import { rawRequest, requestState } from './common/http/request-state';
import { HEADER } from './common/http/response-headers';
import { ErrorEnvelopeDto } from './common/dto/envelope.dto';
import { ERROR_STATUS, ErrorCode } from './common/errors/error-code';
import { AppConfig } from './config/app.config';
import { createAppLogger } from './infra/logging/app-logger';
import { requestContext } from './infra/logging/request-context';
import { HttpRequestRecorder, UNMATCHED_ROUTE } from './infra/metrics/http-request-series';
import { httpRequests } from './infra/metrics/metrics';

/** How often node looks for requests past their headers or request timeout (its default is 30 s). */
const TIMEOUT_CHECK_INTERVAL_MS = 1000;

/**
 * The one place that knows which HTTP adapter runs: everything else goes through Nest's abstractions
 * and the node request/response underneath, so HTTP_ADAPTER=fastify is a configuration switch.
 */
export interface CreateAppOptions {
  /** false: silent (tests); a LoggerService: that one (tests read its lines); otherwise LOG_FORMAT's pino logger. */
  logger?: boolean | LoggerService;
  /** Modules mounted beside the app's own (tests add test-only routes and providers this way). */
  imports?: ModuleImport[];
}

export async function createApp(config: AppConfig, options: CreateAppOptions = {}): Promise<INestApplication> {
  const logger = options.logger === false ? false : typeof options.logger === 'object' ? options.logger : createAppLogger(config);
  const metrics = config.metrics.enabled ? httpRequests.recorder(config.http.adapter) : undefined;
  const module = AppModule.register(config, options.imports);
  // No Nest middleware exists (the request id is the hook below), so Fastify's @fastify/middie would only
  // cost every request a pass through its runner.
  const adapter: AbstractHttpAdapter = config.http.adapter === 'fastify' ? fastifyAdapter(config) : expressAdapter(config);
  // Every request gets its id and X-Request-Id header before anything else runs (unknown routes and guard
  // failures included), in the hook each adapter runs first for every request. A Nest middleware would run
  // through @fastify/middie on Fastify, and a hook of Fastify's own would add a link to its hook chain, both
  // measurable per request (docs/benchmarks.md). On Fastify the header goes on the reply, not reply.raw:
  // Fastify then writes all headers in one pass (see setResponseHeaders).
  // A body declared over the limit is refused here, before anything waits for it: a client that declares
  // one and sends nothing would otherwise hold the connection until the request timeout. The error
  // filter answers 413 in the envelope and closes the connection.
  // With LOG_REQUEST_CONTEXT the rest of the request runs inside its log context (every line it causes
  // carries its id). On Express the response is counted when it finishes; Fastify counts in the onResponse
  // hook Nest always installs, so no hook is added.
  const logContext = config.logRequestContext;
  const countOnFinish = config.http.adapter === 'express' ? metrics : undefined;
  adapter.setOnRequestHook((req: unknown, res: unknown, done: (error?: unknown) => void) => {
    const state = requestState(req);
    adapter.setHeader(res, HEADER.requestId, state.requestId);
    if (countOnFinish) countWhenFinished(countOnFinish, req as ExpressRequest, res as ServerResponse);
    const declared = rawRequest(req).headers['content-length'];
    const tooLarge = declared !== undefined && Number(declared) > MAX_BODY_BYTES ? new PayloadTooLargeException(BODY_TOO_LARGE) : undefined;
    if (logContext) requestContext.run(state, done, tooLarge);
    else done(tooLarge);
  });
  if (metrics && config.http.adapter === 'fastify') {
    adapter.setOnResponseHook((request: FastifyRequest, reply: FastifyReply, done: () => void) => {
      metrics.record(request.is404 ? UNMATCHED_ROUTE : request.routeOptions.url!, request.method, reply.statusCode, reply.elapsedTime / 1000);
      done();
    });
  }
  // Body parsers are ours (useBodyParsers): one limit on both adapters, and errors in our words.
  const app = await NestFactory.create(module, adapter, { logger, bodyParser: false });
  setServerTimeouts(app.getHttpServer() as Server, config);
  if (config.http.adapter === 'express') listenForClientErrors(app);
  useBodyParsers(app, config.http.adapter);
  return configureApp(app);
}

/** What Express leaves on its request: the matched route (its template) stays there once the response is sent. */
interface ExpressRequest {
  method: string;
  baseUrl: string;
  route?: { path: string };
}

/** One listener per response; the route is read at the end, once Express has matched it (or not). */
function countWhenFinished(metrics: HttpRequestRecorder, req: ExpressRequest, res: ServerResponse): void {
  const start = performance.now();
  res.on('finish', () => {
    const route = req.route ? (req.baseUrl ? req.baseUrl + req.route.path : req.route.path) : UNMATCHED_ROUTE;
    metrics.record(route, req.method, res.statusCode, (performance.now() - start) / 1000);
  });
}

/**
 * Node's defaults let a client hold a socket for minutes (300 s to send a request, checked every 30 s).
 * Set on the server under either adapter, before it listens (the check interval is read then). On Node 20
 * both timeouts run only while a request is being received: an idle keep-alive connection is governed by
 * keepAliveTimeout alone, so no ordering between it and headersTimeout is needed; node requires
 * headersTimeout <= requestTimeout (the configuration checks it).
 */
function setServerTimeouts(server: Server, { httpServer }: AppConfig): void {
  server.requestTimeout = httpServer.requestTimeoutMs;
  server.headersTimeout = httpServer.headersTimeoutMs;
  server.keepAliveTimeout = httpServer.keepAliveTimeoutMs;
  (server as Server & { connectionsCheckingInterval: number }).connectionsCheckingInterval = TIMEOUT_CHECK_INTERVAL_MS;
}

function fastifyAdapter({ httpServer }: AppConfig): FastifyAdapter {
  return new FastifyAdapter({
    trustProxy: httpServer.trustProxy,
    bodyLimit: MAX_BODY_BYTES,
    skipMiddie: true,
    frameworkErrors: answerFrameworkError,
    clientErrorHandler: answerClientError,
  });
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

function expressAdapter({ httpServer }: AppConfig): ExpressAdapter {
  const express = new ExpressBytesAdapter();
  // ETags hash every body and no client here revalidates; the header would only cost CPU.
  express.set('etag', false);
  express.disable('x-powered-by');
  express.set('trust proxy', httpServer.trustProxy);
  return express;
}

/** Express has no option for it: its server is node's, so the listener goes on that (Fastify takes clientErrorHandler). */
function listenForClientErrors(app: INestApplication): void {
  (app.getHttpServer() as Server).on('clientError', answerClientError);
}
