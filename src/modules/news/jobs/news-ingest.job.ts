import { Inject, Injectable, Logger } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { isAbortError } from '../../../common/async/abort';
import { mapLimit } from '../../../common/async/map-limit';
import { AppConfig } from '../../../config/app.config';
import { JobOutcome, JobProgress } from '../../../jobs/job.types';
import { UpstreamError } from '../../../providers/kit/upstream.error';
import { NEWS_SOURCE_PROVIDER, NewsSourceProvider } from '../../../providers/news-source-provider';
import { AssetLinker } from '../analysis/asset-linker';
import { detectConcepts } from '../analysis/concepts';
import { CatalogueEntry, DueFeed, FeedSetting, NewItem, NewsIngestRepository } from '../news-ingest.repository';

/** Feeds read at once within a run. */
const FEED_CONCURRENCY = 4;
const MINUTE_MS = 60_000;
const FEED_NAME_MAX = 64;

/**
 * Reads the feeds that are due (an outlet no more often than NEWS_FEED_MIN_INTERVAL_MS or its own `ttl`, each
 * listed stock's headline feed every NEWS_STOCK_FEED_INTERVAL_MS), with conditional GETs; stores new items,
 * links them to the catalogue's assets and topics, and groups stories across sources. A failing feed is
 * recorded (its last success kept) and the others go on.
 */
@Injectable()
export class NewsIngestJob {
  private readonly logger = new Logger(NewsIngestJob.name);
  private readonly settings: AppConfig['news'];
  private readonly runIntervalMs: number;

  constructor(
    @Inject(NEWS_SOURCE_PROVIDER) private readonly sources: NewsSourceProvider,
    private readonly repository: NewsIngestRepository,
    config: ConfigService<AppConfig, true>,
  ) {
    this.settings = config.get('news', { infer: true });
    this.runIntervalMs = config.get('jobs.schedules', { infer: true })['news.ingest'].intervalMs;
  }

  async run(signal?: AbortSignal, progress?: JobProgress): Promise<JobOutcome> {
    const catalogue = await this.repository.linkableAssets();
    await this.repository.syncFeeds(this.feedsOf(catalogue));
    const due = await this.repository.dueFeeds(new Date(), this.feedsPerRun());
    if (due.length === 0) return { rows: 0, details: { feeds: 0, joined: await this.repository.joinStories() } };
    const linker = new AssetLinker(catalogue);
    const tally = { stored: 0, notModified: 0, read: 0, created: [] as number[] };
    const failures = await mapLimit(
      due,
      FEED_CONCURRENCY,
      async (feed) => {
        progress?.report(`reading feed ${tally.read + 1}/${due.length}`);
        await this.readFeed(feed, linker, tally, signal);
        tally.read += 1;
      },
      { signal, onError: (feed, error) => this.logger.warn(`feed ${feed.name} failed: ${describe(error)}`) },
    );
    // Once, after every feed: stories joined concurrently would each join the other's yet-unjoined copy.
    await this.repository.joinStories();
    return { rows: tally.created.length, failures, details: { feeds: due.length, notModified: tally.notModified } };
  }

  /** The configured outlets and one headline feed per listed stock. */
  feedsOf(catalogue: readonly CatalogueEntry[]): FeedSetting[] {
    const outlets: FeedSetting[] = this.settings.feeds.map((feed) => ({ ...feed, kind: 'outlet', source: feed.name, assetId: null, sourceSymbol: null }));
    const template = this.settings.stockFeedUrl;
    if (template === null) return outlets;
    const stocks = catalogue.flatMap((asset): FeedSetting[] =>
      asset.type === 'STOCK' && asset.yahooSymbol
        ? [
            {
              name: `stock:${asset.yahooSymbol}`.slice(0, FEED_NAME_MAX),
              url: template.replace('{symbol}', encodeURIComponent(asset.yahooSymbol)),
              kind: 'stock',
              source: this.settings.stockFeedSource,
              assetId: asset.id,
              sourceSymbol: asset.yahooSymbol,
            },
          ]
        : [],
    );
    return [...outlets, ...stocks];
  }

  private async readFeed(feed: DueFeed, linker: AssetLinker, tally: { created: number[]; notModified: number }, signal?: AbortSignal): Promise<void> {
    const interval = feed.kind === 'stock' ? this.settings.stockFeedIntervalMs : this.settings.feedMinIntervalMs;
    let result;
    try {
      result = await this.sources.fetchFeed({ feed: { name: feed.name, url: feed.url }, validators: feed.validators, signal });
    } catch (error) {
      if (isAbortError(error)) throw error;
      await this.repository.recordRead(feed.name, { ok: false, error: describe(error), nextReadAt: new Date(Date.now() + interval) });
      throw error;
    }
    const nextReadAt = new Date(Date.now() + Math.max(interval, result.ttlMs ?? 0));
    if (!result.modified) {
      tally.notModified += 1;
      await this.repository.recordRead(feed.name, { ok: true, validators: result.validators, ttlMs: feed.ttlMs, nextReadAt, oldestItemAt: null });
      return;
    }
    const items: NewItem[] = result.items.map((item) => ({ ...item, source: feed.source, concepts: detectConcepts({ ...item }) }));
    const { idsByGuid, created } = await this.repository.insertItems(items);
    const createdIds = new Set(created);
    const links = items.flatMap((item) => {
      const newsId = idsByGuid.get(item.guid);
      if (newsId === undefined) return [];
      // A stock feed's item is about its stock even when it was first stored from another stock's feed.
      const own = feed.assetId === null ? [] : [{ newsId, assetId: feed.assetId }];
      const found = createdIds.has(newsId) ? linker.link({ title: item.title, summary: item.summary, categories: item.categories }) : [];
      return [...own, ...found.map((asset) => ({ newsId, assetId: asset.id }))];
    });
    await this.repository.linkAssets(links);
    tally.created.push(...created);
    const oldest = items.reduce<string | null>((min, item) => (min === null || item.publishedAt < min ? item.publishedAt : min), null);
    await this.repository.recordRead(feed.name, {
      ok: true,
      validators: result.validators,
      ttlMs: result.ttlMs,
      nextReadAt,
      oldestItemAt: oldest === null ? null : new Date(oldest),
    });
  }

  /** As many feeds as the request budget allows between two runs, so a run never queues behind the budget. */
  private feedsPerRun(): number {
    return Math.max(1, Math.floor((this.settings.feedRequestsPerMinute * this.runIntervalMs) / MINUTE_MS));
  }
}

/** What is kept of a failure: its kind, never an upstream's body or host. */
function describe(error: unknown): string {
  if (error instanceof UpstreamError) return error.upstreamStatus ? `${error.kind} ${error.upstreamStatus}` : error.kind;
  return error instanceof Error ? error.name : 'error';
}
