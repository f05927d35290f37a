import type { MarketQuote, QuoteFigures } from '../../src/providers/market-data-provider';

/** A quote with no figure at all: spread it and set the ones a test is about. */
export const NO_FIGURES: QuoteFigures = {
  price: null,
  change1h: null,
  change24h: null,
  change7d: null,
  volume24h: null,
  marketCap: null,
  high24h: null,
  low24h: null,
  sparkline7d: [],
};

/** A vendor's quote of `sourceId` (a stock by default, named by its id), with only the figures given. */
export function marketQuote(sourceId: string, overrides: Partial<MarketQuote> = {}): MarketQuote {
  return { sourceId, symbol: sourceId, name: sourceId, type: 'STOCK', market: null, currency: null, ...NO_FIGURES, updatedAt: null, ...overrides };
}
