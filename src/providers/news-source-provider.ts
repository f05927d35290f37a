import { refuseAs } from './kit/provider-disabled.error';

export const NEWS_SOURCE_PROVIDER = Symbol('NEWS_SOURCE_PROVIDER');

/** One item as a source publishes it, before analysis: title, summary and link only (copyright). */
export interface SourceNewsItem {
  /** The source's own id (RSS guid, Atom id); with `source` it is the dedup key. */
  guid: string;
  source: string;
  title: string;
  summary: string;
  url: string;
  imageUrl: string | null;
  publisher: string | null;
  /** ISO-8601, offsets resolved. */
  publishedAt: string;
  categories: string[];
}

/** What a conditional GET sends back next time (ETag / Last-Modified), so an unchanged feed costs nothing. */
export interface FeedValidators {
  etag: string | null;
  lastModified: string | null;
}

export interface FetchItemsResult {
  /** False when the source answered "not modified": no items, validators unchanged. */
  modified: boolean;
  items: SourceNewsItem[];
  validators: FeedValidators;
}

/**
 * News sources (contract parts 2.5, 4.4): the configured feeds or APIs, read by the ingestion job.
 * Typed items or UpstreamError per source, so one failing feed does not stop the others.
 */
export interface NewsSourceProvider {
  readonly name: string;
  /** The configured sources, by a stable name ('coindesk'). */
  readonly sources: readonly string[];
  fetchItems(params: { source: string; validators?: FeedValidators; signal?: AbortSignal }): Promise<FetchItemsResult>;
}

/** Answers when no news source is configured or news is switched off. */
export class DisabledNewsSourceProvider implements NewsSourceProvider {
  readonly name = 'none';
  readonly sources: readonly string[] = [];
  fetchItems = refuseAs('news sources');
}
