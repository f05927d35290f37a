import { parseFeed } from '@rowanmanning/feed-parser';
import { SourceNewsItem } from '../news-source-provider';
import { UpstreamError } from '../kit/upstream.error';
import { mapFeedItems, ParsedFeed } from './feed-items.mapping';

/** Names the feeds' request budget, HTTP metrics and errors: every feed shares them. */
export const FEEDS_PROVIDER = 'feeds';
/** A `ttl` longer than a day is read as a day, so a typo in a feed cannot stop it being read. */
const TTL_MAX_MINUTES = 24 * 60;
const MINUTE_MS = 60_000;

/** What precedes the root element: a byte-order mark, the XML declaration, comments, whitespace. */
const PROLOGUE = /^(?:\uFEFF|\s|<\?xml[^>]*\?>|<!--[\s\S]*?-->)*/i;
const HTML_START = /^<(?:!doctype\s+html|html[\s>])/i;

export interface FeedDocument {
  items: SourceNewsItem[];
  ttlMs: number | null;
}

/**
 * An RSS 2.0 (or RDF) or Atom body as items and the feed's `ttl`. An HTML page (a login wall, an error
 * page served 200, a moved feed) or anything else that is not a feed is an UpstreamError of kind 'shape';
 * its message names the feed, never the body or the parser's words about it.
 */
export function parseFeedDocument(xml: string, feedName: string): FeedDocument {
  if (HTML_START.test(xml.replace(PROLOGUE, ''))) throw notAFeed(feedName, 'an HTML page, not a feed');
  // The parser's getters read the document lazily, so they may throw too: all of it counts as the body's fault.
  let parsed: { json: ParsedFeed; ttlMs: number | null };
  try {
    const feed = parseFeed(xml);
    parsed = { json: feed.toJSON(), ttlMs: ttlMsOf(feed) };
  } catch {
    throw notAFeed(feedName, 'the body is not an RSS or Atom feed');
  }
  return { items: mapFeedItems(parsed.json), ttlMs: parsed.ttlMs };
}

/** RSS `<channel><ttl>` (minutes) in ms; null when absent, not a positive whole number, or the feed is Atom. */
function ttlMsOf(feed: ReturnType<typeof parseFeed>): number | null {
  if (feed.meta.type !== 'rss') return null;
  const text = feed.element.findElementWithName('ttl')?.textContent.trim() ?? '';
  if (!/^\d{1,9}$/.test(text) || Number(text) === 0) return null;
  return Math.min(Number(text), TTL_MAX_MINUTES) * MINUTE_MS;
}

function notAFeed(feedName: string, problem: string): UpstreamError {
  return new UpstreamError({ provider: FEEDS_PROVIDER, kind: 'shape', message: `feed ${feedName}: ${problem}` });
}
