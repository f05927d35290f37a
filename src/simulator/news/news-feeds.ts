import { FeedChannel } from './feed-xml';

export const NEWS_PATH = '/feeds';
/** Yahoo's per-ticker headline feed: `?s=AAPL` (several symbols comma-separated). */
export const HEADLINE_PATH = `${NEWS_PATH}/headline`;
/** A feed URL that answers a 200 HTML page (a bot-challenge page) instead of a feed: not listed in NEWS_FEEDS. */
export const BROKEN_FEED_PATH = `${NEWS_PATH}/broken.rss`;
/** Items an outlet feed shows: the latest ones, as real feeds cap theirs. */
export const OUTLET_FEED_ITEMS = 25;

export type OutletName = 'sim-coindesk' | 'sim-cointelegraph' | 'sim-theblock' | 'sim-zh' | 'sim-wire';
/** The English crypto desks a market story can run on; the Chinese desk translates some, the wire carries press releases. */
export const ENGLISH_DESKS: readonly OutletName[] = ['sim-coindesk', 'sim-cointelegraph', 'sim-theblock'];

/** How an outlet names an asset in its headlines: `Bitcoin (BTC)`, `Bitcoin`, or the cashtag `$BTC`. */
export type MentionStyle = 'name-ticker' | 'name' | 'cashtag';

/** One outlet: where it answers, how it writes its feed, and the habits of its links and ids the reader must cope with. */
export interface OutletFeed {
  name: OutletName;
  path: string;
  format: 'rss' | 'atom';
  channel: FeedChannel & { id: string };
  /** Index in the outlet list, salting its draws (delays, authors). */
  index: number;
  guid: 'opaque' | 'permalink' | 'tag';
  /** Query appended to every item link (tracking parameters), '' for none. */
  linkQuery: string;
  /** The article's URL; `id` (slot and outlet) keeps two stories with one headline apart, as outlets suffix repeated slugs. */
  articleUrl: (slug: string, at: number, id: string) => string;
  /** The style it mostly uses; others appear now and then, so every style shows on every desk. */
  mentionStyle: MentionStyle;
  authors: readonly string[];
  /** One in this many items carries an empty `<category>` too; 0 never. */
  emptyCategoryEvery: number;
}

const datePath = (at: number) => new Date(at).toISOString().slice(0, 10).replace(/-/g, '/');

export const OUTLET_FEEDS: readonly OutletFeed[] = [
  {
    name: 'sim-coindesk',
    path: `${NEWS_PATH}/coindesk.rss`,
    format: 'rss',
    channel: {
      id: 'sim-coindesk',
      title: 'SimDesk: Bitcoin, Ethereum, Crypto News and Price Data',
      link: 'https://www.coindesk.example',
      description: 'Market-moving crypto news from the simulated world.',
      language: 'en',
      ttlMinutes: 5,
      offsetMinutes: 0,
      bodyForm: 'double-encoded',
      imageVia: 'media',
    },
    index: 0,
    guid: 'opaque',
    linkQuery: '',
    articleUrl: (slug, at, id) => `https://www.coindesk.example/markets/${datePath(at)}/${slug}-${id}`,
    mentionStyle: 'name-ticker',
    authors: ['Ava Lindqvist', 'Marcus Oyelaran', 'Priya Natarajan', 'Tomás Ferreira'],
    emptyCategoryEvery: 0,
  },
  {
    name: 'sim-cointelegraph',
    path: `${NEWS_PATH}/cointelegraph.rss`,
    format: 'rss',
    channel: {
      id: 'sim-cointelegraph',
      title: 'SimTelegraph.com News',
      link: 'https://cointelegraph.example',
      description: 'The future of money, simulated.',
      language: 'en',
      ttlMinutes: null,
      offsetMinutes: 0,
      bodyForm: 'html',
      imageVia: 'enclosure',
    },
    index: 1,
    guid: 'permalink',
    linkQuery: 'utm_source=rss_feed&utm_medium=rss&utm_campaign=rss_partner_inbound',
    articleUrl: (slug, _at, id) => `https://cointelegraph.example/news/${slug}-${id}`,
    mentionStyle: 'name',
    authors: ['Lena Hoffmann', 'Kenji Arakawa', 'Zoë Martel'],
    emptyCategoryEvery: 0,
  },
  {
    name: 'sim-theblock',
    path: `${NEWS_PATH}/theblock.rss`,
    format: 'rss',
    channel: {
      id: 'sim-theblock',
      title: 'The Sim Block',
      link: 'https://www.theblock.example',
      description: 'Data-driven crypto reporting on the simulated market.',
      language: 'en-US',
      ttlMinutes: 10,
      offsetMinutes: -300,
      bodyForm: 'text',
      imageVia: null,
    },
    index: 2,
    guid: 'permalink',
    linkQuery: '',
    articleUrl: (slug, _at, id) => `https://www.theblock.example/post/${id}/${slug}`,
    mentionStyle: 'cashtag',
    authors: ['Daniel Okafor', 'Ines Carvalho', 'Ravi Menon'],
    emptyCategoryEvery: 3,
  },
  {
    name: 'sim-zh',
    path: `${NEWS_PATH}/zh.rss`,
    format: 'rss',
    channel: {
      id: 'sim-zh',
      title: '模拟财经 · 加密快讯',
      link: 'https://www.zh-news.example',
      description: '模拟世界的加密市场快讯',
      language: 'zh-CN',
      ttlMinutes: 5,
      offsetMinutes: 480,
      bodyForm: 'text',
      imageVia: null,
    },
    index: 3,
    guid: 'opaque',
    linkQuery: '',
    articleUrl: (_slug, _at, id) => `https://www.zh-news.example/newsflash/${id}`,
    mentionStyle: 'name-ticker',
    authors: ['陈思远', '李晓彤', '王浩然'],
    emptyCategoryEvery: 0,
  },
  {
    name: 'sim-wire',
    path: `${NEWS_PATH}/wire.atom`,
    format: 'atom',
    channel: {
      id: 'tag:prnewswire.example,2025:news-releases',
      title: 'SimWire: News Releases',
      link: 'https://www.prnewswire.example/news-releases/',
      description: 'Press releases from the companies of the simulated world.',
      language: 'en',
      ttlMinutes: null,
      offsetMinutes: -300,
      bodyForm: 'html',
      imageVia: null,
    },
    index: 4,
    guid: 'tag',
    linkQuery: '',
    articleUrl: (slug, _at, id) => `https://www.prnewswire.example/news-releases/${slug}-${id}.html`,
    mentionStyle: 'name-ticker',
    authors: [],
    emptyCategoryEvery: 0,
  },
];

export function outletFeed(name: OutletName): OutletFeed {
  return OUTLET_FEEDS.find((feed) => feed.name === name) as OutletFeed;
}

/** A headline as a URL slug: `bitcoin-btc-jumps-4-2-as-etf-inflows-build`. */
export function slugOf(title: string): string {
  return (
    title
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 80)
      .replace(/-+$/, '') || 'story'
  );
}

/** `url` with `query` appended (tracking parameters). */
export function withQuery(url: string, query: string): string {
  if (query === '') return url;
  return `${url}${url.includes('?') ? '&' : '?'}${query}`;
}
