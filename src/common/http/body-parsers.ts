import { INestApplication } from '@nestjs/common';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyRequest } from 'fastify';
import { HttpAdapterName } from '../../config/app.config';
import { bodyDepthError, MAX_BODY_DEPTH } from './body-depth';
import { bodyParseError } from './body-error-message';
import { MAX_BODY_BYTES } from './body-limit';

type ParserDone = (error: Error | null, value?: unknown) => void;
type Middleware = (req: unknown, res: unknown, next: (error?: unknown) => void) => void;

// The project has no express typings (Nest's adapter brings express itself); only its parsers are needed here.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const express = require('express') as {
  json(options: { limit: number }): Middleware;
  urlencoded(options: { limit: number; extended: boolean; depth: number }): Middleware;
};

/**
 * The body parsers Nest would register (JSON and URL-encoded forms), in its place (create the app with
 * `bodyParser: false`), so that both adapters share one limit and a parser's failure is answered in our
 * words, naming `body` (400 "body: malformed JSON"): Nest hands the filter only a parser error's message,
 * and V8's quotes part of the body back. A JSON body nested too deep is refused here too (body-depth.ts),
 * before class-transformer sees it. As many steps as Nest's parsers, so no request passes one more than before.
 */
export function useBodyParsers(app: INestApplication, adapter: HttpAdapterName): void {
  if (adapter === 'fastify') useFastifyParsers(app as NestFastifyApplication);
  else useExpressParsers(app);
}

function useExpressParsers(app: INestApplication): void {
  const json = express.json({ limit: MAX_BODY_BYTES });
  app.use((req: { body?: unknown }, res: unknown, next: (error?: unknown) => void) =>
    json(req, res, (error?: unknown) => next(error ?? bodyDepthError(req.body))),
  );
  // qs nests bracketed names (`a[b][c]`); the same bound as JSON's, said in the same words.
  app.use(express.urlencoded({ limit: MAX_BODY_BYTES, extended: true, depth: MAX_BODY_DEPTH }));
  // Express calls a four-argument middleware only with an error, so a request whose body parsed (or that has
  // none) passes nothing more than the two parsers.
  app.use((error: unknown, _req: unknown, _res: unknown, next: (error?: unknown) => void) => next(bodyParseError(error)));
}

function useFastifyParsers(app: NestFastifyApplication): void {
  const parseJson = app.getHttpAdapter().getInstance().getDefaultJsonParser('error', 'error');
  // Stands in for Fastify's own JSON parser (it keeps its text/plain one).
  app.useBodyParser('application/json', { bodyLimit: MAX_BODY_BYTES }, (req: FastifyRequest, body: string | Buffer, done: ParserDone) =>
    parseJson(req, body.toString(), (error, value) => done(error ? bodyParseError(error) : (bodyDepthError(value) ?? null), value)),
  );
  app.useBodyParser('application/x-www-form-urlencoded', { bodyLimit: MAX_BODY_BYTES }, (_req: FastifyRequest, body: string | Buffer, done: ParserDone) =>
    done(null, Object.fromEntries(new URLSearchParams(body.toString()))),
  );
}
