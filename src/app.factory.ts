import { INestApplication, LogLevel } from '@nestjs/common';
import { IncomingMessage, ServerResponse } from 'node:http';
import { NestFactory } from '@nestjs/core';
import { ExpressAdapter } from '@nestjs/platform-express';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { AppModule } from './app.module';
import { configureApp } from './app.setup';
import { requestState } from './common/http/request-state';
import { HEADER } from './common/http/response-headers';
import { AppConfig } from './config/app.config';

const LOG_LEVELS: LogLevel[] = ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'];

/**
 * The one place that knows which HTTP adapter runs: everything else goes through Nest's abstractions
 * and the node request/response underneath, so HTTP_ADAPTER=fastify is a configuration switch.
 */
export async function createApp(config: AppConfig, options: { logger?: boolean } = {}): Promise<INestApplication> {
  const logger = options.logger === false ? false : LOG_LEVELS.slice(0, LOG_LEVELS.indexOf(config.logLevel) + 1);
  const module = AppModule.register(config);
  let app: INestApplication;
  // Every request gets its id and X-Request-Id header before anything else runs (unknown routes and guard
  // failures included), in each adapter's native first hook: a Nest middleware would run through
  // @fastify/middie on Fastify, a measurable per-request cost (docs/benchmarks.md).
  if (config.http.adapter === 'fastify') {
    // Requests end within node's 300 s default, as on Express. No Nest middleware exists (the request id is
    // a Fastify hook below), so @fastify/middie would only cost every request a pass through its runner.
    const fastify = new FastifyAdapter({ trustProxy: true, requestTimeout: 300_000, skipMiddie: true });
    fastify.getInstance().addHook('onRequest', (request, reply, done) => {
      // On the reply, not reply.raw: Fastify then writes all headers in one pass (see setResponseHeaders).
      reply.header(HEADER.requestId, requestState(request.raw).requestId);
      done();
    });
    app = await NestFactory.create(module, fastify, { logger });
  } else {
    const express = new ExpressAdapter();
    // ETags hash every body and no client here revalidates; the header would only cost CPU.
    express.set('etag', false);
    express.disable('x-powered-by');
    express.use((req: IncomingMessage, res: ServerResponse, next: () => void) => {
      res.setHeader(HEADER.requestId, requestState(req).requestId);
      next();
    });
    app = await NestFactory.create(module, express, { logger });
  }
  return configureApp(app);
}
