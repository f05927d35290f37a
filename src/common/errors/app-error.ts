import { ErrorCode } from './error-code';

/**
 * The one error type services throw. It carries a contract code and a message safe to show the caller;
 * the error-envelope filter turns it into an HTTP status and the envelope.
 */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** Extra response headers the error needs (Retry-After on 429). */
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.name = 'AppError';
  }

  static validation(field: string, problem: string): AppError {
    return new AppError(ErrorCode.VALIDATION_ERROR, `${field}: ${problem}`);
  }

  static notFound(what: string): AppError {
    return new AppError(ErrorCode.NOT_FOUND, `${what} not found`);
  }
}
