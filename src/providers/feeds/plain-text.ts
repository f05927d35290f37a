/** Elements whose text is not prose: dropped with their content. */
const NON_PROSE_ELEMENTS = /<(script|style|noscript|iframe|svg)\b[^>]*>[\s\S]*?<\/\1\s*>/gi;
const COMMENT = /<!--[\s\S]*?-->/g;
/**
 * A tag starts with a letter (or / and a letter) right after `<`, so prose such as "a < b" is not taken for one;
 * quoted attribute values may hold `>` (an image's alt text after the feed's entities are decoded).
 */
const TAG = /<\/?([a-zA-Z][a-zA-Z0-9-]*)(?:\s(?:[^<>"']|"[^"]*"|'[^']*')*)?\/?>/g;
/** Inside a sentence: removed without a space, so "<b>Bit</b>coin" stays one word. */
const INLINE_ELEMENTS = new Set([
  'a',
  'abbr',
  'b',
  'bdi',
  'bdo',
  'cite',
  'code',
  'em',
  'font',
  'i',
  'kbd',
  'mark',
  'q',
  's',
  'small',
  'span',
  'strong',
  'sub',
  'sup',
  'u',
]);
/** How many layers of escaping are undone; feeds escape twice at most (Decrypt's `&amp;#039;`). */
const MAX_DECODE_PASSES = 3;

/** The named entities feeds use in prose; numeric references cover everything else. */
const NAMED_ENTITIES: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  ndash: '–',
  mdash: '—',
  lsquo: '‘',
  rsquo: '’',
  sbquo: '‚',
  ldquo: '“',
  rdquo: '”',
  bdquo: '„',
  laquo: '«',
  raquo: '»',
  hellip: '…',
  bull: '•',
  middot: '·',
  copy: '©',
  reg: '®',
  trade: '™',
  euro: '€',
  pound: '£',
  yen: '¥',
  cent: '¢',
  deg: '°',
  times: '×',
  divide: '÷',
  shy: '',
  zwj: '',
  zwnj: '',
};

const ENTITY = /&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|([a-zA-Z]{2,8}));/g;

function fromCodePoint(code: number, original: string): string {
  const valid = code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff);
  return valid ? String.fromCodePoint(code) : original;
}

function decodeOnce(text: string): string {
  return text.replace(ENTITY, (entity, decimal: string | undefined, hex: string | undefined, name: string | undefined) => {
    if (decimal !== undefined) return fromCodePoint(Number(decimal), entity);
    if (hex !== undefined) return fromCodePoint(parseInt(hex, 16), entity);
    return NAMED_ENTITIES[(name ?? '').toLowerCase()] ?? entity;
  });
}

/** Decodes character references until none is left, so an entity escaped twice (`&amp;#039;`) reads as its character. */
export function decodeEntities(text: string): string {
  let decoded = text;
  for (let pass = 0; pass < MAX_DECODE_PASSES; pass++) {
    const next = decodeOnce(decoded);
    if (next === decoded) break;
    decoded = next;
  }
  return decoded;
}

function stripTags(html: string): string {
  return html
    .replace(NON_PROSE_ELEMENTS, ' ')
    .replace(COMMENT, ' ')
    .replace(TAG, (_tag, name: string) => (INLINE_ELEMENTS.has(name.toLowerCase()) ? '' : ' '));
}

/** Cut at the last space before `maxLength`, marked with an ellipsis, so a capped text never ends mid-word. */
export function capAtWord(text: string, maxLength: number): string {
  if (text.length <= maxLength) return text;
  let cut = text.slice(0, maxLength - 1);
  const lastSpace = cut.lastIndexOf(' ');
  // One very long "word" (a URL) is cut where it stands rather than leave almost nothing.
  if (lastSpace > maxLength / 2) cut = cut.slice(0, lastSpace);
  else if (/[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1);
  return `${cut.replace(/[\s,;:–—-]+$/, '')}…`;
}

/**
 * Feed markup as one line of plain text: non-prose elements, tags and comments removed, entities decoded
 * (twice-escaped ones too), whitespace collapsed, then capped at a word boundary. '' for null or markup only.
 */
export function plainText(html: string | null | undefined, maxLength: number): string {
  if (!html) return '';
  const text = decodeEntities(stripTags(html)).replace(/\s+/g, ' ').trim();
  return capAtWord(text, maxLength);
}
