import { SimWorld } from '../world/sim-world';
import { ENGLISH_DESKS, OUTLET_FEED_ITEMS, OUTLET_FEEDS, outletFeed } from './news-feeds';
import { OutletItem, outletItem, outletItems } from './outlet-items';
import { Story, STORY_SLOT_MS, StoryStream } from './story-stream';
import { ZH_COIN_NAMES } from './story-text-zh';

const MINUTE_MS = 60_000;
const NOW = Date.UTC(2025, 5, 2, 14, 7, 0);
const DAY_SLOTS = (24 * 60 * MINUTE_MS) / STORY_SLOT_MS;
const CJK = /[\u4e00-\u9fff]/;

const canonical = (url: string) => url.split('?')[0];

describe(outletItems.name, () => {
  let world: SimWorld;
  let stream: StoryStream;
  let day: Story[];

  const itemsOfDay = (name: (typeof ENGLISH_DESKS)[number]): OutletItem[] =>
    day.filter((story) => story.outlets.includes(name)).map((story) => outletItem(story, outletFeed(name)));

  beforeAll(() => {
    world = new SimWorld({ wallets: 2, seed: 42 });
    stream = new StoryStream(world.seed, world.markets);
    day = Array.from({ length: DAY_SLOTS }, (_, k) => stream.story(stream.slotAt(NOW) - k));
  });

  it('shows the latest items published by now, newest first, each with its own guid and link', () => {
    for (const feed of OUTLET_FEEDS) {
      const sut = outletItems(stream, feed, NOW);
      expect({ feed: feed.name, count: sut.length }).toEqual({ feed: feed.name, count: OUTLET_FEED_ITEMS });
      expect(sut.every((item, k) => item.publishedAt <= NOW && (k === 0 || item.publishedAt <= sut[k - 1].publishedAt))).toBe(true);
      expect(new Set(sut.map((item) => item.guid)).size).toBe(sut.length);
      expect(new Set(sut.map((item) => canonical(item.link))).size).toBe(sut.length);
      expect(sut.every((item) => item.publishedAt % 1000 === 0)).toBe(true);
    }
  });

  it('adds items on top as time passes and never rewrites the ones it showed', () => {
    for (const feed of OUTLET_FEEDS) {
      const before = outletItems(stream, feed, NOW);
      const later = outletItems(stream, feed, NOW + 30 * MINUTE_MS);
      const added = later.filter((item) => item.publishedAt > NOW);
      expect({ feed: feed.name, added: added.length > 0 }).toEqual({ feed: feed.name, added: true });
      const strip = ({ story: _story, ...item }: OutletItem) => item;
      expect(later.slice(added.length).map(strip)).toEqual(before.slice(0, OUTLET_FEED_ITEMS - added.length).map(strip));
    }
  });

  it('words one story alike but not identically on each desk that runs it: the same move, the coin named another way', () => {
    const shared = day.filter(
      (story) => story.kind === 'move' && story.tone !== 'neutral' && story.outlets.filter((name) => ENGLISH_DESKS.includes(name)).length > 1,
    );
    expect(shared.length).toBeGreaterThan(5);
    for (const story of shared) {
      // A syndicated copy is the one exception: CoinDesk's title as is.
      const desks = story.outlets.filter((name) => ENGLISH_DESKS.includes(name) && !(story.syndicated && name === 'sim-theblock'));
      const titles = desks.map((name) => outletItem(story, outletFeed(name)).title);
      expect(new Set(titles).size).toBe(titles.length);
      const tails = titles.map((title) => title.slice(title.search(/ (jumps|climbs|rallies|surges|gains|slides|tumbles|drops|sinks|falls) /)));
      expect(new Set(tails).size).toBe(1);
    }
  });

  it('names coins by cashtag, by name with the ticker in parentheses, and by name alone, always as the world lists them', () => {
    const titles = ENGLISH_DESKS.flatMap((name) => itemsOfDay(name).filter((item) => item.story.coin && item.story.kind !== 'press'));
    const styles = { cashtag: 0, nameTicker: 0, name: 0 };
    for (const { title, story } of titles) {
      const coin = story.coin!;
      const symbol = coin.symbol.toUpperCase();
      if (title.includes(`$${symbol}`)) styles.cashtag++;
      else if (title.includes(`${coin.name} (${symbol})`)) styles.nameTicker++;
      else if (title.includes(coin.name)) styles.name++;
      else throw new Error(`"${title}" does not name ${coin.id}`);
    }
    expect(styles.cashtag).toBeGreaterThan(5);
    expect(styles.nameTicker).toBeGreaterThan(5);
    expect(styles.name).toBeGreaterThan(5);
  });

  it("lets The Block syndicate CoinDesk's article: CoinDesk's title and canonical link under The Block's own guid", () => {
    const syndicated = day.filter((story) => story.syndicated);
    expect(syndicated.length).toBeGreaterThan(0);
    for (const story of syndicated) {
      const original = outletItem(story, outletFeed('sim-coindesk'));
      const copy = outletItem(story, outletFeed('sim-theblock'));
      expect(copy.title).toBe(original.title);
      expect(copy.link).toBe(`${original.link}?utm_source=theblock&utm_medium=syndication`);
      expect(copy.guid).not.toBe(original.guid);
      expect(copy.publishedAt).toBeGreaterThan(original.publishedAt);
    }
  });

  it('tracks every Cointelegraph link with utm parameters while its guid is the bare article URL', () => {
    for (const item of itemsOfDay('sim-cointelegraph')) {
      expect(item.link).toBe(`${item.guid}?utm_source=rss_feed&utm_medium=rss&utm_campaign=rss_partner_inbound`);
      expect(item.guidIsPermaLink).toBe(true);
    }
  });

  it('writes the Chinese desk in simplified Chinese, keeping the tickers in the text', () => {
    const items = day.filter((story) => story.outlets.includes('sim-zh')).map((story) => outletItem(story, outletFeed('sim-zh')));
    expect(items.length).toBeGreaterThan(DAY_SLOTS / 5);
    for (const item of items) {
      expect(item.title).toMatch(CJK);
      expect(item.body).toMatch(CJK);
      const coin = item.story.coin;
      if (coin) expect(item.title).toContain(coin.symbol.toUpperCase());
    }
    const named = items.filter((item) => item.story.coin && ZH_COIN_NAMES[item.story.coin.id]);
    expect(named.length).toBeGreaterThan(0);
    for (const item of named) expect(item.title).toContain(ZH_COIN_NAMES[item.story.coin!.id]);
    expect(items.some((item) => /比特币|以太坊/.test(item.title))).toBe(true);
  });
});
