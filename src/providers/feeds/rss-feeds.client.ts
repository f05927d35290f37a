import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { AppConfig } from '../../config/app.config';
import { KV_STORE, KvStore } from '../../infra/kv/kv-store';
import { UpstreamResponse } from '../kit/fetch-json';
import { RequestBudget } from '../kit/request-budget';
import { UpstreamHttpClient } from '../kit/upstream-http.client';
import { FeedValidators, FetchFeedResult, NewsFeed, NewsSourceProvider } from '../news-source-provider';
import { FEEDS_PROVIDER, parseFeedDocument } from './feed-document.parser';

/** The feed request budget counts per minute, as NEWS_FEED_REQUESTS_PER_MINUTE is stated. */
export const FEEDS_WINDOW_MS = 60_000;

/** Outlets block anonymous scrapers more readily than a reader that says what it is. */
export const FEED_USER_AGENT = 'market-data-api-news-reader/1.0 (self-hosted RSS/Atom reader; conditional GET)';
const FEED_ACCEPT = 'application/rss+xml, application/atom+xml, application/xml;q=0.9, text/xml;q=0.9, */*;q=0.5';

/**
 * The news source that reads the outlets' RSS 2.0 and Atom feeds. Each read is a conditional GET (the
 * validators of the last good read), so an unchanged feed costs the outlet a 304 and us nothing to parse;
 * every attempt spends one from the feeds' budget shared by all feeds and replicas, with the feed timeout
 * and the market vendors' retries. Items or UpstreamError for that feed.
 */
@Injectable()
export class RssFeedsClient implements NewsSourceProvider, OnModuleDestroy {
  readonly name = 'rss';
  /** Exposed so tests can see what was spent; the pool itself lives in the KV store (`budget:feeds:<minute>`). */
  readonly budget: RequestBudget;
  private readonly http: UpstreamHttpClient;

  constructor(config: ConfigService<AppConfig, true>, @Inject(KV_STORE) kv: KvStore) {
    const { feedTimeoutMs, feedRequestsPerMinute } = config.get('news', { infer: true });
    const { maxRetries } = config.get('marketVendors', { infer: true });
    this.budget = new RequestBudget({ kv, provider: FEEDS_PROVIDER, weightPerWindow: feedRequestsPerMinute, windowMs: FEEDS_WINDOW_MS });
    this.http = new UpstreamHttpClient({
      provider: FEEDS_PROVIDER,
      timeoutMs: feedTimeoutMs,
      maxRetries,
      budget: this.budget,
      headers: { 'user-agent': FEED_USER_AGENT, accept: FEED_ACCEPT },
      logger: new Logger(RssFeedsClient.name),
    });
  }

  onModuleDestroy(): void {
    this.http.close();
  }

  fetchFeed({ feed, validators, signal }: { feed: NewsFeed; validators?: FeedValidators; signal?: AbortSignal }): Promise<FetchFeedResult> {
    return this.http.conditionalGet({
      label: `feed ${feed.name}`,
      url: feed.url,
      responseType: 'text',
      headers: conditionalHeaders(validators),
      signal,
      parse: (response) => feedResult(response, feed, validators),
    });
  }
}

function conditionalHeaders(validators: FeedValidators | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  if (validators?.etag) headers['if-none-match'] = validators.etag;
  if (validators?.lastModified) headers['if-modified-since'] = validators.lastModified;
  return headers;
}

function feedResult({ status, body, headers }: UpstreamResponse, feed: NewsFeed, sent: FeedValidators | undefined): FetchFeedResult {
  if (status === 304) return { modified: false, items: [], validators: sent ?? { etag: null, lastModified: null }, ttlMs: null };
  const { items, ttlMs } = parseFeedDocument(String(body), feed.name);
  return { modified: true, items, validators: { etag: headers.get('etag'), lastModified: headers.get('last-modified') }, ttlMs };
}
