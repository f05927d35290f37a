import { ProviderDisabledError } from '../../../providers/kit/provider-disabled.error';

/**
 * A vendor that answers an asset type but not this operation (Yahoo has no catalogue of our seed list, no
 * vendor answers search: ours reads PostgreSQL). Answered like a disabled provider, 503 MARKET_DATA_DISABLED
 * and unbilled: the data is not available from this deployment, which is what the client needs to know.
 */
export class MarketDataUnsupportedError extends ProviderDisabledError {
  constructor(
    readonly vendor: string,
    readonly operation: string,
  ) {
    super('market data');
    this.name = 'MarketDataUnsupportedError';
    this.message = `market data: ${operation} is not offered by ${vendor}`;
  }
}

/** A rejected call, so an unsupported method fails the way a failing upstream call does. */
export function refuseUnsupported(vendor: string, operation: string): Promise<never> {
  return Promise.reject(new MarketDataUnsupportedError(vendor, operation));
}
