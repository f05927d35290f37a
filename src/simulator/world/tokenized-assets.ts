import type { CryptoCoin } from './crypto-universe';
import { stringHash } from './prng';
import { LISTINGS, ListingDef } from './stock-listings';
import { UnderlyingDef } from './universe';

/**
 * Tokenized real-world assets: on-chain tokens that track a stock, an ETF or gold of the listings, as CoinGecko's
 * RWA API groups them. Each token is also a coin of the crypto universe whose price is its underlying listing's
 * price times (1 + premium), so `/coins/markets`, `/rwas/markets` and Yahoo's quote agree at every instant.
 * Ids, names and symbols follow CoinGecko's style for such tokens; market caps are public orders of magnitude.
 */
export type RwaAssetClass = 'stock' | 'etf' | 'commodity';

export interface RwaIssuer {
  id: string;
  name: string;
}

export const RWA_ISSUERS = {
  xstocks: { id: 'xstocks', name: 'xStocks' },
  ondo: { id: 'ondo-global-markets', name: 'Ondo Global Markets' },
  backed: { id: 'backed-finance', name: 'Backed Finance' },
  paxos: { id: 'paxos', name: 'Paxos' },
  tether: { id: 'tether', name: 'Tether' },
} satisfies Record<string, RwaIssuer>;

export interface RwaTokenDef {
  /** CoinGecko coin id. */
  id: string;
  symbol: string;
  name: string;
  issuer: keyof typeof RWA_ISSUERS;
  /** Token price over the underlying's, as a fraction (0.002 is 0.2 % above). */
  premium: number;
  /** Market cap in USD at the underlying's base price; sets the circulating supply. */
  capUsd: number;
}

export interface RwaDef {
  /** CoinGecko RWA id. */
  id: string;
  name: string;
  /** The underlying's ticker, lower-case as CoinGecko sends it ('tsla', 'xau'). */
  symbol: string;
  assetType: RwaAssetClass;
  /** The Yahoo listing the tokens track (gold: the front-month future, per troy ounce). */
  listing: string;
  tokens: RwaTokenDef[];
}

const M = 1_000_000;
const xstock = (ticker: string, name: string, premium: number, capUsd: number): RwaTokenDef => ({
  id: `${name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-xstock`,
  symbol: `${ticker.toLowerCase()}x`,
  name: `${name} xStock`,
  issuer: 'xstocks',
  premium,
  capUsd,
});
const ondo = (ticker: string, name: string, kind: 'stock' | 'etf', premium: number, capUsd: number): RwaTokenDef => ({
  id: `${name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-ondo-tokenized-${kind}`,
  symbol: `${ticker.toLowerCase()}on`,
  name: `${name} tokenized ${kind === 'etf' ? 'ETF' : 'stock'} (Ondo)`,
  issuer: 'ondo',
  premium,
  capUsd,
});
const backed = (ticker: string, name: string, premium: number, capUsd: number): RwaTokenDef => ({
  id: `backed-${name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`,
  symbol: `b${ticker.toLowerCase()}`,
  name: `Backed ${name}`,
  issuer: 'backed',
  premium,
  capUsd,
});

// prettier-ignore
export const RWAS: RwaDef[] = [
  { id: 'tesla', name: 'Tesla', symbol: 'tsla', assetType: 'stock', listing: 'TSLA', tokens: [xstock('TSLA', 'Tesla', 0.0015, 62 * M), ondo('TSLA', 'Tesla', 'stock', -0.0008, 28 * M), backed('TSLA', 'Tesla', 0.003, 4 * M)] },
  { id: 'nvidia', name: 'NVIDIA', symbol: 'nvda', assetType: 'stock', listing: 'NVDA', tokens: [xstock('NVDA', 'NVIDIA', 0.0012, 35 * M), ondo('NVDA', 'NVIDIA', 'stock', 0.0004, 22 * M), backed('NVDA', 'NVIDIA', -0.002, 3 * M)] },
  { id: 'apple', name: 'Apple', symbol: 'aapl', assetType: 'stock', listing: 'AAPL', tokens: [xstock('AAPL', 'Apple', 0.001, 18 * M), ondo('AAPL', 'Apple', 'stock', -0.0005, 12 * M)] },
  { id: 'microsoft', name: 'Microsoft', symbol: 'msft', assetType: 'stock', listing: 'MSFT', tokens: [xstock('MSFT', 'Microsoft', 0.0009, 9 * M), ondo('MSFT', 'Microsoft', 'stock', 0.0003, 7 * M)] },
  { id: 'alphabet', name: 'Alphabet', symbol: 'googl', assetType: 'stock', listing: 'GOOGL', tokens: [xstock('GOOGL', 'Alphabet', 0.0011, 11 * M), ondo('GOOGL', 'Alphabet', 'stock', -0.0004, 8 * M)] },
  { id: 'amazon', name: 'Amazon', symbol: 'amzn', assetType: 'stock', listing: 'AMZN', tokens: [xstock('AMZN', 'Amazon', 0.0013, 10 * M), ondo('AMZN', 'Amazon', 'stock', 0.0002, 5 * M)] },
  { id: 'coinbase', name: 'Coinbase', symbol: 'coin', assetType: 'stock', listing: 'COIN', tokens: [xstock('COIN', 'Coinbase', 0.002, 14 * M), ondo('COIN', 'Coinbase', 'stock', 0.0006, 6 * M)] },
  { id: 'circle', name: 'Circle', symbol: 'crcl', assetType: 'stock', listing: 'CRCL', tokens: [xstock('CRCL', 'Circle', 0.0025, 21 * M), ondo('CRCL', 'Circle', 'stock', 0.001, 9 * M)] },
  { id: 'spdr-s-p-500-etf-trust', name: 'SPDR S&P 500 ETF Trust', symbol: 'spy', assetType: 'etf', listing: 'SPY', tokens: [xstock('SPY', 'SP500', 0.0007, 24 * M), ondo('SPY', 'SPDR S&P 500', 'etf', 0.0002, 16 * M)] },
  { id: 'invesco-qqq-trust', name: 'Invesco QQQ Trust', symbol: 'qqq', assetType: 'etf', listing: 'QQQ', tokens: [xstock('QQQ', 'Nasdaq', 0.0008, 13 * M), ondo('QQQ', 'Invesco QQQ', 'etf', 0.0003, 9 * M)] },
  { id: 'gold', name: 'Gold', symbol: 'xau', assetType: 'commodity', listing: 'GC=F', tokens: [
    { id: 'tether-gold', symbol: 'xaut', name: 'Tether Gold', issuer: 'tether', premium: 0.004, capUsd: 2_100 * M },
    { id: 'pax-gold', symbol: 'paxg', name: 'PAX Gold', issuer: 'paxos', premium: 0.0025, capUsd: 1_300 * M },
  ] },
];

const CATEGORIES: Record<RwaAssetClass, string[]> = {
  stock: ['Real World Assets (RWA)', 'Tokenized Stock'],
  etf: ['Real World Assets (RWA)', 'Tokenized ETFs'],
  commodity: ['Real World Assets (RWA)', 'Tokenized Gold'],
};
/** Clear of the named coins' (1...) and the generated ones' (10,000 + 37 × rank) image ids. */
const FIRST_IMAGE_ID = 90_000;

/** The price process a listing follows, by the rule MarketBook applies (a shared underlying, else its own). */
export function listingProcess(def: ListingDef, underlyings: ReadonlyMap<string, UnderlyingDef>): UnderlyingDef {
  if (def.coin !== undefined || def.cross !== undefined) throw new Error(`tokenized assets: ${def.symbol} must follow a price process of its own`);
  const shared = def.process === undefined ? undefined : underlyings.get(def.process);
  if (def.process !== undefined && !shared) throw new Error(`tokenized assets: ${def.symbol} follows unknown process ${def.process}`);
  return shared ?? { key: `listing:${def.symbol}`, basePx: def.basePx ?? 1, vol: def.vol ?? 0.5 };
}

/** Every RWA token as a coin on its underlying listing's price path, scaled by its premium. */
export function tokenizedCoins(seed: number, underlyings: ReadonlyMap<string, UnderlyingDef>): CryptoCoin[] {
  const listings = new Map(LISTINGS.map((def) => [def.symbol, def]));
  return RWAS.flatMap((rwa) => {
    const listing = listings.get(rwa.listing);
    if (!listing) throw new Error(`tokenized assets: ${rwa.id} tracks unknown listing ${rwa.listing}`);
    const process = listingProcess(listing, underlyings);
    return rwa.tokens.map((token) => {
      const scale = 1 + token.premium;
      const circulating = Math.round(token.capUsd / (process.basePx * scale));
      return { token, process, scale, circulating, categories: CATEGORIES[rwa.assetType] };
    });
  }).map(({ token, process, scale, circulating, categories }, k) => ({
    id: token.id,
    symbol: token.symbol,
    name: token.name,
    process,
    scale,
    circulating,
    total: circulating,
    max: null,
    genesis: null,
    categories,
    binanceSymbol: null,
    hashing: null,
    blockMinutes: 0,
    imageId: FIRST_IMAGE_ID + k,
    seed: stringHash(`${seed}:coin:${token.id}`),
  }));
}
