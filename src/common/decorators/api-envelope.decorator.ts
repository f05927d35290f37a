import { applyDecorators, Type } from '@nestjs/common';
import { ApiExtraModels, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import { EnvelopeDto, ErrorEnvelopeDto, PageFieldsDto } from '../dto/envelope.dto';
import { ErrorCode } from '../errors/error-code';
import { nullableRefSchema } from '../dto/nullable-ref';

const REQUEST_ID_HEADER = {
  'X-Request-Id': {
    description:
      'Server-minted request id (on a billed call, the referenceId of its ledger row); the log line of a call that failed on the server side (a 502 or 500) names it: quote it when reporting one',
    schema: { type: 'string' },
  },
};

/** Headers the pipeline sets on every public response after key auth, errors and 429 included. */
export const RESPONSE_HEADERS = {
  ...REQUEST_ID_HEADER,
  'X-RateLimit-Limit': { description: 'Per-minute cap of the key', schema: { type: 'integer' } },
  'X-RateLimit-Remaining': { description: 'Calls left in this window', schema: { type: 'integer' } },
  'X-RateLimit-Reset': { description: 'Epoch seconds when the next window starts', schema: { type: 'integer' } },
  'RateLimit-Policy': { description: 'IETF draft field: `"minute";q=<cap>;w=60`', schema: { type: 'string' } },
  RateLimit: { description: 'IETF draft field: `"minute";r=<remaining>;t=<seconds to the next window>`', schema: { type: 'string' } },
  'X-Credits-Cost': { description: 'Credits this call cost (0 on errors and on Free)', schema: { type: 'string' } },
  'X-Credits-Remaining': { description: 'Live balance after this call (paid tiers; after the refund on errors)', schema: { type: 'string' } },
};

/** What an error carries when no key was counted: a 401 or key-lookup 503 of a public route, any error of an open route. */
export const KEYLESS_ERROR_HEADERS = { ...REQUEST_ID_HEADER, 'X-Credits-Cost': RESPONSE_HEADERS['X-Credits-Cost'] };

/** Said on every 401: clients that read the limit headers on every response must not expect them here. */
export const NO_KEY_NO_RATE_LIMIT_HEADERS = 'No X-RateLimit-* or RateLimit headers: without a valid key there is no window to report.';

/** The headers of an error response: before key auth (401) only the request id and a cost of 0. */
export function errorResponseHeaders(status: number): Record<string, { description: string; schema: object }> {
  if (status === 401) return KEYLESS_ERROR_HEADERS;
  if (status !== 429) return RESPONSE_HEADERS;
  return { ...RESPONSE_HEADERS, 'Retry-After': { description: 'Seconds until the next window opens', schema: { type: 'integer' } } };
}

/**
 * Documents one error status of a route: the error envelope, the codes it travels with, and the headers
 * the pipeline sets on it. `open` routes (health probes) sit outside the key pipeline: no rate-limit or
 * balance headers on them. `headers` adds what this error alone carries (an open route's Retry-After).
 */
export function ApiErrorResponse(
  status: number,
  codes: ErrorCode[],
  description: string,
  { open = false, headers = {} }: { open?: boolean; headers?: Record<string, { description: string; schema: object }> } = {},
) {
  return applyDecorators(
    ApiExtraModels(ErrorEnvelopeDto),
    ApiResponse({
      status,
      description: `${description} (code: ${codes.join(' | ')})`,
      schema: { $ref: getSchemaPath(ErrorEnvelopeDto) },
      headers: { ...(open ? KEYLESS_ERROR_HEADERS : errorResponseHeaders(status)), ...headers },
    }),
  );
}

export interface ApiEnvelopeOptions {
  /** data is an array of the model. */
  isArray?: boolean;
  /** data is the flat pagination envelope around items of the model; 'cursor' adds nextCursor. */
  page?: 'offset' | 'cursor';
  /** data may be null (e.g. an OPC that was never created). */
  nullable?: boolean;
  description?: string;
  /** An open route (outside the key pipeline): the 200 carries only the request id. */
  open?: boolean;
  /** Headers this route's 200 carries beyond the pipeline's (Markets' Age). */
  headers?: Record<string, { description: string; schema: object }>;
  /** The success status when it is not 200 (201 for a created resource). */
  status?: number;
}

/** Documents a 200 whose body is the contract envelope wrapping `model` (one place for every route). */
export function ApiEnvelope(model: Type<unknown>, options: ApiEnvelopeOptions = {}) {
  const ref = { $ref: getSchemaPath(model) };
  let data: Record<string, unknown> = ref;
  if (options.isArray) data = { type: 'array', items: ref };
  if (options.page) {
    data = {
      allOf: [
        { $ref: getSchemaPath(PageFieldsDto) },
        {
          type: 'object',
          required: ['items'],
          properties: {
            items: { type: 'array', items: ref },
            ...(options.page === 'cursor' ? { nextCursor: { type: 'string', nullable: true, description: 'Opaque base64url token; pass as `cursor`' } } : {}),
          },
        },
      ],
    };
  }
  if (options.nullable) data = '$ref' in data ? nullableRefSchema(data) : { ...data, nullable: true };
  return applyDecorators(
    ApiExtraModels(EnvelopeDto, PageFieldsDto, model),
    ApiResponse({
      status: options.status ?? 200,
      description: options.description ?? 'Success',
      headers: { ...(options.open ? REQUEST_ID_HEADER : RESPONSE_HEADERS), ...options.headers },
      schema: { allOf: [{ $ref: getSchemaPath(EnvelopeDto) }, { type: 'object', required: ['data'], properties: { data } }] },
    }),
  );
}
