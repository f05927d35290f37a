import { HttpException } from '@nestjs/common';
import { BODY_TOO_DEEP } from './body-depth';
import { MAX_BODY_BYTES } from './body-limit';

export const BODY_TOO_LARGE = `body: larger than the ${MAX_BODY_BYTES}-byte limit`;

/** body-parser's error types (Express), by what the client did wrong. */
const BODY_PARSER_MESSAGES: Record<string, string> = {
  'entity.parse.failed': 'body: malformed JSON',
  'entity.too.large': BODY_TOO_LARGE,
  'request.aborted': 'body: the client stopped sending it',
  'request.size.invalid': 'body: its size does not match Content-Length',
  'encoding.unsupported': 'content-encoding: not supported',
  'charset.unsupported': 'content-type: charset not supported',
  'parameters.too.many': 'body: too many parameters',
  // A form body nested past the depth body-parsers.ts gives qs.
  'querystring.parse.rangeError': BODY_TOO_DEEP,
};

/** Fastify's content-type parser errors, likewise. */
const FASTIFY_MESSAGES: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'body: malformed JSON',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'body: empty, but Content-Type says JSON',
  FST_ERR_CTP_BODY_TOO_LARGE: BODY_TOO_LARGE,
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'body: its size does not match Content-Length',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'content-type: not supported',
  FST_ERR_CTP_INVALID_TYPE: 'content-type: not valid',
};

/**
 * What to tell a client whose request body the framework refused, naming the field; undefined for any
 * other error. Never the parser's own message: V8's JSON errors quote part of the body back.
 */
export function bodyErrorMessage(exception: unknown): string | undefined {
  const { type, code } = (exception ?? {}) as { type?: unknown; code?: unknown };
  if (typeof type === 'string' && Object.hasOwn(BODY_PARSER_MESSAGES, type)) return BODY_PARSER_MESSAGES[type];
  if (typeof code === 'string' && Object.hasOwn(FASTIFY_MESSAGES, code)) return FASTIFY_MESSAGES[code];
  // Fastify's JSON parser rejects a poisoned or broken document with a plain SyntaxError.
  if (exception instanceof SyntaxError) return 'body: malformed JSON';
  return undefined;
}

/**
 * A body parser's error as the HttpException the error filter answers: Nest would otherwise turn it into
 * one carrying the parser's own message (and the error's type or code, which say what went wrong, are lost).
 */
export function bodyParseError(error: unknown): HttpException {
  // Already in our words (a body nested too deep, body-depth.ts).
  if (error instanceof HttpException) return error;
  const { status, statusCode } = (error ?? {}) as { status?: unknown; statusCode?: unknown };
  const code = typeof statusCode === 'number' ? statusCode : typeof status === 'number' ? status : 400;
  return new HttpException(bodyErrorMessage(error) ?? 'body: could not be read', code >= 400 && code < 500 ? code : 400);
}
