/**
 * Error codes of the contract (part 7), plus SERVICE_UNAVAILABLE for the ops health probes and a key the
 * key store could not check, and the wallet-session backend's 401s (the contract shows none for its auth
 * routes; docs/decisions.md).
 */
export enum ErrorCode {
  VALIDATION_ERROR = 'VALIDATION_ERROR',
  INVALID_API_KEY = 'INVALID_API_KEY',
  UNAUTHORIZED = 'UNAUTHORIZED',
  /** The signature does not recover to (or, for a contract wallet, is not accepted by) the address. */
  INVALID_SIGNATURE = 'INVALID_SIGNATURE',
  /** The login challenge is unknown, expired, already used, or not the text the server issued. */
  INVALID_CHALLENGE = 'INVALID_CHALLENGE',
  /** The session token is malformed, not ours, replaced by a refresh, or its session has ended. */
  INVALID_TOKEN = 'INVALID_TOKEN',
  TOKEN_EXPIRED = 'TOKEN_EXPIRED',
  INSUFFICIENT_CREDITS = 'INSUFFICIENT_CREDITS',
  FORBIDDEN = 'FORBIDDEN',
  NOT_FOUND = 'NOT_FOUND',
  MARKET_ASSET_NOT_FOUND = 'MARKET_ASSET_NOT_FOUND',
  RATE_LIMITED = 'RATE_LIMITED',
  MARKET_UPSTREAM_ERROR = 'MARKET_UPSTREAM_ERROR',
  MARKET_DATA_DISABLED = 'MARKET_DATA_DISABLED',
  SERVICE_UNAVAILABLE = 'SERVICE_UNAVAILABLE',
  INTERNAL_ERROR = 'INTERNAL_ERROR',
}

/** The only place that knows which HTTP status each code travels with; a missing code fails to compile. */
export const ERROR_STATUS: Record<ErrorCode, number> = {
  [ErrorCode.VALIDATION_ERROR]: 400,
  [ErrorCode.INVALID_API_KEY]: 401,
  [ErrorCode.UNAUTHORIZED]: 401,
  [ErrorCode.INVALID_SIGNATURE]: 401,
  [ErrorCode.INVALID_CHALLENGE]: 401,
  [ErrorCode.INVALID_TOKEN]: 401,
  [ErrorCode.TOKEN_EXPIRED]: 401,
  [ErrorCode.INSUFFICIENT_CREDITS]: 403,
  [ErrorCode.FORBIDDEN]: 403,
  [ErrorCode.NOT_FOUND]: 404,
  [ErrorCode.MARKET_ASSET_NOT_FOUND]: 404,
  [ErrorCode.RATE_LIMITED]: 429,
  [ErrorCode.MARKET_UPSTREAM_ERROR]: 502,
  [ErrorCode.MARKET_DATA_DISABLED]: 503,
  [ErrorCode.SERVICE_UNAVAILABLE]: 503,
  [ErrorCode.INTERNAL_ERROR]: 500,
};

/** Best contract code for an HTTP status raised by the framework itself (unknown route, body too large...). */
export function errorCodeForStatus(status: number): ErrorCode {
  switch (status) {
    case 401:
      return ErrorCode.UNAUTHORIZED;
    case 403:
      return ErrorCode.FORBIDDEN;
    case 404:
      return ErrorCode.NOT_FOUND;
    case 429:
      return ErrorCode.RATE_LIMITED;
    case 503:
      return ErrorCode.SERVICE_UNAVAILABLE;
    default:
      return status >= 400 && status < 500 ? ErrorCode.VALIDATION_ERROR : ErrorCode.INTERNAL_ERROR;
  }
}
