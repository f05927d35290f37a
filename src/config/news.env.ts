import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, IsUrl, Matches, Max, MaxLength, Min, ValidateBy } from 'class-validator';
import { AuthVariables } from './auth.env';
import { emptyToUndefined, toBoolean, toInt } from './env-validators';

export type AnalysisVendor = 'openai' | 'builtin' | 'none';

/** One configured feed: a stable name (the item's `source`) and its URL. */
export interface NewsFeedSetting {
  name: string;
  url: string;
}

/** The real outlets' public feeds (research A1): crypto desks and a press-release wire. */
export const DEFAULT_NEWS_FEEDS =
  'coindesk=https://www.coindesk.com/arc/outboundfeeds/rss,' +
  'cointelegraph=https://cointelegraph.com/rss,' +
  'decrypt=https://decrypt.co/feed,' +
  'theblock=https://www.theblock.co/rss.xml,' +
  'prnewswire=https://www.prnewswire.com/rss/news-releases-list.rss';

/** Yahoo Finance's per-ticker headline feed; `{symbol}` is the stock's Yahoo symbol (AAPL, 0700.HK). */
export const DEFAULT_STOCK_FEED_URL = 'https://feeds.finance.yahoo.com/rss/2.0/headline?s={symbol}&region=US&lang=en-US';

const FEED_NAME = /^[a-z0-9][a-z0-9-]{0,31}$/;

/** Says "no feed" where an empty value would mean "unset, take the default" (.env.example's `NAME=`). */
export const NO_FEED = 'none';

/** `name=url,name=url`: names lower-case and unique (the item's `source`), URLs http(s); `none`: no feed. */
export function parseNewsFeeds(text: string): NewsFeedSetting[] {
  if (text.trim() === NO_FEED) return [];
  return text.split(',').map((entry) => {
    const at = entry.indexOf('=');
    return { name: entry.slice(0, at).trim(), url: entry.slice(at + 1).trim() };
  });
}

function isFeedList(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  const feeds = parseNewsFeeds(value);
  const names = new Set(feeds.map((feed) => feed.name));
  return names.size === feeds.length && feeds.every((feed) => FEED_NAME.test(feed.name) && /^https?:\/\/\S+$/.test(feed.url));
}

function IsFeedList() {
  return ValidateBy({
    name: 'isFeedList',
    validator: {
      validate: isFeedList,
      defaultMessage: () => 'NEWS_FEEDS must be none or a comma-separated list of name=url (names: unique, a-z, 0-9 and -, up to 32; URLs http or https)',
    },
  });
}

/** Who analyses when NEWS_ANALYSIS_VENDOR is unset: the LLM once its base URL and model are set, else the built-in analyser. */
export function analysisVendorOf(env: Pick<NewsVariables, 'NEWS_ANALYSIS_VENDOR' | 'NEWS_LLM_BASE_URL' | 'NEWS_LLM_MODEL'>): AnalysisVendor {
  return env.NEWS_ANALYSIS_VENDOR ?? (env.NEWS_LLM_BASE_URL && env.NEWS_LLM_MODEL ? 'openai' : 'builtin');
}

/** The news settings: feeds, the analyser and the two jobs. StockVendorVariables extends it. */
export class NewsVariables extends AuthVariables {
  /** The switch of every news.* job (ingestion and analysis). */
  @Transform(toBoolean)
  @IsOptional()
  @IsBoolean()
  NEWS_JOBS_ENABLED = true;

  /** `name=url` pairs, comma-separated; `none` reads no outlet feed. */
  @IsOptional()
  @IsFeedList()
  NEWS_FEEDS = DEFAULT_NEWS_FEEDS;

  /** Per-stock headline feed, `{symbol}` replaced by each catalogue stock's Yahoo symbol; `none` reads none. */
  @IsOptional()
  @IsString()
  @MaxLength(500)
  @Matches(/^none$|^https?:\/\/\S*\{symbol\}\S*$/, { message: 'NEWS_STOCK_FEED_URL must be none or an http(s) URL containing {symbol}' })
  NEWS_STOCK_FEED_URL = DEFAULT_STOCK_FEED_URL;

  /** The `source` (and the stock news `provider`) of items read from the per-stock feeds. */
  @IsOptional()
  @Matches(/^[a-z0-9][a-z0-9-]{0,31}$/, { message: 'NEWS_STOCK_FEED_SOURCE must be a-z, 0-9 and -, up to 32 characters' })
  NEWS_STOCK_FEED_SOURCE = 'yahoo-finance';

  @Transform(toBoolean)
  @IsOptional()
  @IsBoolean()
  NEWS_INGEST_ENABLED = true;

  @Transform(toBoolean)
  @IsOptional()
  @IsBoolean()
  NEWS_ANALYSE_ENABLED = true;

  /** How often the ingestion job looks for due feeds. */
  @Transform(toInt)
  @IsInt()
  @Min(5_000)
  @Max(3_600_000)
  NEWS_INGEST_INTERVAL_MS = 60_000;

  /** The least time between two reads of one outlet feed; a feed's own `ttl` can only lengthen it. */
  @Transform(toInt)
  @IsInt()
  @Min(1_000)
  @Max(86_400_000)
  NEWS_FEED_MIN_INTERVAL_MS = 300_000;

  /** How often each stock's headline feed is read (there are hundreds: they take turns). */
  @Transform(toInt)
  @IsInt()
  @Min(1_000)
  @Max(86_400_000)
  NEWS_STOCK_FEED_INTERVAL_MS = 1_800_000;

  /** A stock's news is `fresh` while its feed's last good read is younger than this, `stale` after. */
  @Transform(toInt)
  @IsInt()
  @Min(60_000)
  @Max(7 * 86_400_000)
  NEWS_STOCK_FRESH_MS = 3_600_000;

  /** Feed requests a minute, all feeds and replicas together. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(100_000)
  NEWS_FEED_REQUESTS_PER_MINUTE = 60;

  /** Per feed read, covering the whole body. */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(120_000)
  NEWS_FEED_TIMEOUT_MS = 15_000;

  /** Who writes the analysis: openai (any OpenAI-compatible server), builtin (offline, English only), none. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsIn(['openai', 'builtin', 'none'])
  NEWS_ANALYSIS_VENDOR?: AnalysisVendor;

  /** An OpenAI-compatible API root: https://api.openai.com/v1, http://localhost:11434/v1 (Ollama), a vLLM server. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsUrl({ require_tld: false, require_protocol: true })
  NEWS_LLM_BASE_URL?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  @MaxLength(200)
  NEWS_LLM_MODEL?: string;

  /** Sent as the bearer key; local servers ignore it. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  @MaxLength(500)
  NEWS_LLM_API_KEY?: string;

  @Transform(toInt)
  @IsInt()
  @Min(1_000)
  @Max(600_000)
  NEWS_LLM_TIMEOUT_MS = 60_000;

  /** The answer's token cap per call; an answer cut at it is discarded and retried later. */
  @Transform(toInt)
  @IsInt()
  @Min(64)
  @Max(32_000)
  NEWS_LLM_MAX_TOKENS = 1_200;

  /** Translate the English analysis into the seven other locales (only with an LLM). */
  @Transform(toBoolean)
  @IsOptional()
  @IsBoolean()
  NEWS_TRANSLATIONS_ENABLED = true;

  /** How long each replica answers a news page (feed, search, stock news) from memory; 0 reads every time. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(60_000)
  NEWS_PAGE_CACHE_MS = 5_000;

  /** How often the analysis job looks for items without analysis or translations. */
  @Transform(toInt)
  @IsInt()
  @Min(1_000)
  @Max(3_600_000)
  NEWS_ANALYSE_INTERVAL_MS = 30_000;

  /** Analyser calls in flight at once within one run. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(64)
  NEWS_ANALYSIS_CONCURRENCY = 4;

  /** The cost budget: analyser calls an hour, all replicas together (each translation is a call). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  NEWS_ANALYSIS_CALLS_PER_HOUR = 600;

  /** Items (or translations) one run takes on at most. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(10_000)
  NEWS_ANALYSIS_BATCH = 100;
}
