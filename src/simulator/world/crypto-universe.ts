import { NAMED_COINS } from './crypto-coins';
import { mulberry32, stringHash } from './prng';
import { tokenizedCoins } from './tokenized-assets';
import { UnderlyingDef } from './universe';

/** A coin as every crypto protocol sees it: CoinGecko id and symbol, supplies, and the price process it follows. */
export interface CryptoCoin {
  id: string;
  symbol: string;
  name: string;
  process: UnderlyingDef;
  /** Coin price = process price × scale. */
  scale: number;
  circulating: number;
  total: number | null;
  max: number | null;
  genesis: string | null;
  categories: string[];
  /** `BTCUSDT` when Binance lists it against USDT. */
  binanceSymbol: string | null;
  hashing: string | null;
  blockMinutes: number;
  /** CoinGecko's numeric image id (in the image URLs). */
  imageId: number;
  /** Seed of its per-coin draws (volumes, ATH, venues). */
  seed: number;
}

export const CRYPTO_COIN_COUNT = 300;
const SYLLABLES = [
  'zen',
  'ora',
  'lux',
  'kai',
  'vel',
  'nex',
  'tor',
  'mi',
  'sol',
  'ra',
  'qua',
  'fi',
  'dex',
  'lo',
  'ver',
  'ion',
  'pix',
  'ark',
  'neo',
  'sy',
  'tal',
  'mon',
  'bit',
  'gal',
];
const SUFFIXES = ['', '', '', ' Protocol', ' Network', ' Finance', ' Chain', ' AI', ' Inu', ' DAO'];
const TAIL_CATEGORIES = [
  ['Decentralized Finance (DeFi)'],
  ['Gaming (GameFi)'],
  ['Meme'],
  ['Artificial Intelligence (AI)'],
  ['Layer 2 (L2)'],
  ['Real World Assets (RWA)'],
  ['Decentralized Exchange (DEX)', 'Decentralized Finance (DeFi)'],
];

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Market cap the generated coin at this rank is built around (a power law, like the real ranking's tail). */
function tailCap(rank: number): number {
  return 4e9 * (rank / 35) ** -1.4;
}

/**
 * The named coins, then generated ones up to CRYPTO_COIN_COUNT, then the tokenized real-world assets, all from the
 * seed. Generated names may repeat a symbol (as real listings do); ids never repeat.
 */
export function buildCryptoUniverse(seed: number, underlyings: readonly UnderlyingDef[]): CryptoCoin[] {
  const byKey = new Map(underlyings.map((u) => [u.key, u]));
  const ids = new Set<string>();
  const coins: CryptoCoin[] = NAMED_COINS.map((def, k) => {
    ids.add(def.id);
    const shared = def.process === undefined ? undefined : byKey.get(def.process);
    if (def.process !== undefined && !shared) throw new Error(`crypto universe: ${def.id} follows unknown process ${def.process}`);
    return {
      id: def.id,
      symbol: def.symbol,
      name: def.name,
      process: shared ?? { key: `coin:${def.id}`, basePx: def.basePx ?? 1, vol: def.vol ?? 1 },
      scale: def.processScale ?? 1,
      circulating: def.circulating,
      total: def.total,
      max: def.max,
      genesis: def.genesis,
      categories: def.categories,
      binanceSymbol: def.binance ? `${def.symbol.toUpperCase()}USDT` : null,
      hashing: def.hashing ?? null,
      blockMinutes: def.blockMinutes ?? 0,
      imageId: 1 + k,
      seed: stringHash(`${seed}:coin:${def.id}`),
    };
  });

  const rng = mulberry32(stringHash(`${seed}:crypto-universe`));
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rng() * items.length)];
  while (coins.length < CRYPTO_COIN_COUNT) {
    const rank = coins.length + 1;
    const stem = capitalize(Array.from({ length: 2 + Math.floor(rng() * 2) }, () => pick(SYLLABLES)).join(''));
    const name = `${stem}${pick(SUFFIXES)}`;
    let id = name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
    for (let n = 2; ids.has(id); n++) id = `${name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-${n}`;
    ids.add(id);
    const symbol = stem.slice(0, 3 + Math.floor(rng() * 2)).toLowerCase();
    const basePx = Math.exp(Math.log(0.0004) + rng() * (Math.log(90) - Math.log(0.0004)));
    const circulating = Math.round(tailCap(rank) * (0.7 + rng() * 0.6)) / basePx;
    const total = rng() < 0.8 ? circulating * (1 + rng() * 1.5) : null;
    coins.push({
      id,
      symbol,
      name,
      process: { key: `coin:${id}`, basePx, vol: 0.8 + rng() * 1.0 },
      scale: 1,
      circulating: Math.round(circulating),
      total: total === null ? null : Math.round(total),
      max: total !== null && rng() < 0.5 ? Math.round(total) : null,
      genesis: null,
      categories: pick(TAIL_CATEGORIES),
      binanceSymbol: rank <= 120 && rng() < 0.6 ? `${symbol.toUpperCase()}USDT` : null,
      hashing: null,
      blockMinutes: 0,
      imageId: 10_000 + rank * 37,
      seed: stringHash(`${seed}:coin:${id}`),
    });
  }
  // Two generated coins with one symbol would both claim the same Binance pair; the higher-cap one keeps it.
  const pairs = new Set<string>();
  for (const coin of coins) {
    if (coin.binanceSymbol === null) continue;
    if (pairs.has(coin.binanceSymbol)) coin.binanceSymbol = null;
    else pairs.add(coin.binanceSymbol);
  }
  // Appended last, so the named and generated coins keep their ids, draws and image ids.
  for (const token of tokenizedCoins(seed, byKey)) {
    if (ids.has(token.id)) throw new Error(`crypto universe: tokenized asset ${token.id} repeats a coin id`);
    ids.add(token.id);
    coins.push(token);
  }
  return coins;
}
