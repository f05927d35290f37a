import { SimulatorProtocol } from '../simulator-protocol';
import { startNews, NewsSimulation } from './news-handler';
import { BROKEN_FEED_PATH, HEADLINE_PATH, NEWS_PATH, OUTLET_FEEDS } from './news-feeds';

/**
 * The outlets' RSS and Atom feeds and Yahoo's per-ticker headline feed, all under `/feeds`. NEWS_FEEDS lists every
 * outlet but the broken one (`/feeds/broken.rss`, which suites add when they want a feed that answers HTML).
 */
export const NEWS_PROTOCOL: SimulatorProtocol<NewsSimulation> = {
  name: 'news',
  prefixes: [NEWS_PATH],
  summary: `news: ${NEWS_PATH} (${[...OUTLET_FEEDS.map((feed) => feed.path), `${HEADLINE_PATH}?s=`, BROKEN_FEED_PATH].map((path) => path.slice(NEWS_PATH.length + 1)).join(', ')})`,
  env: (baseUrl) => ({
    NEWS_FEEDS: OUTLET_FEEDS.map((feed) => `${feed.name}=${baseUrl}${feed.path}`).join(','),
    NEWS_STOCK_FEED_URL: `${baseUrl}${HEADLINE_PATH}?s={symbol}`,
  }),
  start: startNews,
};
