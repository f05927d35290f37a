import { loadAppConfig } from './app.config';
import { ConfigurationError } from './env.validation';
import { DEFAULT_NEWS_FEEDS, parseNewsFeeds } from './news.env';

describe('news configuration', () => {
  it('reads the default outlets as name=url pairs, each name its source', () => {
    const { feeds } = loadAppConfig({}).news;

    expect(feeds.map((feed) => feed.name)).toEqual(['coindesk', 'cointelegraph', 'decrypt', 'theblock', 'prnewswire']);
    expect(feeds).toEqual(parseNewsFeeds(DEFAULT_NEWS_FEEDS));
    expect(feeds.every((feed) => feed.url.startsWith('https://'))).toBe(true);
  });

  it('reads no outlet from NEWS_FEEDS=none and no stock feed from NEWS_STOCK_FEED_URL=none; empty means the defaults', () => {
    const { news } = loadAppConfig({ NEWS_FEEDS: 'none', NEWS_STOCK_FEED_URL: 'none' });

    expect(news.feeds).toEqual([]);
    expect(news.stockFeedUrl).toBeNull();
    expect(loadAppConfig({ NEWS_FEEDS: '', NEWS_STOCK_FEED_URL: '' }).news.feeds).toHaveLength(5);
  });

  it.each([
    ['NEWS_FEEDS', 'coindesk=ftp://example.com/rss'],
    ['NEWS_FEEDS', 'a=https://x.example/1,a=https://x.example/2'],
    ['NEWS_FEEDS', 'Upper=https://x.example/rss'],
    ['NEWS_STOCK_FEED_URL', 'https://feeds.example/headline?s=AAPL'],
    ['NEWS_ANALYSIS_VENDOR', 'gpt'],
  ])('refuses %s=%s, naming it', (name, value) => {
    expect(() => loadAppConfig({ [name]: value })).toThrow(ConfigurationError);
    expect(() => loadAppConfig({ [name]: value })).toThrow(name);
  });

  it('analyses with the LLM once its base URL and model are set, with the built-in analyser otherwise, and as told when told', () => {
    expect(loadAppConfig({}).news.analysisVendor).toBe('builtin');
    expect(loadAppConfig({ NEWS_LLM_BASE_URL: 'http://127.0.0.1:11434/v1' }).news.analysisVendor).toBe('builtin');
    expect(loadAppConfig({ NEWS_LLM_BASE_URL: 'http://127.0.0.1:11434/v1/', NEWS_LLM_MODEL: 'llama3.1' }).news).toMatchObject({
      analysisVendor: 'openai',
      llm: { baseUrl: 'http://127.0.0.1:11434/v1', model: 'llama3.1' },
    });
    expect(loadAppConfig({ NEWS_ANALYSIS_VENDOR: 'none', NEWS_LLM_BASE_URL: 'http://x.example/v1', NEWS_LLM_MODEL: 'm' }).news.analysisVendor).toBe('none');
  });
});
