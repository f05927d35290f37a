import type { parseFeed } from '@rowanmanning/feed-parser';
import { SourceNewsItem } from '../news-source-provider';
import { canonicalUrl } from './canonical-url';
import { capAtWord, plainText } from './plain-text';

type FeedJson = ReturnType<ReturnType<typeof parseFeed>['toJSON']>;
type FeedItemJson = FeedJson['items'][number];

/** What the mapping reads of feed-parser's output (`parseFeed(xml).toJSON()`). */
export type ParsedFeed = Pick<FeedJson, 'published' | 'updated'> & { items: ParsedFeedItem[] };
export type ParsedFeedItem = Pick<
  FeedItemJson,
  'id' | 'title' | 'description' | 'url' | 'published' | 'updated' | 'image' | 'media' | 'authors' | 'categories'
>;

/** A summary, not the article: we store what the outlet offers as a teaser, never its full text (copyright). */
export const SUMMARY_MAX_CHARS = 1_000;
const TITLE_MAX_CHARS = 500;
const PUBLISHER_MAX_CHARS = 200;
export const CATEGORIES_MAX = 20;
const CATEGORY_MAX_CHARS = 100;

/**
 * feed-parser's items as SourceNewsItems, in feed order. An item without a title or an http(s) link is
 * skipped, as is one without any date (its own, else the feed's); a guid seen earlier in the same feed is
 * skipped too, so one batch never upserts a row twice. `content:encoded` is never read: summaries only.
 */
export function mapFeedItems(feed: ParsedFeed): SourceNewsItem[] {
  // An undated item is taken as published when the feed was last built: the latest it can have appeared.
  const feedDate = isoInstant(feed.updated) ?? isoInstant(feed.published);
  const seen = new Set<string>();
  const items: SourceNewsItem[] = [];
  for (const entry of feed.items) {
    const item = mapItem(entry, feedDate);
    if (item === null || seen.has(item.guid)) continue;
    seen.add(item.guid);
    items.push(item);
  }
  return items;
}

function mapItem(entry: ParsedFeedItem, feedDate: string | null): SourceNewsItem | null {
  const title = plainText(entry.title, TITLE_MAX_CHARS);
  const url = entry.url ? canonicalUrl(entry.url) : null;
  const publishedAt = isoInstant(entry.published) ?? isoInstant(entry.updated) ?? feedDate;
  if (title === '' || url === null || publishedAt === null) return null;
  return {
    guid: entry.id?.trim() || url,
    title,
    summary: plainText(entry.description, SUMMARY_MAX_CHARS),
    url,
    imageUrl: imageOf(entry),
    publisher: publisherOf(entry),
    publishedAt,
    categories: categoriesOf(entry),
  };
}

/** ISO-8601 UTC with milliseconds; null when absent or not a date. */
function isoInstant(value: string | null): string | null {
  if (!value) return null;
  const at = new Date(value);
  return Number.isNaN(at.getTime()) ? null : at.toISOString();
}

/** The item's own image, else its first image attachment (media:content, enclosure), else a video's poster. */
function imageOf({ image, media }: ParsedFeedItem): string | null {
  const attachments = media.filter((m) => m.type === 'image' || m.mimeType?.startsWith('image/')).map((m) => m.url);
  const candidates = [image?.url, ...attachments, ...media.map((m) => m.image)];
  return candidates.find((candidate): candidate is string => typeof candidate === 'string' && isHttpUrl(candidate)) ?? null;
}

function isHttpUrl(value: string): boolean {
  try {
    const { protocol } = new URL(value);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

/**
 * The item's named authors as it writes them ("Cointelegraph by Sam Bourgi" stays whole: that is how the
 * outlet credits), comma-joined; null when it names none. The feed's own title is not used instead: it
 * names the outlet, which the item's `source` already does. Addresses are never used (privacy).
 */
function publisherOf({ authors }: ParsedFeedItem): string | null {
  const names = unique(authors.map((author) => plainText(author.name, PUBLISHER_MAX_CHARS)).filter((name) => name !== ''));
  return names.length > 0 ? capAtWord(names.join(', '), PUBLISHER_MAX_CHARS) : null;
}

function categoriesOf({ categories }: ParsedFeedItem): string[] {
  const labels = categories.map((category) => plainText(category.label ?? category.term, CATEGORY_MAX_CHARS)).filter((label) => label !== '');
  return unique(labels).slice(0, CATEGORIES_MAX);
}

/** First spelling wins; "DeFi" and "defi" are one label. */
function unique(values: string[]): string[] {
  const seen = new Set<string>();
  return values.filter((value) => {
    const key = value.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
