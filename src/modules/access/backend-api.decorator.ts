import { applyDecorators, Controller } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { WalletSessionRoute } from '../../common/auth/audience';
import { ApiErrorResponse } from '../../common/decorators/api-envelope.decorator';
import { Enveloped } from '../../common/decorators/enveloped.decorator';
import { ErrorCode } from '../../common/errors/error-code';

export const BACKEND_API_PREFIX = 'api/v1';
/** The OpenAPI security scheme of the backend: `Authorization: Bearer <token>` from sign-message or refresh. */
export const WALLET_SESSION_SECURITY = 'wallet-session';

/** The 401 of a backend route whose bearer token is missing, invalid, expired, replaced or logged out. */
export function ApiSessionRefusal() {
  return ApiErrorResponse(
    401,
    [ErrorCode.UNAUTHORIZED, ErrorCode.INVALID_TOKEN, ErrorCode.TOKEN_EXPIRED],
    'No bearer token (UNAUTHORIZED); a token that is not ours, not exactly as issued (its sub, iat and exp are checked against its session), was replaced by a refresh or whose session ended (INVALID_TOKEN); an expired one (TOKEN_EXPIRED)',
    { open: true },
  );
}

/**
 * A controller of the backend API (contract 4.7, 5.2): mounted under /api/v1, behind a wallet session, in
 * the envelope. Outside the key pipeline: an API key is no credential here, a session token none there.
 */
export function BackendApiController(path: string, tag: string) {
  return applyDecorators(
    Controller(`${BACKEND_API_PREFIX}/${path}`),
    WalletSessionRoute(),
    Enveloped(),
    ApiTags(tag),
    ApiBearerAuth(WALLET_SESSION_SECURITY),
    ApiSessionRefusal(),
    // A route's own 400 (its DTO's refusals) replaces this one in the document.
    ApiErrorResponse(400, [ErrorCode.VALIDATION_ERROR], 'A query parameter the route does not take, or an invalid value (msg names it)', { open: true }),
    ApiErrorResponse(500, [ErrorCode.INTERNAL_ERROR], 'Unexpected error (no internals in the body)', { open: true }),
  );
}
