import { CRYPTO_COIN_COUNT } from './crypto-universe';
import { SimWorld } from './sim-world';
import { RWAS } from './tokenized-assets';

/** Wednesday 2026-09-23 15:00 UTC. */
const T0 = Date.UTC(2026, 8, 23, 15);

describe('tokenized assets in the world', () => {
  const book = new SimWorld({ wallets: 2, seed: 7 }).markets;
  const tokens = RWAS.flatMap((rwa) => rwa.tokens.map((token) => ({ rwa, token })));

  it('adds every token as a coin after the named and generated ones', () => {
    expect(book.coins.slice(CRYPTO_COIN_COUNT).map((coin) => coin.id)).toEqual(tokens.map(({ token }) => token.id));
    expect(new Set(book.coins.map((coin) => coin.id)).size).toBe(book.coins.length);
    expect(book.coins.slice(CRYPTO_COIN_COUNT).every((coin) => coin.binanceSymbol === null)).toBe(true);
  });

  it('prices each token at its listing price times its premium, at any instant', () => {
    for (const t of [T0, T0 + 37_000, T0 - 3 * 24 * 3_600_000]) {
      for (const { rwa, token } of tokens) {
        const listingPx = book.listingPx(book.listing(rwa.listing)!, t);
        expect(book.coinPx(book.coin(token.id)!, t) / listingPx).toBeCloseTo(1 + token.premium, 9);
      }
    }
  });

  it('keeps every RWA on a listing priced in USD, with tokens of one asset type each', () => {
    for (const rwa of RWAS) {
      expect(book.listing(rwa.listing)?.currency).toBe('USD');
      expect(rwa.tokens.length).toBeGreaterThanOrEqual(2);
    }
    expect(new Set(RWAS.map((rwa) => rwa.assetType))).toEqual(new Set(['stock', 'etf', 'commodity']));
  });
});
