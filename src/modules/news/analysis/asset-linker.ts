import type { LinkedAssetRef } from '../../../providers/analysis-provider';
import {
  ALIASES,
  CRYPTO_CONTEXT,
  EXCHANGE_PREFIXES,
  GUARDED_NAMES,
  NEVER_NAMES,
  NameLevel,
  PROPER_NAMES,
  STOCK_CONTEXT,
  STOP_TICKERS,
} from './linker-vocabulary';
import { JOINED, namesOf, Token, tokenize } from './linker-words';

/** An asset of the catalogue as the linker needs it; `marketCapUsd` only ranks assets that share a ticker or a name. */
export interface LinkableAsset {
  id: number;
  symbol: string;
  name: string;
  /** CRYPTO, STOCK, ETF, FOREX or COMMODITY. */
  type: string;
  marketCapUsd: number | null;
}

export interface LinkInput {
  title: string;
  summary: string;
  categories: readonly string[];
}

/** How the asset was recognised: `$BTC`/`(BTC)`/`(NASDAQ: COIN)`, a bare upper-case ticker, its catalogue name, or an alias. */
export type LinkReason = 'cashtag' | 'ticker' | 'name' | 'alias';
export type LinkSource = 'title' | 'summary' | 'categories';

export interface LinkedAsset extends LinkedAssetRef {
  id: number;
  matchedBy: LinkReason;
  /** The text of the first match, as written. */
  matchedText: string;
  /** Where the first match was; title matches rank first. */
  foundIn: LinkSource;
  mentions: number;
}

interface Segment {
  source: LinkSource;
  text: string;
  tokens: Token[];
  /** Every long word capitalised: a capital says nothing about a proper noun there. */
  titleCase: boolean;
  /** Mostly upper case: every word looks like a ticker there. */
  shouting: boolean;
  /** A category label, matched as a whole. */
  label: boolean;
  order: number;
}

interface NameEntry {
  asset: LinkableAsset;
  level: NameLevel;
  via: 'name' | 'alias';
}

interface Phrase {
  keys: string[];
  entries: NameEntry[];
}

interface Hit {
  asset: LinkableAsset;
  matchedBy: LinkReason;
  matchedText: string;
  segment: Segment;
  position: number;
  mentions: number;
}

const SOURCE_RANK: Readonly<Record<LinkSource, number>> = { title: 0, summary: 1, categories: 2 };
/** Share of long words capitalised above which a text is title case, and of words in capitals above which it is shouting. */
const TITLE_CASE_RATIO = 0.7;
const SHOUTING_RATIO = 0.6;

const isUpper = (raw: string): boolean => /\p{L}/u.test(raw) && raw === raw.toUpperCase();
const isLower = (raw: string): boolean => raw === raw.toLowerCase();
const isCapitalised = (raw: string): boolean => /^\p{Lu}/u.test(raw);
const byMarketCap = (a: LinkableAsset, b: LinkableAsset): number => (b.marketCapUsd ?? -1) - (a.marketCapUsd ?? -1) || a.id - b.id;

/**
 * Finds the catalogue assets a news item is about, from cashtags, upper-case tickers, names and aliases. Built once
 * per catalogue (maps keyed by ticker and by a name's first word); `link()` walks the words of the text once.
 *
 * Rules, in the order tried at each word:
 * - `$BTC` (any case), `(BTC)` and `(NASDAQ: COIN)` always count, stop-listed tickers included.
 * - The longest catalogue name or alias starting there, as whole words: crypto names in any case, company names
 *   capitalised, common-word names (GUARDED_NAMES) only as a proper noun mid-sentence in running text (not in a
 *   title-case headline, not after a full stop, not next to another capitalised word as in "Ark Invest").
 * - A bare ticker written in upper case (not in a shouting text), not in STOP_TICKERS; futures roots never bare.
 * Several assets for one ticker or name: the context words of the item (crypto vs stock) pick between a coin and a
 * stock, then the largest market cap wins.
 */
export class AssetLinker {
  /** Names and aliases by their first word. */
  private readonly phrases = new Map<string, Phrase[]>();
  private readonly phraseByText = new Map<string, Phrase>();
  private readonly cashtags = new Map<string, LinkableAsset[]>();
  private readonly bareTickers = new Map<string, LinkableAsset[]>();
  /** Words with a dot or ampersand that some name has ("Amazon.com", "S&P"); other such words ("U.S.") are split. */
  private readonly joinedWords = new Set<string>();

  constructor(assets: readonly LinkableAsset[]) {
    const sorted = [...assets].sort(byMarketCap);
    for (const asset of sorted) {
      const symbol = asset.symbol.toUpperCase();
      push(this.cashtags, symbol, asset);
      if (asset.type !== 'COMMODITY' && /^[A-Z0-9]{2,}$/.test(symbol) && /[A-Z]/.test(symbol) && !STOP_TICKERS.has(symbol))
        push(this.bareTickers, symbol, asset);
      for (const [name, level] of namesOf(asset)) this.addPhrase(name, { asset, level, via: 'name' });
    }
    for (const { alias, symbol, type, level } of ALIASES) {
      const target = this.cashtags.get(symbol)?.find((asset) => type === undefined || asset.type === type);
      if (target) this.addPhrase(alias, { asset: target, level, via: 'alias' });
    }
    // Longest first, so "Bitcoin Cash" is tried before "Bitcoin".
    for (const list of this.phrases.values()) list.sort((a, b) => b.keys.length - a.keys.length);
  }

  link({ title, summary, categories }: LinkInput): LinkedAsset[] {
    const segments = [
      this.segment('title', title, 0),
      this.segment('summary', summary, 1),
      ...categories.map((label, k) => this.segment('categories', label, 2 + k)),
    ];
    const preference = contextOf(segments);
    const hits = new Map<number, Hit>();
    const record = (segment: Segment, start: number, asset: LinkableAsset, matchedBy: LinkReason, matchedText: string): void => {
      const hit = hits.get(asset.id);
      if (hit) hit.mentions += 1;
      else hits.set(asset.id, { asset, matchedBy, matchedText, segment, position: segment.order * 100_000 + start, mentions: 1 });
    };
    for (const segment of segments) {
      const { tokens } = segment;
      for (let i = 0; i < tokens.length;) {
        const token = tokens[i];
        const tag = this.cashtagAt(segment, i);
        if (tag) {
          record(segment, token.start, resolve(tag.assets, tag.prefer ?? preference), 'cashtag', tag.text);
          i += 1;
          continue;
        }
        // "(Nasdaq: AAPL)" cites the venue of the ticker that follows; it is not news about Nasdaq, Inc.
        if (this.isVenueCitation(segment, i)) {
          i += 1;
          continue;
        }
        const phrase = this.phraseAt(segment, i);
        if (phrase) {
          const text = segment.text.slice(token.start, tokens[i + phrase.length - 1].end);
          const asset = resolve(phrase.assets, preference);
          // A name that is also the ticker ("XRP", "BTC") written in capitals reads as the ticker.
          const via = phrase.length === 1 && isUpper(token.raw) && token.raw === asset.symbol.toUpperCase() ? 'ticker' : phrase.via;
          record(segment, token.start, asset, via, text);
          i += phrase.length;
          continue;
        }
        const bare = isUpper(token.raw) && !segment.shouting ? this.bareTickers.get(token.raw) : undefined;
        if (bare) record(segment, token.start, resolve(bare, preference), 'ticker', token.raw);
        i += 1;
      }
    }
    return [...hits.values()]
      .sort((a, b) => SOURCE_RANK[a.segment.source] - SOURCE_RANK[b.segment.source] || b.mentions - a.mentions || a.position - b.position)
      .map(({ asset, matchedBy, matchedText, segment, mentions }) => ({
        id: asset.id,
        symbol: asset.symbol,
        name: asset.name,
        type: asset.type,
        matchedBy,
        matchedText,
        foundIn: segment.source,
        mentions,
      }));
  }

  private addPhrase(text: string, entry: NameEntry): void {
    const tokens = tokenize(text, () => true);
    for (const token of tokens) if (JOINED.test(token.key)) this.joinedWords.add(token.key);
    const keys = tokens.map((token) => token.key);
    if (keys.length === 0 || (keys.length === 1 && (keys[0].length < 3 || NEVER_NAMES.has(keys[0]) || !/\p{L}/u.test(keys[0])))) return;
    const joined = keys.join(' ');
    const common = GUARDED_NAMES.has(joined) || (keys.length === 1 && STOP_TICKERS.has(joined.toUpperCase()));
    const level = common ? 'guarded' : PROPER_NAMES.has(joined) && entry.level === 'free' ? 'proper' : entry.level;
    let phrase = this.phraseByText.get(joined);
    if (!phrase) {
      phrase = { keys, entries: [] };
      this.phraseByText.set(joined, phrase);
      push(this.phrases, keys[0], phrase);
    }
    if (!phrase.entries.some((known) => known.asset.id === entry.asset.id)) phrase.entries.push({ ...entry, level });
  }

  private segment(source: LinkSource, text: string, order: number): Segment {
    const tokens = tokenize(text, (key) => this.joinedWords.has(key));
    const long = tokens.slice(1).filter((token) => token.raw.length >= 4 && /^\p{L}/u.test(token.raw));
    const worded = tokens.filter((token) => /\p{L}.*\p{L}/u.test(token.raw));
    return {
      source,
      text,
      tokens,
      titleCase: long.length === 0 || long.filter((token) => isCapitalised(token.raw)).length >= TITLE_CASE_RATIO * long.length,
      shouting: worded.length >= 3 && worded.filter((token) => isUpper(token.raw)).length >= SHOUTING_RATIO * worded.length,
      label: source === 'categories',
      order,
    };
  }

  private cashtagAt(segment: Segment, i: number): { assets: LinkableAsset[]; prefer?: Preference; text: string } | undefined {
    const { text, tokens } = segment;
    const token = tokens[i];
    const before = text[token.start - 1];
    const symbol = token.raw.toUpperCase();
    if (before === '$' && /^\p{L}/u.test(token.raw)) return found(this.cashtags.get(symbol), `$${token.raw}`);
    // Chinese and Japanese text brackets a ticker in full-width parentheses: 比特币（BTC）.
    if (OPENING.has(before) && CLOSING.has(text[token.end]) && isUpper(token.raw)) return found(this.cashtags.get(symbol), `(${token.raw})`);
    const previous = tokens[i - 1];
    if (previous && EXCHANGE_PREFIXES.has(previous.key) && /^\s*:\s*$/.test(text.slice(previous.end, token.start))) {
      // A listing venue names a stock, whatever coin shares its ticker.
      return found(this.cashtags.get(symbol), `${previous.raw}: ${token.raw}`, 'other');
    }
    return undefined;
  }

  private isVenueCitation({ text, tokens }: Segment, i: number): boolean {
    const token = tokens[i];
    const next = tokens[i + 1];
    return EXCHANGE_PREFIXES.has(token.key) && next !== undefined && /^\s*:\s*$/.test(text.slice(token.end, next.start));
  }

  private phraseAt(segment: Segment, i: number): { assets: LinkableAsset[]; length: number; via: LinkReason } | undefined {
    const { tokens, text } = segment;
    for (const phrase of this.phrases.get(tokens[i].key) ?? []) {
      const length = phrase.keys.length;
      if (i + length > tokens.length) continue;
      let same = true;
      for (let k = 1; k < length && same; k++) {
        // Words of one name are separated by spaces, hyphens, slashes or an ampersand only ("Coca-Cola", "Johnson & Johnson").
        same = tokens[i + k].key === phrase.keys[k] && /^[\s\-/&]*$/.test(text.slice(tokens[i + k - 1].end, tokens[i + k].start));
      }
      if (!same) continue;
      const allowed = phrase.entries.filter((entry) => allows(segment, entry.level, i, length));
      if (allowed.length === 0) continue;
      const assets = allowed.map((entry) => entry.asset).sort(byMarketCap);
      return { assets, length, via: allowed.find((entry) => entry.asset === assets[0])?.via ?? 'name' };
    }
    return undefined;
  }
}

type Preference = 'crypto' | 'other' | undefined;

const OPENING = new Set(['(', '（']);
const CLOSING = new Set([')', '）']);

function found(assets: LinkableAsset[] | undefined, text: string, prefer?: Preference) {
  return assets ? { assets, text, prefer } : undefined;
}

function push<T>(map: Map<string, T[]>, key: string, item: T): void {
  const list = map.get(key);
  if (list) list.push(item);
  else map.set(key, [item]);
}

/** Whether a name at words [i, i + length) is written as its level requires. */
function allows(segment: Segment, level: NameLevel, i: number, length: number): boolean {
  const { tokens, text } = segment;
  if (level === 'free') return true;
  // Category labels are editors' tags: a name counts as written, a common word only as the whole label.
  if (segment.label) return level === 'proper' || length === tokens.length;
  if (level === 'proper') return !isLower(tokens[i].raw);
  if (segment.titleCase || segment.shouting) return false;
  for (let k = i; k < i + length; k++) if (!isCapitalised(tokens[k].raw) || isUpper(tokens[k].raw)) return false;
  const gapBefore = i === 0 ? '.' : text.slice(tokens[i - 1].end, tokens[i].start);
  if (length === 1 && /[.!?:;|—–("“‘[]|^$/.test(gapBefore)) return false;
  return !joinsName(segment, i - 1, i) && !joinsName(segment, i + length, i + length - 1);
}

/** Whether the word at `at` is a capitalised word (or a number) written right next to the name: "Ark Invest", "47 Ronin". */
function joinsName({ tokens, text }: Segment, at: number, edge: number): boolean {
  const word = tokens[at];
  if (!word) return false;
  const gap = at < edge ? text.slice(word.end, tokens[edge].start) : text.slice(tokens[edge].end, word.start);
  if (!/^\s+$/.test(gap)) return false;
  // A short acronym beside a name is a title or an office ("Circle CEO"), not part of the name.
  return /^\p{N}/u.test(word.raw) || (isCapitalised(word.raw) && !(isUpper(word.raw) && word.raw.length <= 5));
}

function resolve(candidates: readonly LinkableAsset[], prefer: Preference): LinkableAsset {
  if (prefer !== undefined) {
    const preferred = candidates.find((asset) => (asset.type === 'CRYPTO') === (prefer === 'crypto'));
    if (preferred && candidates.some((asset) => asset.type !== preferred.type)) return preferred;
  }
  return candidates[0];
}

/** Crypto or listed-company wording in the whole item, for a ticker both a coin and a stock use. */
function contextOf(segments: readonly Segment[]): Preference {
  let score = 0;
  for (const { tokens } of segments) {
    for (const { key } of tokens) score += (CRYPTO_CONTEXT.has(key) ? 1 : 0) - (STOCK_CONTEXT.has(key) ? 1 : 0);
  }
  return score > 0 ? 'crypto' : score < 0 ? 'other' : undefined;
}
