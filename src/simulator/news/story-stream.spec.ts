import { SimWorld } from '../world/sim-world';
import { ENGLISH_DESKS, outletFeed } from './news-feeds';
import { percent } from './news-format';
import { outletItem } from './outlet-items';
import { Story, STORY_SLOT_MS, StoryStream } from './story-stream';
import { FALL_VERBS, RISE_VERBS } from './story-text-en';

const HOUR_MS = 3_600_000;
const NOW = Date.UTC(2025, 5, 2, 14, 7, 0);
/** A day of slots before NOW. */
const DAY_SLOTS = (24 * HOUR_MS) / STORY_SLOT_MS;

function storiesOfDay(stream: StoryStream): Story[] {
  const last = stream.slotAt(NOW);
  return Array.from({ length: DAY_SLOTS }, (_, k) => stream.story(last - k));
}

describe(StoryStream.name, () => {
  let world: SimWorld;
  let sut: StoryStream;
  let day: Story[];

  beforeAll(() => {
    world = new SimWorld({ wallets: 2, seed: 42 });
    sut = new StoryStream(world.seed, world.markets);
    day = storiesOfDay(sut);
  });

  it('tells the same stories at the same slots in another world of the same seed, and others in a world of another seed', () => {
    const twin = new StoryStream(42, new SimWorld({ wallets: 2, seed: 42 }).markets);
    const other = new StoryStream(7, new SimWorld({ wallets: 2, seed: 7 }).markets);
    const titles = (stream: StoryStream) =>
      day.map(({ slot }) => {
        const story = stream.story(slot);
        return outletItem(story, outletFeed(story.outlets[0])).title;
      });
    expect(titles(twin)).toEqual(titles(sut));
    const same = titles(other).filter((title, k) => title === titles(sut)[k]).length;
    expect(same).toBeLessThan(day.length / 4);
  });

  it("reports the world's own moves: the figure is the price model's, rises read bullish and falls bearish on every desk", () => {
    const moves = day.filter((story) => story.kind === 'move');
    expect(moves.length).toBeGreaterThan(DAY_SLOTS / 5);
    const tones = new Set<string>();
    for (const story of moves) {
      const coin = world.markets.coin(story.coin!.id)!;
      const hours = story.move!.hours;
      const change = world.markets.coinPx(coin, story.at) / world.markets.coinPx(coin, story.at - hours * HOUR_MS) - 1;
      expect(story.move!.change).toBeCloseTo(change, 12);
      tones.add(story.tone);
      for (const desk of story.outlets.filter((name) => ENGLISH_DESKS.includes(name))) {
        const { title } = outletItem(story, outletFeed(desk));
        const verb = title.split(' ').find((word) => RISE_VERBS.includes(word) || FALL_VERBS.includes(word));
        if (Math.abs(change) < 0.005) {
          expect({ title, verb }).toEqual({ title, verb: undefined });
          continue;
        }
        expect({ title, rising: RISE_VERBS.includes(verb ?? '') }).toEqual({ title, rising: change > 0 });
        expect(title).toContain(` ${percent(change)}% `);
      }
      if (story.outlets.includes('sim-zh') && Math.abs(change) >= 0.005) {
        const { title } = outletItem(story, outletFeed('sim-zh'));
        expect(title).toContain(change > 0 ? `上涨${percent(change)}%` : `下跌${percent(change)}%`);
      }
    }
    expect([...tones].sort()).toEqual(expect.arrayContaining(['bearish', 'bullish']));
  });

  it('runs a market story on one to three English desks, and press releases on the wire alone', () => {
    const reach = new Set(day.filter((story) => story.kind !== 'press').map((story) => story.outlets.filter((name) => ENGLISH_DESKS.includes(name)).length));
    expect([...reach].sort()).toEqual([1, 2, 3]);
    for (const story of day.filter((candidate) => candidate.kind === 'press')) expect(story.outlets).toEqual(['sim-wire']);
    expect(day.some((story) => story.outlets.includes('sim-zh'))).toBe(true);
  });

  it('has stories that name no asset at all, and stories whose words an asset linker must not take for tickers', () => {
    const macro = day.filter((story) => story.kind === 'macro');
    const guard = day.filter((story) => story.kind === 'guard');
    expect(macro.length).toBeGreaterThan(0);
    expect(guard.length).toBeGreaterThan(0);
    for (const story of [...macro, ...guard]) expect({ coin: story.coin, listing: story.listing }).toEqual({ coin: null, listing: null });
    const guardTitles = guard.map((story) => outletItem(story, outletFeed(story.outlets[0])).title).join(' | ');
    expect(guardTitles).toMatch(/\bone\b|\bsolution\b|\bIT\b|\bAI\b|\bnear\b|\blink\b|\btons\b|\bdot\b/);
  });

  it('wires results that follow the shares: revenue up when the stock rose over the day, down when it fell', () => {
    const results = day.filter((story) => story.kind === 'press' && story.variant === 0 && story.tone !== 'neutral');
    expect(results.length).toBeGreaterThan(0);
    for (const story of results) {
      const listing = world.markets.listing(story.listing!.symbol)!;
      const change = world.markets.listingPx(listing, story.at) / world.markets.listingPx(listing, story.at - 24 * HOUR_MS) - 1;
      const { title } = outletItem(story, outletFeed('sim-wire'));
      expect(title).toMatch(change > 0 ? /Revenue Up \d/ : /Revenue Down \d/);
      expect(title).toContain(listing.longName);
    }
  });
});
