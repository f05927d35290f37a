import { Logger } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { AppConfig } from '../../config/app.config';
import { MemoryKvStore } from '../../infra/kv/memory-kv.store';
import { ScriptedUpstream, StubReply } from '../../../test/support/scripted-upstream';
import { vendorFixtureText } from '../../../test/support/vendor-fixtures';
import { UpstreamError } from '../kit/upstream.error';
import { FeedValidators } from '../news-source-provider';
import { FEED_USER_AGENT, FEEDS_WINDOW_MS, RssFeedsClient } from './rss-feeds.client';

const COINDESK_ETAG = 'W/"coindesk-2"';
const COINDESK_LAST_MODIFIED = 'Sat, 13 Dec 2025 11:05:41 GMT';

function feedAt(path: string): StubReply {
  if (path !== '/coindesk') return { status: 404, body: '<html>Not Found</html>' };
  return {
    body: vendorFixtureText('news', 'coindesk.rss.xml'),
    headers: { 'content-type': 'application/rss+xml; charset=utf-8', etag: COINDESK_ETAG, 'last-modified': COINDESK_LAST_MODIFIED },
  };
}

describe(RssFeedsClient.name, () => {
  const upstream = new ScriptedUpstream(feedAt);
  let kv: MemoryKvStore;
  let warn: jest.SpyInstance;
  let clients: RssFeedsClient[];

  beforeAll(() => upstream.start());
  afterAll(() => upstream.stop());

  beforeEach(() => {
    upstream.reset();
    kv = new MemoryKvStore();
    clients = [];
    warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
  });

  afterEach(() => {
    clients.forEach((client) => client.onModuleDestroy());
    warn.mockRestore();
  });

  function makeClient({ maxRetries = 1 }: { maxRetries?: number } = {}): RssFeedsClient {
    const settings = {
      news: { feedTimeoutMs: 5_000, feedRequestsPerMinute: 30 },
      marketVendors: { timeoutMs: 1_000, maxRetries },
    } as unknown as Record<string, unknown>;
    const config = { get: (key: string) => settings[key] } as unknown as ConfigService<AppConfig, true>;
    const client = new RssFeedsClient(config, kv);
    clients.push(client);
    return client;
  }

  const coindesk = () => ({ name: 'coindesk', url: `${upstream.baseUrl}/coindesk` });

  /** Weight spent in the budget's current window (and the previous one, in case a minute turned mid-test). */
  async function spent(sut: RssFeedsClient): Promise<number> {
    const values = await Promise.all([Date.now(), Date.now() - FEEDS_WINDOW_MS].map((at) => kv.get(sut.budget.windowKey(at))));
    return values.reduce((sum, value) => sum + Number(value ?? 0), 0);
  }

  it('reads a feed with a descriptive User-Agent, returning its items, its new validators and its ttl', async () => {
    const sut = makeClient();

    const result = await sut.fetchFeed({ feed: coindesk() });

    expect(result).toMatchObject({ modified: true, validators: { etag: COINDESK_ETAG, lastModified: COINDESK_LAST_MODIFIED }, ttlMs: 300_000 });
    expect(result.items).toHaveLength(25);
    const [request] = upstream.received;
    expect(request.headers['user-agent']).toBe(FEED_USER_AGENT);
    expect(request.headers.accept).toBe('application/rss+xml, application/atom+xml, application/xml;q=0.9, text/xml;q=0.9, */*;q=0.5');
    expect(request.headers).not.toHaveProperty('if-none-match');
    expect(request.headers).not.toHaveProperty('if-modified-since');
    expect(await spent(sut)).toBe(1);
  });

  it('sends the validators it is given and answers a 304 with no items and the validators as sent', async () => {
    const validators: FeedValidators = { etag: COINDESK_ETAG, lastModified: COINDESK_LAST_MODIFIED };
    upstream.queued.push({ status: 304, body: '', headers: { etag: 'W/"other"' } });
    const sut = makeClient();

    await expect(sut.fetchFeed({ feed: coindesk(), validators })).resolves.toEqual({ modified: false, items: [], validators, ttlMs: null });

    expect(upstream.received[0].headers).toMatchObject({ 'if-none-match': COINDESK_ETAG, 'if-modified-since': COINDESK_LAST_MODIFIED });
    expect(await spent(sut)).toBe(1);
  });

  it('sends only the validator it has and reads null for a header the feed does not send', async () => {
    upstream.queued.push({ body: vendorFixtureText('news', 'theblock.rss.xml'), headers: { etag: '"tb-1"' } });
    const sut = makeClient();

    const result = await sut.fetchFeed({ feed: coindesk(), validators: { etag: '"tb-0"', lastModified: null } });

    expect(result.validators).toEqual({ etag: '"tb-1"', lastModified: null });
    expect(result.items).toHaveLength(19);
    expect(upstream.received[0].headers['if-none-match']).toBe('"tb-0"');
    expect(upstream.received[0].headers).not.toHaveProperty('if-modified-since');
  });

  it('refuses an HTML page answered 200 as kind shape, once, without quoting it', async () => {
    upstream.queued.push({ body: '<!DOCTYPE html><html><body>Please enable cookies: secret-wall</body></html>', headers: { 'content-type': 'text/html' } });
    const sut = makeClient();

    const error = await sut.fetchFeed({ feed: coindesk() }).catch((err: unknown) => err);

    expect(error).toBeInstanceOf(UpstreamError);
    expect(error).toMatchObject({ kind: 'shape', provider: 'feeds' });
    expect((error as Error).message).not.toContain('secret-wall');
    expect(upstream.received).toHaveLength(1);
  });

  it('retries a 500 and then fails as kind http without the body, every attempt spent from the budget', async () => {
    const serverError = { status: 500, body: '<html>stack trace: secret-internals</html>', headers: { 'retry-after': '0' } };
    upstream.queued.push(serverError, serverError);
    const sut = makeClient({ maxRetries: 1 });

    const error = await sut.fetchFeed({ feed: coindesk() }).catch((err: unknown) => err);

    expect(error).toBeInstanceOf(UpstreamError);
    expect(error).toMatchObject({ kind: 'http', upstreamStatus: 500, provider: 'feeds' });
    expect((error as Error).message).not.toContain('secret-internals');
    expect(upstream.received).toHaveLength(2);
    expect(await spent(sut)).toBe(2);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('feed coindesk failed (http)'));
  });

  it('shares one budget across clients (replicas) on the same store', async () => {
    await makeClient().fetchFeed({ feed: coindesk() });
    const other = makeClient();
    await other.fetchFeed({ feed: coindesk() });
    expect(await spent(other)).toBe(2);
  });

  it('refuses to read once shut down, as kind aborted', async () => {
    const sut = makeClient();
    sut.onModuleDestroy();
    await expect(sut.fetchFeed({ feed: coindesk() })).rejects.toMatchObject({ kind: 'aborted' });
    expect(upstream.received).toHaveLength(0);
  });
});
