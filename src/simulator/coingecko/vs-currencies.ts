import { MarketBook } from '../world/market-book';

/**
 * CoinGecko's vs-currencies (as its 2025 /global lists them) with units per USD. Those the world quotes follow
 * it (crypto from the coins, EUR/JPY/... from the FX listings, gold and silver from the futures); the rest are
 * fixed at the 2025 fixture's rates.
 */
// prettier-ignore
const FIXED_PER_USD: Record<string, number> = {
  usd: 1, aed: 3.673, ars: 1073.51, aud: 1.65303, bdt: 121.55, bhd: 0.376786, bmd: 1, brl: 5.8437, cad: 1.42464, chf: 0.854441,
  clp: 979.971, cny: 7.3112, czk: 23.0143, dkk: 6.82042, eur: 0.91384, gbp: 0.78082, gel: 2.751, hkd: 7.76785, huf: 372.521,
  idr: 16986.2, ils: 3.77153, inr: 85.8202, jpy: 146.378, krw: 1463.95, kwd: 0.307801, lkr: 297.977, mmk: 2098, mxn: 20.583,
  myr: 4.48, ngn: 1548.34, nok: 10.891, nzd: 1.78943, php: 57.3315, pkr: 280.498, pln: 3.92395, rub: 86.3008, sar: 3.75455,
  sek: 10.1028, sgd: 1.34637, thb: 34.5565, try: 38.0097, twd: 33.0515, uah: 41.0526, vef: 0.10013, vnd: 25806.5, zar: 19.3322,
  xdr: 0.752233,
};
/** Crypto vs-currencies: the coin whose price divides, and how many units one coin is (bits, sats). */
const CRYPTO_UNITS: Record<string, [coinId: string, unitsPerCoin: number]> = {
  btc: ['bitcoin', 1],
  eth: ['ethereum', 1],
  ltc: ['litecoin', 1],
  bch: ['bitcoin-cash', 1],
  bnb: ['binancecoin', 1],
  eos: ['eos', 1],
  xrp: ['ripple', 1],
  xlm: ['stellar', 1],
  link: ['chainlink', 1],
  dot: ['polkadot', 1],
  yfi: ['yearn-finance', 1],
  bits: ['bitcoin', 1e6],
  sats: ['bitcoin', 1e8],
};
const FX_FOLLOWED = ['eur', 'gbp', 'jpy', 'hkd', 'krw', 'cny'];
const METALS: Record<string, string> = { xau: 'GC=F', xag: 'SI=F' };

export const VS_CURRENCIES = [
  'btc',
  'eth',
  'ltc',
  'bch',
  'bnb',
  'eos',
  'xrp',
  'xlm',
  'link',
  'dot',
  'yfi',
  'usd',
  'aed',
  'ars',
  'aud',
  'bdt',
  'bhd',
  'bmd',
  'brl',
  'cad',
  'chf',
  'clp',
  'cny',
  'czk',
  'dkk',
  'eur',
  'gbp',
  'gel',
  'hkd',
  'huf',
  'idr',
  'ils',
  'inr',
  'jpy',
  'krw',
  'kwd',
  'lkr',
  'mmk',
  'mxn',
  'myr',
  'ngn',
  'nok',
  'nzd',
  'php',
  'pkr',
  'pln',
  'rub',
  'sar',
  'sek',
  'sgd',
  'thb',
  'try',
  'twd',
  'uah',
  'vef',
  'vnd',
  'zar',
  'xdr',
  'xag',
  'xau',
  'bits',
  'sats',
] as const;

/** Units of `currency` per USD at t; undefined for a currency CoinGecko does not quote. */
export function unitsPerUsd(book: MarketBook, currency: string, t: number): number | undefined {
  const crypto = CRYPTO_UNITS[currency];
  if (crypto) {
    const coin = book.coin(crypto[0]);
    return coin ? crypto[1] / book.coinPx(coin, t) : undefined;
  }
  if (FX_FOLLOWED.includes(currency)) return 1 / book.usdPerUnit(currency.toUpperCase(), t);
  const metal = METALS[currency];
  const listing = metal === undefined ? undefined : book.listing(metal);
  if (listing) return 1 / book.listingPx(listing, t);
  return FIXED_PER_USD[currency];
}

/** One USD amount in every vs-currency (CoinGecko's `{ "aed": ..., "usd": ... }` maps). */
export function inEveryCurrency(book: MarketBook, usd: number, t: number, round: (value: number) => number): Record<string, number> {
  return Object.fromEntries(VS_CURRENCIES.map((currency) => [currency, round(usd * (unitsPerUsd(book, currency, t) ?? 1))]));
}
