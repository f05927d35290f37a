import { applyDecorators, Type } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, getSchemaPath } from '@nestjs/swagger';
import { EnvelopeDto, PageFieldsDto } from '../dto/envelope.dto';

/** Headers the pipeline sets on every public response. */
const RESPONSE_HEADERS = {
  'X-Request-Id': { description: 'Server-minted request id; the referenceId of this call\'s ledger row', schema: { type: 'string' } },
  'X-RateLimit-Limit': { description: 'Per-minute cap of the key', schema: { type: 'integer' } },
  'X-RateLimit-Remaining': { description: 'Calls left in this window', schema: { type: 'integer' } },
  'X-RateLimit-Reset': { description: 'Epoch seconds when the next window starts', schema: { type: 'integer' } },
  'X-Credits-Cost': { description: 'Credits this call cost (0 on errors and on Free)', schema: { type: 'string' } },
  'X-Credits-Remaining': { description: 'Live balance after this call (paid tiers)', schema: { type: 'string' } },
};

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
