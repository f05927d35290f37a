import { ConfigService } from '@nestjs/config';
import { AppConfig } from '../../../config/app.config';
import { UpstreamError } from '../../../providers/kit/upstream.error';
import { FetchFeedResult, NewsSourceProvider } from '../../../providers/news-source-provider';
import { CatalogueEntry, DueFeed, FeedReadOutcome, NewsIngestRepository } from '../news-ingest.repository';
import { NewsIngestJob } from './news-ingest.job';

const CATALOGUE: CatalogueEntry[] = [
  { id: 1, symbol: 'BTC', name: 'Bitcoin', type: 'CRYPTO', yahooSymbol: null, marketCapUsd: 1e12 },
  { id: 2, symbol: 'AAPL', name: 'Apple Inc.', type: 'STOCK', yahooSymbol: 'AAPL', marketCapUsd: 3e12 },
  { id: 3, symbol: '0700', name: 'Tencent', type: 'STOCK', yahooSymbol: '0700.HK', marketCapUsd: 5e11 },
  { id: 4, symbol: 'SPY', name: 'SPDR S&P 500 ETF', type: 'ETF', yahooSymbol: 'SPY', marketCapUsd: null },
];

const NEWS: Partial<AppConfig['news']> = {
  feeds: [{ name: 'coindesk', url: 'https://coindesk.example/rss' }],
  stockFeedUrl: 'https://feeds.example/headline?s={symbol}&lang=en',
  stockFeedSource: 'yahoo-finance',
  feedMinIntervalMs: 300_000,
  stockFeedIntervalMs: 1_800_000,
  feedRequestsPerMinute: 60,
};

function config(news: Partial<AppConfig['news']> = NEWS) {
  return new ConfigService<AppConfig, true>({ news, jobs: { schedules: { 'news.ingest': { enabled: true, intervalMs: 60_000 } } } });
}

function due(name: string, kind: 'outlet' | 'stock', assetId: number | null = null): DueFeed {
  return {
    name,
    url: `https://x.example/${name}`,
    kind,
    source: name,
    assetId,
    sourceSymbol: null,
    validators: { etag: '"v1"', lastModified: null },
    ttlMs: null,
    failures: 0,
  };
}

function fakeRepository(dueFeeds: DueFeed[]) {
  const reads = new Map<string, FeedReadOutcome>();
  const repository = {
    linkableAssets: jest.fn(async () => CATALOGUE),
    syncFeeds: jest.fn(async () => undefined),
    dueFeeds: jest.fn(async () => dueFeeds),
    recordRead: jest.fn(async (name: string, outcome: FeedReadOutcome) => void reads.set(name, outcome)),
    insertItems: jest.fn(async (items: Array<{ guid: string }>) => ({
      idsByGuid: new Map(items.map((item, i) => [item.guid, 100 + i])),
      created: items.map((_, i) => 100 + i),
    })),
    linkAssets: jest.fn(async () => undefined),
    joinStories: jest.fn(async () => 0),
  };
  return { repository, reads, sut: (sources: NewsSourceProvider) => new NewsIngestJob(sources, repository as unknown as NewsIngestRepository, config()) };
}

const ITEM = {
  guid: 'g-1',
  title: 'Bitcoin (BTC) jumps 4% as ETF inflows build',
  summary: 'Spot ETFs took in more money.',
  url: 'https://x.example/a',
  imageUrl: null,
  publisher: null,
  publishedAt: '2026-11-24T10:00:00.000Z',
  categories: [],
};

describe(NewsIngestJob.name, () => {
  it('reads the configured outlets and one headline feed per listed stock, by its Yahoo symbol', () => {
    const { sut } = fakeRepository([]);

    const feeds = sut({ name: 'rss', fetchFeed: jest.fn() }).feedsOf(CATALOGUE);

    expect(feeds.map(({ name, url, kind, source, assetId, sourceSymbol }) => ({ name, url, kind, source, assetId, sourceSymbol }))).toEqual([
      { name: 'coindesk', url: 'https://coindesk.example/rss', kind: 'outlet', source: 'coindesk', assetId: null, sourceSymbol: null },
      { name: 'stock:AAPL', url: 'https://feeds.example/headline?s=AAPL&lang=en', kind: 'stock', source: 'yahoo-finance', assetId: 2, sourceSymbol: 'AAPL' },
      {
        name: 'stock:0700.HK',
        url: 'https://feeds.example/headline?s=0700.HK&lang=en',
        kind: 'stock',
        source: 'yahoo-finance',
        assetId: 3,
        sourceSymbol: '0700.HK',
      },
    ]);
  });

  it('links a new item to the assets it names and a stock feed item to its stock, and groups the new items into stories', async () => {
    const { repository, reads, sut } = fakeRepository([due('stock:AAPL', 'stock', 2)]);
    const result: FetchFeedResult = { modified: true, items: [ITEM], validators: { etag: '"v2"', lastModified: null }, ttlMs: null };

    const outcome = await sut({ name: 'rss', fetchFeed: jest.fn(async () => result) }).run();

    expect(outcome).toMatchObject({ rows: 1, failures: 0 });
    expect(repository.insertItems.mock.calls[0][0]).toEqual([
      expect.objectContaining({ guid: 'g-1', source: 'stock:AAPL', concepts: expect.arrayContaining(['etf']) }),
    ]);
    expect(repository.linkAssets).toHaveBeenCalledWith(
      expect.arrayContaining([
        { newsId: 100, assetId: 2 },
        { newsId: 100, assetId: 1 },
      ]),
    );
    expect(repository.joinStories).toHaveBeenCalledTimes(1);
    expect(reads.get('stock:AAPL')).toMatchObject({ ok: true, validators: { etag: '"v2"' }, oldestItemAt: new Date(ITEM.publishedAt) });
  });

  it('sends the stored validators and stores nothing on 304', async () => {
    const { repository, reads, sut } = fakeRepository([due('coindesk', 'outlet')]);
    const fetchFeed = jest.fn(async () => ({ modified: false, items: [], validators: { etag: '"v1"', lastModified: null }, ttlMs: null }));

    const outcome = await sut({ name: 'rss', fetchFeed }).run();

    expect(fetchFeed).toHaveBeenCalledWith(expect.objectContaining({ validators: { etag: '"v1"', lastModified: null } }));
    expect(repository.insertItems).not.toHaveBeenCalled();
    expect(outcome.details).toMatchObject({ notModified: 1 });
    expect(reads.get('coindesk')).toMatchObject({ ok: true });
  });

  it('records a failing feed by its failure kind only and reads the others', async () => {
    const { reads, sut } = fakeRepository([due('broken', 'outlet'), due('coindesk', 'outlet')]);
    const fetchFeed = jest.fn(async ({ feed }: { feed: { name: string } }) => {
      if (feed.name === 'broken') throw new UpstreamError({ provider: 'feeds', kind: 'shape', message: 'https://secret.example answered HTML' });
      return { modified: true, items: [ITEM], validators: { etag: null, lastModified: null }, ttlMs: 600_000 };
    });

    const before = Date.now();
    const outcome = await sut({ name: 'rss', fetchFeed }).run();

    expect(outcome).toMatchObject({ rows: 1, failures: 1 });
    expect(reads.get('broken')).toEqual({ ok: false, error: 'shape', nextReadAt: expect.any(Date) });
    const next = reads.get('coindesk') as Extract<FeedReadOutcome, { ok: true }>;
    // Its own ttl (10 minutes) is longer than the configured minimum (5): the feed asked not to be read sooner.
    expect(next.nextReadAt.getTime() - before).toBeGreaterThanOrEqual(600_000);
  });
});
