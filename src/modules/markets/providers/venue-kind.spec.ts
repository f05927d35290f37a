import { venueKindOf } from './venue-kind';

describe(venueKindOf.name, () => {
  it.each([
    ['Uniswap V3 (Ethereum)', 'uniswap_v3', 'dex'],
    ['Raydium', 'raydium', 'dex'],
    ['dYdX (Futures)', null, 'dex'],
    ['Binance', 'binance', 'cex'],
    ['Binance (Futures)', null, 'cex'],
    ['Coinbase Exchange', 'gdax', 'cex'],
  ] as const)('%s is a %s', (venue, venueId, kind) => {
    expect(venueKindOf(venue, venueId)).toBe(kind);
  });
});
