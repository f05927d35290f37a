import { parseFeed } from '@rowanmanning/feed-parser';
import { RunningSimulator, startSimulator } from '../simulator.server';
import { HEADLINE_PATH } from './news-feeds';

const MINUTE_MS = 60_000;
const T0 = Date.UTC(2025, 5, 2, 14, 7, 0);
const CJK = /[\u4e00-\u9fff]/;

interface Answer {
  status: number;
  headers: Headers;
  body: string;
}

describe('news protocol over HTTP', () => {
  let now = T0;
  let sim: RunningSimulator;

  const get = async (path: string, headers: Record<string, string> = {}): Promise<Answer> => {
    const res = await fetch(`${sim.url}${path}`, { headers });
    return { status: res.status, headers: res.headers, body: await res.text() };
  };
  const feedUrls = () => Object.fromEntries(sim.env.NEWS_FEEDS.split(',').map((entry) => entry.split('=') as [string, string]));
  const pathOf = (name: string) => feedUrls()[name].slice(sim.url.length);

  beforeAll(async () => {
    sim = await startSimulator({ wallets: 2, clock: () => now });
  });

  afterAll(async () => {
    await sim.close();
  });

  beforeEach(() => {
    now = T0;
    sim.protocols.news.resetCounters();
  });

  it('points NEWS_FEEDS at five feeds here and NEWS_STOCK_FEED_URL at the headline feed, each value one word', () => {
    expect(Object.keys(feedUrls())).toEqual(['sim-coindesk', 'sim-cointelegraph', 'sim-theblock', 'sim-zh', 'sim-wire']);
    for (const [name, url] of Object.entries(feedUrls())) {
      expect(name).toMatch(/^[a-z0-9][a-z0-9-]{0,31}$/);
      expect(url.startsWith(`${sim.url}/feeds/`)).toBe(true);
    }
    expect(sim.env.NEWS_STOCK_FEED_URL).toBe(`${sim.url}${HEADLINE_PATH}?s={symbol}`);
    for (const name of ['NEWS_FEEDS', 'NEWS_STOCK_FEED_URL']) expect(`${name}=${sim.env[name]}`).toMatch(/^[A-Z][A-Z0-9_]*=\S+$/);
  });

  it('serves every listed feed as RSS or Atom a feed parser reads, with the matching content type, ETag and Last-Modified', async () => {
    for (const [name, url] of Object.entries(feedUrls())) {
      const res = await get(url.slice(sim.url.length));
      const atom = name === 'sim-wire';
      expect({ name, status: res.status, type: res.headers.get('content-type') }).toEqual({
        name,
        status: 200,
        type: atom ? 'application/atom+xml; charset=utf-8' : 'application/rss+xml; charset=utf-8',
      });
      const feed = parseFeed(res.body);
      expect(feed.meta.type).toBe(atom ? 'atom' : 'rss');
      expect(feed.items).toHaveLength(25);
      expect(res.headers.get('etag')).toMatch(/^"[^"]+"$/);
      const newest = Math.max(...feed.items.map((item) => item.published?.getTime() ?? 0));
      expect(res.headers.get('last-modified')).toBe(new Date(newest).toUTCString());
    }
    expect(sim.protocols.news.counters.requestsByFeed).toEqual({ 'sim-coindesk': 1, 'sim-cointelegraph': 1, 'sim-theblock': 1, 'sim-zh': 1, 'sim-wire': 1 });
  });

  it('answers the same feed at the same world time, and adds items on top as world time advances', async () => {
    const first = await get(pathOf('sim-coindesk'));
    const again = await get(pathOf('sim-coindesk'));
    expect(again.body).toBe(first.body);
    now = T0 + 20 * MINUTE_MS;
    const later = await get(pathOf('sim-coindesk'));
    const ids = (answer: Answer) => parseFeed(answer.body).items.map((item) => item.id);
    const before = ids(first);
    const after = ids(later);
    const added = after.filter((id) => !before.includes(id));
    expect(added.length).toBeGreaterThan(0);
    expect(after.slice(0, added.length)).toEqual(added);
    expect(after.slice(added.length)).toEqual(before.slice(0, before.length - added.length));
    expect(later.headers.get('etag')).not.toBe(first.headers.get('etag'));
  });

  it('answers 304 with no body to a matching If-None-Match, and the feed again once a new item changed the ETag', async () => {
    const first = await get(pathOf('sim-theblock'));
    const etag = first.headers.get('etag') as string;
    const cached = await get(pathOf('sim-theblock'), { 'if-none-match': etag });
    expect({ status: cached.status, body: cached.body, etag: cached.headers.get('etag') }).toEqual({ status: 304, body: '', etag });
    expect((await get(pathOf('sim-theblock'), { 'if-none-match': '"other"' })).status).toBe(200);
    now = T0 + 30 * MINUTE_MS;
    expect((await get(pathOf('sim-theblock'), { 'if-none-match': etag })).status).toBe(200);
    expect(sim.protocols.news.counters).toMatchObject({ requestsByFeed: { 'sim-theblock': 4 }, notModifiedByFeed: { 'sim-theblock': 1 } });
  });

  it('answers 304 to an If-Modified-Since not older than the newest item, and the feed to an older one', async () => {
    const lastModified = (await get(pathOf('sim-wire'))).headers.get('last-modified') as string;
    expect((await get(pathOf('sim-wire'), { 'if-modified-since': lastModified })).status).toBe(304);
    const older = new Date(Date.parse(lastModified) - 1000).toUTCString();
    expect((await get(pathOf('sim-wire'), { 'if-modified-since': older })).status).toBe(200);
  });

  it("dates The Block's items at -0500, naming instants up to now", async () => {
    const { body } = await get(pathOf('sim-theblock'));
    const dates = [...body.matchAll(/<pubDate>([^<]+)<\/pubDate>/g)].map((match) => match[1]);
    expect(dates).toHaveLength(25);
    for (const date of dates) {
      expect(date).toMatch(/^\w{3}, \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} -0500$/);
      expect(Date.parse(date)).toBeLessThanOrEqual(T0);
      expect(Date.parse(date)).toBeGreaterThan(T0 - 86_400_000);
    }
  });

  it('declares a ttl on the desks that have one, names authors, and writes an empty category now and then on The Block', async () => {
    const ttl = async (name: string) => /<ttl>(\d+)<\/ttl>/.exec((await get(pathOf(name))).body)?.[1] ?? null;
    expect({ coindesk: await ttl('sim-coindesk'), theblock: await ttl('sim-theblock'), cointelegraph: await ttl('sim-cointelegraph') }).toEqual({
      coindesk: '5',
      theblock: '10',
      cointelegraph: null,
    });
    const coindesk = parseFeed((await get(pathOf('sim-coindesk'))).body);
    for (const item of coindesk.items) expect(item.authors.map((author) => author.name)).toEqual([expect.stringMatching(/^\S+ \S+$/)]);
    const theblock = (await get(pathOf('sim-theblock'))).body;
    expect(theblock).toContain('<category></category>');
    expect(theblock).toContain('<category><![CDATA[Markets]]></category>');
  });

  it('carries tracking parameters on Cointelegraph links, HTML with an image in its descriptions, and images as enclosures', async () => {
    const { items } = parseFeed((await get(pathOf('sim-cointelegraph'))).body);
    for (const item of items) {
      expect(item.url).toMatch(/\?utm_source=rss_feed&utm_medium=rss&utm_campaign=rss_partner_inbound$/);
      expect(item.description).toMatch(/^<p[^>]*><img src="https:[^"]+"/);
      expect(item.mediaImages.map((media) => media.url)).toEqual([expect.stringMatching(/^https:\/\/images\.sim-news\.example\/.+\.jpg$/)]);
    }
  });

  it('writes the Chinese feed in simplified Chinese', async () => {
    const feed = parseFeed((await get(pathOf('sim-zh'))).body);
    expect(feed.language).toBe('zh-CN');
    for (const item of feed.items) expect(`${item.title} ${item.description}`).toMatch(CJK);
  });

  it("gives a known stock 3 to 8 headlines naming it, its price moves as the world's prices have them", async () => {
    const listing = sim.world.markets.listing('AAPL')!;
    const { status, body } = await get(`${HEADLINE_PATH}?s=AAPL`);
    expect(status).toBe(200);
    const { items } = parseFeed(body);
    expect(items.length).toBeGreaterThanOrEqual(3);
    expect(items.length).toBeLessThanOrEqual(8);
    for (const item of items) expect(`${item.title} ${item.description}`).toMatch(/Apple|AAPL/);
    let checked = 0;
    for (const item of items) {
      const move = /traded at .+, (up|down) (\d+\.\d)% from/.exec(item.description ?? '');
      if (!move) continue;
      checked++;
      const at = item.published!.getTime();
      const change = sim.world.markets.listingPx(listing, at) / sim.world.markets.listingPx(listing, at - 86_400_000) - 1;
      expect({ title: item.title, direction: move[1], pct: move[2] }).toEqual({
        title: item.title,
        direction: change > 0 ? 'up' : 'down',
        pct: (Math.abs(change) * 100).toFixed(1),
      });
    }
    expect(checked).toBeGreaterThan(0);
    expect(sim.protocols.news.counters.headlineBySymbol).toEqual({ AAPL: 1 });
  });

  it('answers an unknown symbol with an empty channel, as Yahoo does', async () => {
    const res = await get(`${HEADLINE_PATH}?s=NOSUCH`);
    expect({ status: res.status, type: res.headers.get('content-type') }).toEqual({ status: 200, type: 'application/rss+xml; charset=utf-8' });
    expect(parseFeed(res.body).items).toEqual([]);
  });

  it("republishes the wire's release in its company's headline feed under the wire's canonical link", async () => {
    const [release] = parseFeed((await get(pathOf('sim-wire'))).body).items;
    const company = sim.world.markets.listings.find((listing) => listing.longName === release.authors[0].name)!;
    const { items } = parseFeed((await get(`${HEADLINE_PATH}?s=${encodeURIComponent(company.symbol)}`)).body);
    const republished = items.find((item) => item.title === release.title);
    expect(republished?.url).toBe(`${release.url}?utm_source=yahoo_finance&utm_medium=rss`);
    expect(republished?.id).not.toBe(release.id);
  });

  it('answers the broken feed with a 200 HTML page and an unknown feed with a 404 HTML page', async () => {
    const broken = await get('/feeds/broken.rss');
    expect({ status: broken.status, type: broken.headers.get('content-type') }).toEqual({ status: 200, type: 'text/html; charset=utf-8' });
    expect(() => parseFeed(broken.body)).toThrow();
    const missing = await get('/feeds/nope.rss');
    expect({ status: missing.status, type: missing.headers.get('content-type') }).toEqual({ status: 404, type: 'text/html; charset=utf-8' });
    expect(sim.protocols.news.counters.requestsByFeed).toEqual({ broken: 1, 'not-found': 1 });
  });
});
