import { hash3, unit } from '../world/prng';
import { escapeHtml, FeedEntry } from './feed-xml';
import { ENGLISH_DESKS, MentionStyle, OUTLET_FEED_ITEMS, OutletFeed, outletFeed, slugOf, withQuery } from './news-feeds';
import { pressRelease } from './press-release-text';
import { Story, STORY_SLOT_MS, StoryStream } from './story-stream';
import { englishStory, Worded } from './story-text-en';
import { chineseStory } from './story-text-zh';

/** An outlet publishes a story up to two minutes after it breaks (whole seconds, as feed dates carry). */
const MAX_DELAY_S = 120;
/** A syndicated copy follows the original by one to ten minutes. */
const SYNDICATION_DELAY_S = [60, 600];
/** Slots past the last one a feed needs, since a later slot can publish before an earlier one's late copy. */
const LATE_SLOTS = Math.ceil((MAX_DELAY_S + SYNDICATION_DELAY_S[1]) / (STORY_SLOT_MS / 1000)) + 1;
/** How far back a feed looks at most (a day of slots), so a quiet outlet cannot scan forever. */
const MAX_LOOKBACK_SLOTS = 576;
const STYLES: readonly MentionStyle[] = ['name-ticker', 'name', 'cashtag'];
const SYNDICATION_QUERY = 'utm_source=theblock&utm_medium=syndication';
const IMAGE_HOST = 'https://images.sim-news.example';

export interface OutletItem extends FeedEntry {
  story: Story;
}

function draw(story: Story, feed: OutletFeed, salt: number): number {
  return unit(hash3(story.hash, feed.index, salt));
}

/** A UUID-shaped id, as CoinDesk's guids are. */
function uuidOf(story: Story, feed: OutletFeed): string {
  const hex = [1, 2, 3, 4].map((salt) => hash3(story.hash, feed.index, salt).toString(16).padStart(8, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * How this desk names the coin: the desks running one story never pick the same style, so their headlines are
 * alike but not identical (what clustering across sources has to see through). The first usually takes its own.
 */
function styleOf(story: Story, feed: OutletFeed): MentionStyle {
  const desks = story.outlets.filter((name) => ENGLISH_DESKS.includes(name));
  const used = new Set<MentionStyle>();
  for (const name of desks) {
    const desk = outletFeed(name);
    const preferred = draw(story, desk, 0x57) < 0.7 ? desk.mentionStyle : STYLES[Math.floor(draw(story, desk, 0x58) * STYLES.length)];
    const style = [preferred, desk.mentionStyle, ...STYLES].find((candidate) => !used.has(candidate)) as MentionStyle;
    if (name === feed.name) return style;
    used.add(style);
  }
  return feed.mentionStyle;
}

function wordingOf(story: Story, feed: OutletFeed): Worded {
  if (feed.name === 'sim-wire') return pressRelease(story);
  if (feed.name === 'sim-zh') return chineseStory(story);
  return englishStory(story, styleOf(story, feed));
}

function publishedAt(story: Story, feed: OutletFeed): number {
  return story.at + 1000 * Math.floor(draw(story, feed, 0xde1a) * MAX_DELAY_S);
}

/** The item one outlet publishes for one story. */
export function outletItem(story: Story, feed: OutletFeed): OutletItem {
  if (feed.name === 'sim-theblock' && story.syndicated) return syndicatedCopy(story, feed);
  const worded = wordingOf(story, feed);
  const at = publishedAt(story, feed);
  const id = `${story.slot}${feed.index}`;
  const article = feed.articleUrl(slugOf(worded.title), at, id);
  const image = feed.channel.imageVia || feed.channel.bodyForm === 'html' ? `${IMAGE_HOST}/${feed.name}/${story.slot}.jpg` : null;
  const guid =
    feed.guid === 'opaque' ? (feed.name === 'sim-zh' ? id : uuidOf(story, feed)) : feed.guid === 'tag' ? `tag:prnewswire.example,2025:${id}` : article;
  const categories = [...worded.categories];
  if (feed.emptyCategoryEvery > 0 && story.slot % feed.emptyCategoryEvery === 0) categories.push('');
  const body =
    feed.format === 'rss' && feed.channel.bodyForm === 'html'
      ? `<p style="float:right; margin:0 0 10px 15px; width:240px;"><img src="${image}" width="240" alt="${escapeHtml(worded.title)}"></p><p>${escapeHtml(worded.summary)}</p>`
      : worded.summary;
  const author = feed.name === 'sim-wire' ? (story.listing?.longName ?? null) : feed.authors[Math.floor(draw(story, feed, 0xa7) * feed.authors.length)];
  return {
    story,
    guid,
    guidIsPermaLink: feed.guid === 'permalink',
    title: worded.title,
    link: withQuery(article, feed.linkQuery),
    body,
    publishedAt: at,
    author,
    categories,
    image: feed.channel.imageVia ? image : null,
  };
}

/** The Block running CoinDesk's article: CoinDesk's title and link (its own tracking query on it), The Block's guid. */
function syndicatedCopy(story: Story, feed: OutletFeed): OutletItem {
  const original = outletItem(story, outletFeed('sim-coindesk'));
  const [low, high] = SYNDICATION_DELAY_S;
  const at = original.publishedAt + 1000 * (low + Math.floor(draw(story, feed, 0x5d) * (high - low)));
  return {
    ...original,
    guid: `https://www.theblock.example/post/${story.slot}${feed.index}/syndicated`,
    guidIsPermaLink: false,
    link: withQuery(original.link, SYNDICATION_QUERY),
    body: `${original.body} (Originally published by SimDesk.)`,
    publishedAt: at,
    author: feed.authors[Math.floor(draw(story, feed, 0xa7) * feed.authors.length)],
    categories: ['Syndicated', ...original.categories],
    image: null,
  };
}

/** The latest `limit` items an outlet has published by `now`, newest first. */
export function outletItems(stream: StoryStream, feed: OutletFeed, now: number, limit = OUTLET_FEED_ITEMS): OutletItem[] {
  const items: OutletItem[] = [];
  const current = stream.slotAt(now);
  let extra = LATE_SLOTS;
  for (let slot = current; slot > current - MAX_LOOKBACK_SLOTS && extra > 0; slot--) {
    if (items.length >= limit) extra--;
    const story = stream.story(slot);
    if (!story.outlets.includes(feed.name)) continue;
    const item = outletItem(story, feed);
    if (item.publishedAt <= now) items.push(item);
  }
  return items.sort((a, b) => b.publishedAt - a.publishedAt || b.story.slot - a.story.slot).slice(0, limit);
}
