import { hash2, unit } from '../world/prng';
import { CryptoCoin } from '../world/crypto-universe';
import { MarketBook } from '../world/market-book';
import { cgPrice, DAY_MS, HOUR_MS, imageUrl, isoMs, pctChange, round } from './coin-markets';
import { coinTickers } from './coin-tickers';
import { inEveryCurrency, unitsPerUsd, VS_CURRENCIES } from './vs-currencies';

const LANGUAGES = ['en', 'de', 'es', 'fr', 'it', 'pl', 'ro', 'hu', 'nl', 'pt', 'sv', 'vi', 'tr', 'ru', 'ja', 'zh', 'zh-tw', 'ko', 'ar', 'th', 'id'];
/** The detail's `*_in_currency` windows (a superset of the markets list: 60d is detail-only). */
const DETAIL_WINDOWS: Array<[name: string, ms: number]> = [
  ['1h', HOUR_MS],
  ['24h', DAY_MS],
  ['7d', 7 * DAY_MS],
  ['14d', 14 * DAY_MS],
  ['30d', 30 * DAY_MS],
  ['60d', 60 * DAY_MS],
  ['200d', 200 * DAY_MS],
  ['1y', 365 * DAY_MS],
];

export interface DetailOptions {
  localization: boolean;
  tickers: boolean;
  marketData: boolean;
  communityData: boolean;
  developerData: boolean;
}

function description(coin: CryptoCoin): string {
  const supply = coin.max === null ? 'no maximum supply' : `a maximum supply of ${coin.max.toLocaleString('en-US')} ${coin.symbol.toUpperCase()}`;
  return `${coin.name} (${coin.symbol.toUpperCase()}) is a ${coin.categories[0].toLowerCase()} asset with ${supply}. This text is simulated.`;
}

function links(coin: CryptoCoin): object {
  const site = `https://${coin.id.replace(/-/g, '')}.org`;
  return {
    homepage: [site, '', ''],
    blockchain_site: [`https://explorer.${coin.id}.org/`, '', '', '', ''],
    official_forum_url: ['', '', ''],
    chat_url: ['', '', ''],
    announcement_url: ['', ''],
    twitter_screen_name: coin.id.replace(/-/g, ''),
    facebook_username: '',
    bitcointalk_thread_identifier: null,
    telegram_channel_identifier: '',
    subreddit_url: `https://www.reddit.com/r/${coin.name.replace(/[^A-Za-z0-9]/g, '')}/`,
    repos_url: { github: [`https://github.com/${coin.id}/${coin.id}`], bitbucket: [] },
  };
}

function marketData(book: MarketBook, coin: CryptoCoin, rank: number, t: number): object {
  const usdAt = (at: number) => book.coinPx(coin, at);
  const px = usdAt(t);
  const px24 = usdAt(t - DAY_MS);
  const cap = coin.circulating * px;
  const cap24 = coin.circulating * px24;
  const range = book.range24h(usdAt, t);
  const extremes = book.extremes(coin.seed, coin.process.basePx * coin.scale, px);
  const every = (usd: number, rounder: (value: number) => number = cgPrice) => inEveryCurrency(book, usd, t, rounder);
  const same = <T>(value: T) => Object.fromEntries(VS_CURRENCIES.map((currency) => [currency, value]));
  const pctInEvery = (ms: number) =>
    Object.fromEntries(
      VS_CURRENCIES.map((currency) => {
        const now = px * (unitsPerUsd(book, currency, t) ?? 1);
        const then = usdAt(t - ms) * (unitsPerUsd(book, currency, t - ms) ?? 1);
        return [currency, round(pctChange(now, then) ?? 0, 5)];
      }),
    );
  const supply = coin.max ?? coin.total;
  const data: Record<string, unknown> = {
    current_price: every(px),
    total_value_locked: null,
    mcap_to_tvl_ratio: null,
    fdv_to_tvl_ratio: null,
    roi: null,
    ath: every(extremes.ath),
    ath_change_percentage: same(round(pctChange(px, extremes.ath) ?? 0, 5)),
    ath_date: same(isoMs(extremes.athAt)),
    atl: every(extremes.atl),
    atl_change_percentage: same(round(pctChange(px, extremes.atl) ?? 0, 5)),
    atl_date: same(isoMs(extremes.atlAt)),
    market_cap: every(cap, Math.round),
    market_cap_rank: rank,
    fully_diluted_valuation: supply === null ? {} : every(px * supply, Math.round),
    total_volume: every(book.coinVolume24h(coin, t), Math.round),
    high_24h: every(range.high),
    low_24h: every(range.low),
    price_change_24h: cgPrice(px - px24),
  };
  for (const [name, ms] of DETAIL_WINDOWS.slice(1)) data[`price_change_percentage_${name}`] = round(pctChange(px, usdAt(t - ms)) ?? 0, 5);
  data.market_cap_change_24h = round(cap - cap24, 3);
  data.market_cap_change_percentage_24h = round(pctChange(cap, cap24) ?? 0, 5);
  data.price_change_24h_in_currency = every(px - px24, (value) => round(value, 8));
  for (const [name, ms] of DETAIL_WINDOWS) data[`price_change_percentage_${name}_in_currency`] = pctInEvery(ms);
  data.market_cap_change_24h_in_currency = every(cap - cap24, (value) => round(value, 3));
  data.market_cap_change_percentage_24h_in_currency = same(round(pctChange(cap, cap24) ?? 0, 5));
  data.total_supply = coin.total;
  data.max_supply = coin.max;
  data.circulating_supply = coin.circulating;
  data.last_updated = isoMs(t);
  return data;
}

/** `/coins/{id}`: the full document, with the sections the query turns off left out as upstream does. */
export function coinDetail(book: MarketBook, coin: CryptoCoin, rank: number, t: number, options: DetailOptions): object {
  const score = (salt: number, max: number) => round(unit(hash2(coin.seed, salt)) * max, 3);
  const text = description(coin);
  const body: Record<string, unknown> = {
    id: coin.id,
    symbol: coin.symbol,
    name: coin.name,
    asset_platform_id: null,
    platforms: { '': '' },
    block_time_in_minutes: coin.blockMinutes,
    hashing_algorithm: coin.hashing,
    categories: coin.categories,
    public_notice: null,
    additional_notices: [],
  };
  if (options.localization) body.localization = Object.fromEntries(LANGUAGES.map((language) => [language, coin.name]));
  body.description = options.localization ? Object.fromEntries(LANGUAGES.map((language) => [language, text])) : { en: text };
  Object.assign(body, {
    links: links(coin),
    image: { thumb: imageUrl(coin, 'thumb'), small: imageUrl(coin, 'small'), large: imageUrl(coin, 'large') },
    country_origin: '',
    genesis_date: coin.genesis,
    sentiment_votes_up_percentage: round(50 + score(1, 40), 2),
    sentiment_votes_down_percentage: 0,
    market_cap_rank: rank,
    coingecko_rank: rank + 1,
    coingecko_score: score(2, 80),
    developer_score: score(3, 100),
    community_score: score(4, 70),
    liquidity_score: score(5, 100),
    public_interest_score: 0,
  });
  body.sentiment_votes_down_percentage = round(100 - (body.sentiment_votes_up_percentage as number), 2);
  if (options.marketData) body.market_data = marketData(book, coin, rank, t);
  if (options.communityData) {
    body.community_data = {
      facebook_likes: null,
      twitter_followers: Math.round(score(6, 5_000_000)),
      reddit_average_posts_48h: score(7, 10),
      reddit_average_comments_48h: score(8, 2000),
      reddit_subscribers: Math.round(score(9, 3_000_000)),
      reddit_accounts_active_48h: Math.round(score(10, 10_000)),
      telegram_channel_user_count: null,
    };
  }
  if (options.developerData) {
    body.developer_data = {
      forks: Math.round(score(11, 30_000)),
      stars: Math.round(score(12, 60_000)),
      subscribers: Math.round(score(13, 4000)),
      total_issues: Math.round(score(14, 7000)),
      closed_issues: Math.round(score(15, 6000)),
      pull_requests_merged: Math.round(score(16, 9000)),
      pull_request_contributors: Math.round(score(17, 800)),
      code_additions_deletions_4_weeks: { additions: Math.round(score(18, 9000)), deletions: -Math.round(score(19, 2000)) },
      commit_count_4_weeks: Math.round(score(20, 400)),
      last_4_weeks_commit_activity_series: Array.from({ length: 28 }, (_, day) => Math.floor(unit(hash2(coin.seed ^ 0xc0, day)) * 30)),
    };
  }
  body.public_interest_stats = { alexa_rank: Math.round(score(21, 20_000)), bing_matches: null };
  body.status_updates = [];
  body.last_updated = isoMs(t);
  if (options.tickers) body.tickers = coinTickers(book, coin, t).slice(0, 100);
  return body;
}
