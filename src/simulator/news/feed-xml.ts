/** How an item's body sits in the feed: escaped text, HTML in CDATA, or text HTML-encoded once more (WordPress-style). */
export type BodyForm = 'text' | 'html' | 'double-encoded';

/** One item as a feed carries it, format-neutral; RSS and Atom serialize it their own way. */
export interface FeedEntry {
  guid: string;
  /** RSS `isPermaLink`: the guid is the article's URL. */
  guidIsPermaLink: boolean;
  title: string;
  link: string;
  /** Plain text, or HTML when the feed's body form is 'html'. */
  body: string;
  publishedAt: number;
  author: string | null;
  /** '' is written as an empty element, as some outlets do. */
  categories: string[];
  image: string | null;
}

export interface FeedChannel {
  title: string;
  link: string;
  description: string;
  language: string;
  /** Minutes between reads the feed asks for; null writes no `<ttl>`. */
  ttlMinutes: number | null;
  /** Offset of the dates it writes, in minutes east of UTC; 'GMT' writes RSS dates as `GMT`. */
  offsetMinutes: number | 'GMT';
  bodyForm: BodyForm;
  /** How an item's image travels: Media RSS, an RSS enclosure, or not at all. */
  imageVia: 'media' | 'enclosure' | null;
  copyright?: string;
}

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };
const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#039;' };

export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => XML_ESCAPES[char]);
}

/** Text as HTML, apostrophes as `&#039;` the way WordPress writes them. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char]);
}

/** CDATA cannot hold `]]>`: split it across two sections. */
function cdata(text: string): string {
  return `<![CDATA[${text.replace(/]]>/g, ']]]]><![CDATA[>')}]]>`;
}

const two = (n: number) => String(n).padStart(2, '0');

function offsetLabel(offsetMinutes: number, separator: string): string {
  const abs = Math.abs(offsetMinutes);
  return `${offsetMinutes < 0 ? '-' : '+'}${two(Math.floor(abs / 60))}${separator}${two(abs % 60)}`;
}

/** RFC 822 as feeds write it: `Mon, 02 Jun 2025 09:05:00 -0500` at that offset, or `... 14:05:00 GMT`. */
export function rfc822(ms: number, offsetMinutes: number | 'GMT'): string {
  const offset = offsetMinutes === 'GMT' ? 0 : offsetMinutes;
  const local = new Date(ms + offset * 60_000);
  const zone = offsetMinutes === 'GMT' ? 'GMT' : offsetLabel(offsetMinutes, '');
  const time = `${two(local.getUTCHours())}:${two(local.getUTCMinutes())}:${two(local.getUTCSeconds())}`;
  return `${DAYS[local.getUTCDay()]}, ${two(local.getUTCDate())} ${MONTHS[local.getUTCMonth()]} ${local.getUTCFullYear()} ${time} ${zone}`;
}

/** RFC 3339 at that offset, as Atom writes it: `2025-06-02T09:05:00-05:00`. */
export function rfc3339(ms: number, offsetMinutes: number): string {
  const local = new Date(ms + offsetMinutes * 60_000).toISOString().slice(0, 19);
  return `${local}${offsetMinutes === 0 ? 'Z' : offsetLabel(offsetMinutes, ':')}`;
}

function rssBody(body: string, form: BodyForm): string {
  if (form === 'html') return cdata(body);
  return escapeXml(form === 'double-encoded' ? escapeHtml(body) : body);
}

function rssItem(entry: FeedEntry, channel: FeedChannel): string {
  const lines = [
    `<title>${escapeXml(entry.title)}</title>`,
    `<link>${escapeXml(entry.link)}</link>`,
    `<guid isPermaLink="${entry.guidIsPermaLink}">${escapeXml(entry.guid)}</guid>`,
    `<pubDate>${rfc822(entry.publishedAt, channel.offsetMinutes)}</pubDate>`,
    `<description>${rssBody(entry.body, channel.bodyForm)}</description>`,
  ];
  if (entry.author) lines.push(`<dc:creator>${cdata(entry.author)}</dc:creator>`);
  for (const category of entry.categories) lines.push(category === '' ? '<category></category>' : `<category>${cdata(category)}</category>`);
  if (entry.image && channel.imageVia === 'media') {
    lines.push(`<media:content url="${escapeXml(entry.image)}" type="image/jpeg" medium="image" width="1200" height="630"/>`);
  }
  if (entry.image && channel.imageVia === 'enclosure') lines.push(`<enclosure url="${escapeXml(entry.image)}" length="0" type="image/jpeg"/>`);
  return `<item>\n  ${lines.join('\n  ')}\n</item>`;
}

/** An RSS 2.0 document with the Dublin Core and Media RSS namespaces; `<lastBuildDate>` is the newest item's date. */
export function renderRss(channel: FeedChannel, entries: readonly FeedEntry[]): string {
  const head = [
    `<title>${escapeXml(channel.title)}</title>`,
    `<link>${escapeXml(channel.link)}</link>`,
    `<description>${escapeXml(channel.description)}</description>`,
    `<language>${channel.language}</language>`,
    ...(channel.copyright ? [`<copyright>${escapeXml(channel.copyright)}</copyright>`] : []),
    ...(entries.length > 0 ? [`<lastBuildDate>${rfc822(entries[0].publishedAt, channel.offsetMinutes)}</lastBuildDate>`] : []),
    ...(channel.ttlMinutes === null ? [] : [`<ttl>${channel.ttlMinutes}</ttl>`]),
  ];
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    '<rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:media="http://search.yahoo.com/mrss/">\n' +
    `<channel>\n${head.join('\n')}\n${entries.map((entry) => rssItem(entry, channel)).join('\n')}\n</channel>\n</rss>\n`
  );
}

function atomEntry(entry: FeedEntry, offsetMinutes: number): string {
  const at = rfc3339(entry.publishedAt, offsetMinutes);
  const lines = [
    `<id>${escapeXml(entry.guid)}</id>`,
    `<title type="text">${escapeXml(entry.title)}</title>`,
    `<link rel="alternate" type="text/html" href="${escapeXml(entry.link)}"/>`,
    `<published>${at}</published>`,
    `<updated>${at}</updated>`,
    ...(entry.author ? [`<author><name>${escapeXml(entry.author)}</name></author>`] : []),
    ...entry.categories.map((category) => `<category term="${escapeXml(category)}"/>`),
    `<summary type="html">${escapeXml(entry.body)}</summary>`,
  ];
  return `<entry>\n  ${lines.join('\n  ')}\n</entry>`;
}

/** An Atom 1.0 document; the body is HTML (`type="html"`), the feed's `<updated>` is its newest entry's. */
export function renderAtom(channel: FeedChannel & { id: string }, entries: readonly FeedEntry[]): string {
  const offset = channel.offsetMinutes === 'GMT' ? 0 : channel.offsetMinutes;
  const updated = rfc3339(entries.length > 0 ? entries[0].publishedAt : 0, offset);
  const head = [
    `<id>${escapeXml(channel.id)}</id>`,
    `<title>${escapeXml(channel.title)}</title>`,
    `<subtitle>${escapeXml(channel.description)}</subtitle>`,
    `<link rel="alternate" type="text/html" href="${escapeXml(channel.link)}"/>`,
    `<updated>${updated}</updated>`,
  ];
  return (
    '<?xml version="1.0" encoding="utf-8"?>\n' +
    `<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="${channel.language}">\n${head.join('\n')}\n` +
    `${entries.map((entry) => atomEntry(entry, offset)).join('\n')}\n</feed>\n`
  );
}
