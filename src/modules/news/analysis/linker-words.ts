import type { LinkableAsset } from './asset-linker';
import { CORPORATE_SUFFIXES, CRYPTO_SUFFIXES, DESCRIPTIVE_SUFFIXES, NameLevel } from './linker-vocabulary';

/** A word of a text or a name: as written, its lookup key, and where it is. */
export interface Token {
  raw: string;
  key: string;
  start: number;
  /** End of the word as written, possessive included, so gaps between words are only what separates them. */
  end: number;
}

/** Letters and digits, joined by inner dots, ampersands and apostrophes ("Amazon.com", "AT&T", "don't"); hyphens split. */
const WORD = /[\p{L}\p{N}]+(?:[.&'’][\p{L}\p{N}]+)*/gu;
const POSSESSIVE = /['’]s$/i;
export const JOINED = /[.&]/;

/** The words of a text; a word with a dot or ampersand is kept whole only when `keepJoined` knows it ("U.S." splits). */
export function tokenize(text: string, keepJoined: (key: string) => boolean): Token[] {
  const tokens: Token[] = [];
  for (const match of text.matchAll(WORD)) {
    const start = match.index ?? 0;
    const end = start + match[0].length;
    const raw = match[0].replace(POSSESSIVE, '');
    const key = raw.toLowerCase().replace(/’/g, "'");
    if (!JOINED.test(raw) || keepJoined(key)) {
      tokens.push({ raw, key, start, end });
      continue;
    }
    let offset = start;
    for (const part of raw.split(/([.&])/)) {
      if (part && !JOINED.test(part)) tokens.push({ raw: part, key: part.toLowerCase(), start: offset, end: offset + part.length });
      offset += part.length;
    }
  }
  return tokens;
}

/** The names an asset is written by, with how each must be written. */
export function namesOf(asset: LinkableAsset): Array<[string, NameLevel]> {
  const bare = asset.name.replace(/\s*\([^)]*\)/g, '').trim();
  const words = bare.split(/[\s,]+/).filter(Boolean);
  switch (asset.type) {
    case 'CRYPTO': {
      const short = stripTrailing(words, CRYPTO_SUFFIXES);
      return short.length < words.length
        ? [
            [bare, 'free'],
            [short.join(' '), 'guarded'],
          ]
        : [[bare, 'free']];
    }
    case 'STOCK':
    case 'ETF': {
      const inner = /\(([^)\s]+)\)/.exec(asset.name)?.[1];
      const stripped = stripTrailing(words[0]?.toLowerCase() === 'the' ? words.slice(1) : words, CORPORATE_SUFFIXES);
      const described = stripTrailing(stripped, DESCRIPTIVE_SUFFIXES, 1);
      const names: Array<[string, NameLevel]> = [
        [bare, 'proper'],
        [stripped.join(' '), 'proper'],
      ];
      // "S&P Global" is not "S&P" (the index): a joined abbreviation alone is too little of a name.
      const abbreviation = described.length === 1 && JOINED.test(described[0]);
      if (described.some((word) => word.length >= 3) && !abbreviation) names.push([described.join(' '), 'proper']);
      if (inner && !CORPORATE_SUFFIXES.has(inner.toLowerCase())) names.push([inner, 'proper']);
      return names;
    }
    case 'FOREX':
      return /^[A-Z]{6}$/.test(asset.symbol) ? [[`${asset.symbol.slice(0, 3)}/${asset.symbol.slice(3)}`, 'proper']] : [];
    default:
      return [
        [bare, 'free'],
        [stripTrailing(words, CORPORATE_SUFFIXES).join(' '), 'free'],
      ];
  }
}

/** Drops trailing words of `suffixes` ("Inc.", "Class A"), at most `limit` of them, always keeping the first word. */
function stripTrailing(words: readonly string[], suffixes: ReadonlySet<string>, limit = Infinity): string[] {
  const kept = [...words];
  let dropped = 0;
  while (kept.length > 1 && dropped < limit && suffixes.has(kept[kept.length - 1].toLowerCase().replace(/[.,]+$/, ''))) {
    kept.pop();
    dropped += 1;
  }
  return kept;
}
