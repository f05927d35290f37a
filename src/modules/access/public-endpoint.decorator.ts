import { applyDecorators, Controller } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiExtraModels, ApiOperation, ApiResponse, ApiSecurity, ApiTags, getSchemaPath } from '@nestjs/swagger';
import { CREDIT_COSTS, EndpointName } from '../billing/billing.public';
import { Audience } from '../../common/auth/audience';
import { ErrorEnvelopeDto } from '../../common/dto/envelope.dto';
import { errorResponseHeaders, KEYLESS_ERROR_HEADERS, NO_KEY_NO_RATE_LIMIT_HEADERS } from '../../common/decorators/api-envelope.decorator';
import { ErrorCode } from '../../common/errors/error-code';
import { Enveloped } from '../../common/decorators/enveloped.decorator';

export const PUBLIC_API_PREFIX = 'api/public/v1';
export const API_KEY_SECURITY = 'api-key';
/** The 503 of every public route when its key cannot be looked up; a route with a 503 of its own says it there too. */
export const KEY_UNCHECKED =
  'A data store did not answer in time: the key could not be checked (then no X-RateLimit-* headers: no key was counted), ' +
  'the credits store could not admit the call, or the data the route reads could not be reached. Never charged; retry with backoff (Retry-After when given)';

/** Route metadata read by the pipeline: which credit-table entry a public route is. */
export const Endpoint = Reflector.createDecorator<EndpointName>();
/** Route metadata: the route takes no query parameters at all (it has no query DTO to reject unknown ones). */
export const TakesNoQuery = Reflector.createDecorator<boolean>();

/** What the pipeline needs of a public route (read once per handler: route-access.ts). */
export interface PublicRoute {
  endpoint: EndpointName;
  cost: number;
  /** The cost as the X-Credits-Cost header says it. */
  costText: string;
  /** Any query parameter is unknown (the pipeline answers it 400, as a query DTO would). */
  takesNoQuery: boolean;
}

function errorResponse(status: number, codes: ErrorCode[], description: string, headers = errorResponseHeaders(status)) {
  return ApiResponse({
    status,
    description: `${description} (code: ${codes.join(' | ')})`,
    schema: { $ref: getSchemaPath(ErrorEnvelopeDto) },
    headers,
  });
}

/** A controller of the Public Data API: mounted under /api/public/v1 and behind key auth, rate limit and billing. */
export function PublicApiController(path: string, tag: string) {
  return applyDecorators(
    Controller(`${PUBLIC_API_PREFIX}/${path}`),
    Audience('public-key'),
    Enveloped(),
    ApiTags(tag),
    ApiSecurity(API_KEY_SECURITY),
    ApiExtraModels(ErrorEnvelopeDto),
    errorResponse(401, [ErrorCode.INVALID_API_KEY], `Missing, unknown or revoked x-api-key. ${NO_KEY_NO_RATE_LIMIT_HEADERS}`),
    errorResponse(403, [ErrorCode.INSUFFICIENT_CREDITS], 'Monthly credits exhausted (paid tiers) until the next period'),
    errorResponse(
      429,
      [ErrorCode.RATE_LIMITED],
      'Per-minute limit exceeded; see Retry-After. Also a client that presented too many unknown keys in a minute, refused before any lookup (msg names x-api-key; no X-RateLimit-* headers then)',
    ),
    errorResponse(500, [ErrorCode.INTERNAL_ERROR], 'Unexpected error (no internals in the body)'),
    errorResponse(503, [ErrorCode.SERVICE_UNAVAILABLE], KEY_UNCHECKED, KEYLESS_ERROR_HEADERS),
  );
}

/**
 * One public route: its credit-table entry (so its cost), and the Swagger text that states that cost.
 * `@PublicEndpoint('hl.perp.holders', 'Perp holders of a coin')`; a route without parameters says
 * `{ query: false }`, and then any query parameter is refused as unknown, as a query DTO refuses one it
 * does not declare (a typo such as `limt=5` must not pass unnoticed).
 */
export function PublicEndpoint(name: EndpointName, summary: string, options: { query?: false } = {}) {
  const cost = CREDIT_COSTS[name];
  return applyDecorators(
    Endpoint(name),
    TakesNoQuery(options.query === false),
    ApiOperation({
      operationId: name,
      summary,
      description:
        `**Cost:** ${cost} credit${cost === 1 ? '' : 's'} per successful call (paid tiers; Free is not metered). Endpoint name in /usage: \`${name}\`. ` +
        '**HEAD** is answered as GET is (status and headers, no body) and is free: it counts in the per-minute window, ' +
        'costs no credits (X-Credits-Cost: 0) and is not counted in /usage. Other methods are answered 404, as unknown routes are, unbilled.',
    }),
    errorResponse(
      400,
      [ErrorCode.VALIDATION_ERROR],
      options.query === false ? 'A query parameter was given; this endpoint takes none (msg names it)' : 'Invalid parameter; msg names the field',
    ),
  );
}
