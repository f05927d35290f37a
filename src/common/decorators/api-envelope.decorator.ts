import { applyDecorators, Type } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, getSchemaPath } from '@nestjs/swagger';
import { EnvelopeDto, PageFieldsDto } from '../dto/envelope.dto';

const REQUEST_ID_HEADER = {
  'X-Request-Id': { description: 'Server-minted request id; the referenceId of this call\'s ledger row', schema: { type: 'string' } },
};

/** Headers the pipeline sets on every public response after key auth, errors and 429 included. */
export const RESPONSE_HEADERS = {
  ...REQUEST_ID_HEADER,
  'X-RateLimit-Limit': { description: 'Per-minute cap of the key', schema: { type: 'integer' } },
  'X-RateLimit-Remaining': { description: 'Calls left in this window', schema: { type: 'integer' } },
  'X-RateLimit-Reset': { description: 'Epoch seconds when the next window starts', schema: { type: 'integer' } },
  'RateLimit-Policy': { description: 'IETF draft field: `"minute";q=<cap>;w=60`', schema: { type: 'string' } },
  'RateLimit': { description: 'IETF draft field: `"minute";r=<remaining>;t=<seconds to the next window>`', schema: { type: 'string' } },
  'X-Credits-Cost': { description: 'Credits this call cost (0 on errors and on Free)', schema: { type: 'string' } },
  'X-Credits-Remaining': { description: 'Live balance after this call (paid tiers; after the refund on errors)', schema: { type: 'string' } },
};

/** The headers of an error response: before key auth (401) only the request id and a cost of 0. */
export function errorResponseHeaders(status: number): Record<string, { description: string; schema: object }> {
  if (status === 401) return { ...REQUEST_ID_HEADER, 'X-Credits-Cost': RESPONSE_HEADERS['X-Credits-Cost'] };
  if (status !== 429) return RESPONSE_HEADERS;
  return { ...RESPONSE_HEADERS, 'Retry-After': { description: 'Seconds until the next window opens', schema: { type: 'integer' } } };
}

export interface ApiEnvelopeOptions {
  /** data is an array of the model. */
  isArray?: boolean;
  /** data is the flat pagination envelope around items of the model; 'cursor' adds nextCursor. */
  page?: 'offset' | 'cursor';
  /** data may be null (e.g. an OPC that was never created). */
  nullable?: boolean;
  description?: string;
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
            ...(options.page === 'cursor'
              ? { nextCursor: { type: 'string', nullable: true, description: 'Opaque base64url token; pass as `cursor`' } }
              : {}),
          },
        },
      ],
    };
  }
  if (options.nullable) data = { ...data, nullable: true };
  return applyDecorators(
    ApiExtraModels(EnvelopeDto, PageFieldsDto, model),
    ApiOkResponse({
      description: options.description ?? 'Success',
      headers: RESPONSE_HEADERS,
      schema: { allOf: [{ $ref: getSchemaPath(EnvelopeDto) }, { type: 'object', required: ['data'], properties: { data } }] },
    }),
  );
}
