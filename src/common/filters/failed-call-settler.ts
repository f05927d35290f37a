import { AppError } from '../errors/app-error';

/** Injection token of the FailedCallSettler the error filter consults (provided by the key pipeline's module). */
export const FAILED_CALL_SETTLER = Symbol('FAILED_CALL_SETTLER');

export interface FailedCallParams {
  exception: unknown;
  /** The adapter's request and response. */
  req: unknown;
  res: unknown;
  /** The headers of the error response so far; the settler adds its own (e.g. the balance after a refund). */
  headers: Record<string, string>;
}

/**
 * What the error filter asks of billing for every failed request, so that common knows no area: settle
 * what the call was charged (a failed call is never billed) and say, by returning it, whether another
 * error answers the request instead (a key over its window on a route nobody serves is answered 429).
 */
export interface FailedCallSettler {
  settle(params: FailedCallParams): Promise<AppError | undefined>;
}
