import { CryptoCoin } from '../world/crypto-universe';
import { Listing, MarketBook } from '../world/market-book';
import { hash2, stringHash, unit } from '../world/prng';
import { LISTINGS } from '../world/stock-listings';
import { ENGLISH_DESKS, OutletName } from './news-feeds';

/** A new story every 2.5 simulated minutes; each outlet runs some of them, so each shows one every few minutes. */
export const STORY_SLOT_MS = 150_000;
/** Below this move a price story reads as flat, neither bullish nor bearish. */
export const FLAT_MOVE = 0.005;
const HOUR_MS = 3_600_000;
const MOVE_WINDOWS_HOURS = [1, 4, 24];
/** A mover story picks among this many of the biggest movers, so one coin does not fill the feed. */
const MOVER_PICK = 5;
const STORIES_CACHED = 4096;

export type StoryKind = 'move' | 'etf' | 'regulation' | 'hack' | 'listing' | 'partnership' | 'funding' | 'macro' | 'guard' | 'press';
export type Tone = 'bullish' | 'bearish' | 'neutral';

/** A price change of the world between two instants: what a mover or results story reports. */
export interface PriceMove {
  fromAt: number;
  toAt: number;
  fromPx: number;
  toPx: number;
  /** toPx / fromPx - 1. */
  change: number;
  hours: number;
}

/** One story of the world at one slot, before any outlet words it. */
export interface Story {
  slot: number;
  /** When it breaks (the slot's start); each outlet publishes it a little later. */
  at: number;
  hash: number;
  kind: StoryKind;
  tone: Tone;
  /** Which wording of its kind it takes (the kind's variant table is indexed by it). */
  variant: number;
  coin: CryptoCoin | null;
  /** The company a press release or a partnership story names. */
  listing: Listing | null;
  move: PriceMove | null;
  outlets: OutletName[];
  /** The Block runs CoinDesk's article as is: same title, same link (with its own tracking query). */
  syndicated: boolean;
}

// Weights of the kinds, summing to 1: price stories lead, press releases feed the wire.
const KIND_WEIGHTS: Array<[StoryKind, number]> = [
  ['move', 0.3],
  ['etf', 0.07],
  ['regulation', 0.07],
  ['hack', 0.05],
  ['listing', 0.07],
  ['partnership', 0.05],
  ['funding', 0.05],
  ['macro', 0.06],
  ['guard', 0.05],
  ['press', 0.23],
];

/** The tone of each wording of a kind, and whether it names a coin. Moves, and results (press 0), take the market's tone. */
// prettier-ignore
export const VARIANT_TONES: Record<Exclude<StoryKind, 'move'>, Array<[Tone, 'coin' | null]>> = {
  etf: [['bullish', 'coin'], ['bullish', 'coin']],
  regulation: [['bearish', 'coin'], ['neutral', null], ['bearish', 'coin']],
  hack: [['bearish', 'coin'], ['bearish', 'coin']],
  listing: [['bullish', 'coin'], ['bullish', 'coin'], ['bullish', 'coin']],
  partnership: [['bullish', 'coin'], ['bullish', 'coin']],
  funding: [['bullish', 'coin'], ['bullish', 'coin']],
  macro: [['neutral', null], ['bearish', null], ['bullish', null], ['neutral', null]],
  guard: [['neutral', null], ['neutral', null], ['neutral', null]],
  // results, dividend, buyback, webcast, crypto services
  press: [['neutral', null], ['bullish', null], ['bullish', null], ['neutral', null], ['bullish', 'coin']],
};
export const PRESS_RESULTS = 0;

/** Coins the desks write about: the named ones, without stablecoins, bridged copies and the symbol look-alikes. */
// prettier-ignore
const NEWSWORTHY_COINS = [
  'bitcoin', 'ethereum', 'ripple', 'binancecoin', 'solana', 'tron', 'dogecoin', 'cardano', 'hyperliquid', 'chainlink', 'sui', 'avalanche-2',
  'the-open-network', 'litecoin', 'aave', 'ethena', 'pepe', 'arbitrum', 'optimism', 'dogwifcoin', 'polkadot', 'bitcoin-cash', 'stellar',
  'uniswap', 'near', 'aptos',
];
/** ETF stories are about the coins that have (or are filed for) spot ETFs. */
const ETF_COINS = ['bitcoin', 'ethereum', 'solana', 'ripple', 'litecoin', 'dogecoin'];
/** The companies crypto projects announce partnerships with. */
export const PARTNER_SYMBOLS = ['V', '005930.KS', '6758.T', 'JPM', '0005.HK'];

/** A uniform draw in [0, 1) of a story, one per salt. */
export function storyUnit(story: Pick<Story, 'hash'>, salt: number): number {
  return unit(hash2(story.hash, salt));
}

/**
 * The world's news wire: one story per slot, drawn from the seed and the slot alone, so the same instant always
 * reads the same. Price stories report the world's own moves, read from the market book at the slot's start.
 */
export class StoryStream {
  private readonly seed: number;
  private readonly coins: CryptoCoin[];
  private readonly etfCoins: CryptoCoin[];
  private readonly companies: Listing[];
  private readonly partners: Listing[];
  private readonly cache = new Map<number, Story>();

  constructor(
    worldSeed: number,
    private readonly book: MarketBook,
  ) {
    this.seed = stringHash(`${worldSeed}:news`);
    const coin = (id: string) => book.coin(id) ?? fail(`news: no coin ${id}`);
    const listing = (symbol: string) => book.listing(symbol) ?? fail(`news: no listing ${symbol}`);
    this.coins = NEWSWORTHY_COINS.map(coin);
    this.etfCoins = ETF_COINS.map(coin);
    this.companies = LISTINGS.filter((def) => def.type === 'EQUITY').map((def) => listing(def.symbol));
    this.partners = PARTNER_SYMBOLS.map(listing);
  }

  /** The slot that is current at t. */
  slotAt(t: number): number {
    return Math.floor(t / STORY_SLOT_MS);
  }

  story(slot: number): Story {
    let story = this.cache.get(slot);
    if (!story) {
      story = this.draw(slot);
      if (this.cache.size >= STORIES_CACHED) this.cache.delete(this.cache.keys().next().value as number);
      this.cache.set(slot, story);
    }
    return story;
  }

  /** The change of a coin's price over `hours` up to `at`, as the world's price model has it. */
  coinMove(coin: CryptoCoin, at: number, hours: number): PriceMove {
    return moveOf((t) => this.book.coinPx(coin, t), at, hours);
  }

  listingMove(listing: Listing, at: number, hours: number): PriceMove {
    return moveOf((t) => this.book.listingPx(listing, t), at, hours);
  }

  private draw(slot: number): Story {
    const at = slot * STORY_SLOT_MS;
    const hash = hash2(this.seed, slot);
    const base = { slot, at, hash };
    const kind = pickKind(storyUnit(base, 1));
    const pick = <T>(items: readonly T[], salt: number, bias = 1): T => items[Math.floor(storyUnit(base, salt) ** bias * items.length)];
    let story: Story;
    if (kind === 'move') {
      const hours = pick(MOVE_WINDOWS_HOURS, 2);
      const movers = this.coins.map((coin) => ({ coin, move: this.coinMove(coin, at, hours) }));
      movers.sort((a, b) => Math.abs(b.move.change) - Math.abs(a.move.change));
      const { coin, move } = pick(movers.slice(0, MOVER_PICK), 3);
      story = { ...base, kind, tone: toneOf(move.change), variant: hash2(hash, 4), coin, listing: null, move, outlets: [], syndicated: false };
    } else {
      const variants = VARIANT_TONES[kind];
      const variant = hash2(hash, 4) % variants.length;
      const [tone, names] = variants[variant];
      // Big coins make most of the news: the square biases the draw to the head of the list.
      const coin = names === 'coin' ? pick(kind === 'etf' ? this.etfCoins : this.coins, 5, 2) : null;
      const listing = kind === 'press' ? pick(this.companies, 6) : kind === 'partnership' ? pick(this.partners, 6) : null;
      const move = kind === 'press' && listing ? this.listingMove(listing, at, 24) : null;
      const pressTone = variant === PRESS_RESULTS && move ? toneOf(move.change) : tone;
      story = { ...base, kind, tone: kind === 'press' ? pressTone : tone, variant, coin, listing, move, outlets: [], syndicated: false };
    }
    story.outlets = this.outletsOf(story);
    story.syndicated = story.outlets.includes('sim-coindesk') && story.outlets.includes('sim-theblock') && storyUnit(story, 7) < 1 / 3;
    return story;
  }

  /** One to three English desks run a market story (some share it, as real outlets do); the Chinese desk picks up some. */
  private outletsOf(story: Story): OutletName[] {
    if (story.kind === 'press') return ['sim-wire'];
    const reach = storyUnit(story, 8);
    const count = reach < 0.5 ? 1 : reach < 0.85 ? 2 : 3;
    const start = hash2(story.hash, 9) % ENGLISH_DESKS.length;
    const desks = Array.from({ length: count }, (_, k) => ENGLISH_DESKS[(start + k) % ENGLISH_DESKS.length]);
    if (story.kind !== 'guard' && storyUnit(story, 10) < 0.45) desks.push('sim-zh');
    return desks;
  }
}

function fail(message: string): never {
  throw new Error(message);
}

function pickKind(u: number): StoryKind {
  let acc = 0;
  for (const [kind, weight] of KIND_WEIGHTS) {
    acc += weight;
    if (u < acc) return kind;
  }
  return KIND_WEIGHTS[KIND_WEIGHTS.length - 1][0];
}

export function toneOf(change: number): Tone {
  if (Math.abs(change) < FLAT_MOVE) return 'neutral';
  return change > 0 ? 'bullish' : 'bearish';
}

function moveOf(pxAt: (t: number) => number, at: number, hours: number): PriceMove {
  const fromAt = at - hours * HOUR_MS;
  const fromPx = pxAt(fromAt);
  const toPx = pxAt(at);
  return { fromAt, toAt: at, fromPx, toPx, change: toPx / fromPx - 1, hours };
}
