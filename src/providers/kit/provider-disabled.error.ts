import { AppError } from '../../common/errors/app-error';
import { ErrorCode } from '../../common/errors/error-code';

/** What a provider slot serves, in the words a client sees when it has no vendor. */
export type ProviderKind = 'market data' | 'equities data' | 'filings' | 'rwa data' | 'news sources' | 'news analysis';

/**
 * Thrown by every method of a slot's disabled implementation: no vendor is configured for that kind of
 * data, or it is switched off. Answered 503 MARKET_DATA_DISABLED and, as every failed call, not billed.
 */
export class ProviderDisabledError extends AppError {
  constructor(readonly kind: ProviderKind) {
    super(ErrorCode.MARKET_DATA_DISABLED, `${kind}: disabled or not configured`);
    this.name = 'ProviderDisabledError';
  }
}

/** A method of a disabled implementation: rejects, as a vendor's failing call would. */
export function refuseAs(kind: ProviderKind): () => Promise<never> {
  return () => Promise.reject(new ProviderDisabledError(kind));
}
