import { INestApplication, LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ExpressAdapter } from '@nestjs/platform-express';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { AppModule } from './app.module';
import { configureApp } from './app.setup';
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
  if (config.http.adapter === 'fastify') {
    app = await NestFactory.create(module, new FastifyAdapter({ trustProxy: true }), { logger });
  } else {
    const express = new ExpressAdapter();
    // ETags hash every body and no client here revalidates; the header would only cost CPU.
    express.set('etag', false);
    express.disable('x-powered-by');
    app = await NestFactory.create(module, express, { logger });
  }
  return configureApp(app);
}
