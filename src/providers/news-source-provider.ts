import { refuseAs } from './kit/provider-disabled.error';

export const NEWS_SOURCE_PROVIDER = Symbol('NEWS_SOURCE_PROVIDER');

/** One feed to read: the name items are stored under (`source`) and where it is. */
export interface NewsFeed {
  name: string;
  url: string;
}

/** One item as a source publishes it, before linking and analysis: title, summary and link only (copyright). */
export interface SourceNewsItem {
  /** The source's own id (RSS guid, Atom id; the link when it has none); with the feed's name it is the dedup key. */
  guid: string;
  title: string;
  /** Plain text: markup removed, entities decoded (double-encoded ones too), whitespace collapsed; '' when none. */
  summary: string;
  /** Canonical: tracking parameters (utm_*, fbclid, gclid, ...) and the fragment removed. */
  url: string;
  imageUrl: string | null;
  /** The outlet (or author, for a wire) as the item names it; null when it names none. */
  publisher: string | null;
  /** ISO-8601 UTC with milliseconds, offsets such as -0500 resolved. */
  publishedAt: string;
  /** The item's categories as labels, trimmed, empty ones dropped, duplicates removed. */
  categories: string[];
}

/** What a conditional GET sends back next time (ETag / Last-Modified), so an unchanged feed costs nothing. */
export interface FeedValidators {
  etag: string | null;
  lastModified: string | null;
}

export interface FetchFeedResult {
  /** False when the source answered 304 Not Modified: no items, validators as sent. */
  modified: boolean;
  items: SourceNewsItem[];
  validators: FeedValidators;
  /** The feed's own `ttl` (RSS, minutes) in ms: it asks not to be read more often; null when it says nothing. */
  ttlMs: number | null;
}

/**
 * News sources (contract parts 2.5, 4.4): RSS 2.0 and Atom feeds, read by the ingestion job. Typed items,
 * or UpstreamError for that feed (an HTML page instead of a feed is kind 'shape'), so one failing feed
 * does not stop the others.
 */
export interface NewsSourceProvider {
  readonly name: string;
  fetchFeed(params: { feed: NewsFeed; validators?: FeedValidators; signal?: AbortSignal }): Promise<FetchFeedResult>;
}

/** Answers when news is switched off. */
export class DisabledNewsSourceProvider implements NewsSourceProvider {
  readonly name = 'none';
  fetchFeed = refuseAs('news sources');
}
