import { ENGLISH_DESKS, outletFeed } from '../../src/simulator/news/news-feeds';
import { outletItem } from '../../src/simulator/news/outlet-items';
import { Story, StoryStream } from '../../src/simulator/news/story-stream';
import { buildCatalog } from '../../src/simulator/world/catalog';
import { CryptoCoin } from '../../src/simulator/world/crypto-universe';
import { Listing, MarketBook } from '../../src/simulator/world/market-book';
import { PriceModel } from '../../src/simulator/world/price-model';
import { hash2, stringHash, unit } from '../../src/simulator/world/prng';
import { DEFAULT_PRICE_STEP_MS, DEFAULT_SEED } from '../../src/simulator/world/sim-world';
import { BuiltinAnalyser } from '../../src/modules/news/analysis/builtin-analyser';
import { detectConcepts } from '../../src/modules/news/analysis/concepts';
import { canonicalUrl } from '../../src/providers/feeds/canonical-url';
import { SUMMARY_MAX_CHARS } from '../../src/providers/feeds/feed-items.mapping';
import { plainText } from '../../src/providers/feeds/plain-text';
import { copyArray, copyLine } from './news-copy';

/**
 * The bench's news: the simulator's own story wire (StoryStream), worded by each outlet that runs a story
 * (outletItem: the same titles, summaries, guids and links the simulated RSS feeds serve), over the years
 * of slots that give the wanted item count, oldest first so ids grow with time as ingestion gives them.
 * Links are drawn from each story: its coin or company, plus the market references a desk names besides
 * (Bitcoin above all), and now and then a long-tail coin, so some assets are rare. Concepts and the English
 * analysis are the app's own (detectConcepts, BuiltinAnalyser) on the stored text, as ingestion writes them.
 */

/** A catalogue row the corpus links to, keyed by its vendor id (CoinGecko id or Yahoo symbol). */
export interface CorpusAsset {
  key: string;
  type: 'CRYPTO' | 'STOCK';
  symbol: string;
  name: string;
  market: string | null;
  stockCode: string | null;
  coingeckoId: string | null;
  yahooSymbol: string | null;
  marketCapRank: number | null;
  /** Today's market cap in USD: the size term of an item's hotness. */
  marketCapUsd: number;
}

/** One load's worth of COPY text for the three tables. */
export interface CopyBatch {
  items: string;
  links: string;
  analyses: string;
  count: number;
  linkCount: number;
  analysisCount: number;
}

/** Market references a desk names besides a story's own coin, and how often each is the one picked. */
const REFERENCE_COINS: Array<[string, number]> = [
  ['bitcoin', 0.55],
  ['ethereum', 0.3],
  ['solana', 0.08],
  ['ripple', 0.04],
  ['binancecoin', 0.03],
];
const MARKETS: Record<string, string> = { us_market: 'US', hk_market: 'HK', jp_market: 'JP', kr_market: 'KR' };
/** Stories that carry a long-tail coin too: about 10,000 items over some 260 coins, from a few to a few dozen each. */
const TAIL_COIN_SHARE = 0.01;
/** The newest items wait for the analysis job (it lags ingestion by minutes); a few others gave up. */
const PENDING_NEWEST = 20;
const FAILED_SHARE = 0.02;
/** Items are published up to 12 minutes after their story breaks (syndicated copies): stop that far before now. */
const SETTLED_SLOTS = 6;
const MAX_LINKS = 3;

export class NewsCorpus {
  readonly assets: CorpusAsset[];
  private readonly byKey: Map<string, CorpusAsset>;
  private readonly stream: StoryStream;
  private readonly book: MarketBook;
  private readonly tailCoins: CryptoCoin[];
  private readonly seed: number;

  constructor(seed = DEFAULT_SEED) {
    this.seed = seed;
    const catalog = buildCatalog(seed);
    this.book = new MarketBook(seed, catalog, new PriceModel(catalog, seed, DEFAULT_PRICE_STEP_MS));
    this.stream = new StoryStream(seed, this.book);
    const now = Date.now();
    const coins = this.book.coins.map((coin, rank) => this.coinAsset(coin, rank + 1, now));
    const stocks = this.book.listings.filter((l) => l.type === 'EQUITY' && MARKETS[l.exchangeDef.market]).map((l) => this.stockAsset(l, now));
    this.assets = [...coins, ...stocks];
    this.byKey = new Map(this.assets.map((asset) => [asset.key, asset]));
    const referenced = new Set(REFERENCE_COINS.map(([id]) => id));
    // The long tail: generated coins, the ones no desk writes about unprompted.
    this.tailCoins = this.book.coins.slice(40).filter((coin) => !referenced.has(coin.id));
  }

  /**
   * The slots of a corpus of `target` items ending a few minutes ago, read newest first as ingestion would
   * keep them: an item whose canonical URL or source + guid an item already kept has (The Block's syndicated
   * copy of a CoinDesk article carries its link) is dropped, as the unique indexes make ingestion drop it. Keys are hashed to
   * 53 bits: a false match only drops one more item, a true duplicate is always caught.
   */
  private span(target: number): { firstSlot: number; dropped: Set<number> } {
    const lastSlot = this.stream.slotAt(Date.now()) - SETTLED_SLOTS;
    const urls = new Set<number>();
    const guids = new Set<number>();
    const dropped = new Set<number>();
    let kept = 0;
    let slot = lastSlot;
    for (; kept < target; slot--) {
      const story = this.stream.story(slot);
      for (const outlet of story.outlets) {
        const feed = outletFeed(outlet);
        const item = outletItem(story, feed);
        const [url, guid] = [keyHash(linkOf(item.link)), keyHash(`${outlet}\t${item.guid}`)];
        if (kept >= target || urls.has(url) || guids.has(guid)) {
          dropped.add(itemKey(slot, feed.index));
          continue;
        }
        urls.add(url);
        guids.add(guid);
        kept += 1;
      }
    }
    return { firstSlot: slot + 1, dropped };
  }

  /**
   * The corpus as COPY text in batches of about `batchItems` items. `assetIds` maps CorpusAsset.key to the
   * catalogue id. Item ids are 1..target in publish-slot order; the identity column takes them as given.
   */
  async *batches({ target, batchItems, assetIds }: { target: number; batchItems: number; assetIds: Map<string, number> }): AsyncGenerator<CopyBatch> {
    const { firstSlot, dropped } = this.span(target);
    const analyser = new BuiltinAnalyser();
    const ingestedAt = new Date().toISOString();
    let id = 0;
    let batch = emptyBatch();
    for (let slot = firstSlot; id < target; slot++) {
      const story = this.stream.story(slot);
      const links = this.linksOf(story);
      const refs = links.map((key) => this.assetOf(key));
      const linkIds = links.map((key) => assetIds.get(key) ?? fail(`no catalogue id for ${key}`));
      const linkTypes = [...new Set(refs.map((asset) => asset.type))].sort();
      const size = Math.max(0, ...refs.map((asset) => sizeTerm(asset.marketCapUsd)));
      const desks = story.outlets.filter((name) => ENGLISH_DESKS.includes(name));
      let storyId = 0;
      for (const outlet of story.outlets) {
        const feed = outletFeed(outlet);
        if (dropped.has(itemKey(slot, feed.index))) continue;
        id += 1;
        const english = ENGLISH_DESKS.includes(outlet);
        if (english && storyId === 0) storyId = id;
        const coverage = english ? desks.length : 1;
        const item = outletItem(story, feed);
        const publishedAt = new Date(item.publishedAt).toISOString();
        const draw = unit(hash2(story.hash ^ this.seed, 0xa11 + id));
        const state = target - id < PENDING_NEWEST ? 'pending' : draw < FAILED_SHARE ? 'failed' : 'ready';
        const [title, summary] = [plainText(item.title, SUMMARY_MAX_CHARS), plainText(item.body, SUMMARY_MAX_CHARS)];
        const categories = item.categories.filter(Boolean);
        const concepts = detectConcepts({ title, summary, categories });
        const analysis = state === 'ready' ? await analyser.analyse({ title, summary, assets: refs, concepts }) : null;
        batch.items += copyLine([
          id,
          outlet,
          item.guid,
          linkOf(item.link),
          title,
          summary,
          item.image,
          item.author,
          publishedAt,
          copyArray(categories),
          copyArray(concepts),
          copyArray(linkTypes),
          'normal',
          analysis ? analysis.sentiment : null,
          english ? storyId : id,
          coverage,
          coverage + size,
          state,
          copyArray(analysis ? ['en'] : []),
          state === 'failed' ? 3 : 0,
          publishedAt,
          ingestedAt,
        ]);
        for (const assetId of linkIds) batch.links += copyLine([id, assetId, publishedAt]);
        if (analysis) {
          const { coreSummary, direction, affectedAssets, impactLogic, timeHorizon, risksAndWatchlist } = analysis;
          batch.analyses += copyLine([
            id,
            'en',
            analysis.title,
            coreSummary,
            direction,
            affectedAssets,
            impactLogic,
            timeHorizon,
            risksAndWatchlist,
            analyser.name,
            analyser.model,
            ingestedAt,
          ]);
          batch.analysisCount += 1;
        }
        batch.count += 1;
        batch.linkCount += linkIds.length;
        if (batch.count >= batchItems) {
          yield batch;
          batch = emptyBatch();
        }
      }
    }
    if (batch.count > 0) yield batch;
  }

  private assetOf(key: string): CorpusAsset {
    return this.byKey.get(key) ?? fail(`no corpus asset ${key}`);
  }

  /** The story's own coin or company first, then references, at most MAX_LINKS; none for the decoys. */
  private linksOf(story: Story): string[] {
    if (story.kind === 'guard') return [];
    const u = (salt: number) => unit(hash2(story.hash, 0x11a0 + salt));
    const links: string[] = [];
    if (story.coin) links.push(story.coin.id);
    if (story.listing && story.listing.type === 'EQUITY') links.push(story.listing.symbol);
    // A story without an asset of its own (macro, policy) names the market by Bitcoin, often Ether too.
    const references = links.length === 0 ? (u(1) < 0.7 ? 1 + (u(2) < 0.4 ? 1 : 0) : 0) : u(1) < 0.45 ? 1 + (u(2) < 0.3 ? 1 : 0) : 0;
    const crypto = story.coin !== null || story.kind !== 'press';
    for (let k = 0; crypto && k < references; k++) {
      const pick = links.length === 0 && k === 0 ? 'bitcoin' : weighted(REFERENCE_COINS, u(3 + k));
      if (!links.includes(pick)) links.push(pick);
    }
    if (crypto && u(9) < TAIL_COIN_SHARE) links.push(this.tailCoins[Math.floor(u(10) * this.tailCoins.length)].id);
    return links.slice(0, MAX_LINKS);
  }

  private coinAsset(coin: CryptoCoin, rank: number, now: number): CorpusAsset {
    const symbol = coin.symbol.toUpperCase();
    return {
      key: coin.id,
      type: 'CRYPTO',
      symbol,
      name: coin.name,
      market: null,
      stockCode: null,
      coingeckoId: coin.id,
      yahooSymbol: null,
      marketCapRank: rank,
      marketCapUsd: this.book.coinMarketCap(coin, now),
    };
  }

  private stockAsset(listing: Listing, now: number): CorpusAsset {
    const market = MARKETS[listing.exchangeDef.market];
    const ticker = listing.symbol.replace(/\.[A-Z]+$/, '');
    const cap = (listing.shares ?? 0) * this.book.listingPx(listing, now) * this.book.usdPerUnit(listing.currency, now);
    return {
      key: listing.symbol,
      type: 'STOCK',
      symbol: ticker,
      name: listing.longName,
      market,
      stockCode: `${ticker}-${market}`,
      coingeckoId: null,
      yahooSymbol: listing.symbol,
      marketCapRank: null,
      marketCapUsd: cap,
    };
  }
}

/** The contract's size term of hotness: 0 at 1 million USD of market cap, 1 at 1 trillion. */
function sizeTerm(capUsd: number): number {
  return capUsd <= 0 ? 0 : Math.min(1, Math.max(0, (Math.log10(capUsd) - 6) / 6));
}

function weighted(choices: Array<[string, number]>, u: number): string {
  let acc = 0;
  for (const [value, weight] of choices) {
    acc += weight;
    if (u < acc) return value;
  }
  return choices[choices.length - 1][0];
}

/** The link as ingestion stores it (canonicalUrl: tracking parameters dropped), so copies that differ only in those are one. */
function linkOf(link: string): string {
  return canonicalUrl(link) ?? fail(`not an http(s) link: ${link}`);
}

/** An item's place in the wire: its slot and its outlet (fewer than 8). */
function itemKey(slot: number, outletIndex: number): number {
  return slot * 8 + outletIndex;
}

/** 53 bits of two 32-bit string hashes: a Set of numbers holds a million keys in a fraction of the strings' memory. */
function keyHash(text: string): number {
  return stringHash(text) * 2 ** 21 + (stringHash(`#${text}`) & 0x1fffff);
}

function emptyBatch(): CopyBatch {
  return { items: '', links: '', analyses: '', count: 0, linkCount: 0, analysisCount: 0 };
}

function fail(message: string): never {
  throw new Error(message);
}
