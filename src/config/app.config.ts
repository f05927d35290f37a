import { resolve } from 'node:path';
import { existsSync } from 'node:fs';
import { ConfigurationError, EnvironmentVariables, validateEnvironment } from './env.validation';
import { DEV_CURSOR_SECRET, DEV_JWT_SECRET } from './production-secrets';
import { FilingsVendor, filingsVendorOf } from './stock-vendors.env';
import { AnalysisVendor, analysisVendorOf, NewsFeedSetting, NO_FEED, parseNewsFeeds } from './news.env';

export type HttpAdapterName = 'express' | 'fastify';
/** false: the socket's address is the client's; true: the first X-Forwarded-For entry; a hop count; or the proxies' addresses. */
export type TrustProxy = boolean | number | string[];

/** Every job the schedule may run, by its ops name (also its lock and the `job:run` argument). */
export const SCHEDULED_JOBS = [
  'hl.markets',
  'hl.mids',
  'hl.positions',
  'hl.trades',
  'hl.fills',
  'hl.leaderboard',
  'hl.snapshot',
  'markets.crypto',
  'markets.tradfi',
  'news.ingest',
  'news.analyse',
  'notifications.generate',
  'economy.builder-fills',
  'rewards.publish-round',
  'rewards.claims',
  'housekeeping.job-runs',
  'housekeeping.notifications',
] as const;
export type ScheduledJobName = (typeof SCHEDULED_JOBS)[number];

/** One job's switch (its own and its family's together) and cadence. */
export interface JobSchedule {
  enabled: boolean;
  intervalMs: number;
}

export type LogFormat = 'json' | 'pretty';

export interface AppConfig {
  env: 'development' | 'production' | 'test';
  logLevel: 'error' | 'warn' | 'log' | 'debug' | 'verbose';
  /** json: one JSON object a line (production); pretty: one readable line, for a person at a terminal. */
  logFormat: LogFormat;
  /** Whether a request's log lines carry its id wherever they are written (AsyncLocalStorage, a cost per promise). */
  logRequestContext: boolean;
  /** GET /metrics (Prometheus text); off, the route does not exist. */
  metrics: { enabled: boolean };
  http: { port: number; host: string; adapter: HttpAdapterName };
  database: { url?: string; dataDir: string; migrationsRun: boolean };
  redis: { url?: string; keyPrefix: string; autoPipelining: boolean; commandTimeoutMs: number };
  /** Where live balances and charges are kept (CreditStoreKind, or auto), and how long an admission may wait for it. */
  billing: { creditsStore: 'auto' | 'redis' | 'postgres'; admissionTimeoutMs: number };
  security: { cursorSecret: string; jwtSecret: string };
  /** The wallet-session backend: the sign-in challenge, token and session lifetimes, the auth routes' rate limits. */
  auth: {
    siwe: { domain: string; uri: string; chainId: number; statement: string };
    challengeTtlMs: number;
    /** AUTH_CHALLENGES_MAX: login challenges outstanding at once, over every client. */
    maxOutstanding: number;
    tokenTtlMs: number;
    sessionMaxMs: number;
    refreshGraceMs: number;
    rateLimit: { perIp: number; perAddress: number };
    /** Set: smart-contract wallets sign in through EIP-1271 calls to this JSON-RPC endpoint. */
    rpcUrl?: string;
  };
  apiKeys: { cacheTtlMs: number; touchIntervalMs: number; failedLookupsPerMinute: number; staleIfErrorMs: number; lookupTimeoutMs: number };
  /** The node HTTP server under either adapter: timeouts, and which proxies' X-Forwarded-For to believe. */
  httpServer: {
    requestTimeoutMs: number;
    headersTimeoutMs: number;
    keepAliveTimeoutMs: number;
    /** How long a stop waits for the requests in flight before it closes their connections. */
    shutdownGraceMs: number;
    trustProxy: TrustProxy;
  };
  ledger: { flushIntervalMs: number };
  usage: { flushIntervalMs: number; syncIntervalMs: number };
  hyperliquid: {
    infoUrl: string;
    statsUrl: string;
    /** Request weight the upstream allows per minute per IP; 0 turns budgeting off (simulator benchmarks). */
    weightPerMinute: number;
    /** Percent of weightPerMinute that history reads (trades, fills) may spend, so they never starve account reads. */
    historyWeightShare: number;
    timeoutMs: number;
    maxRetries: number;
  };
  /** The market-data vendors; each client is built from its part, the budgets are shared by all replicas. */
  marketVendors: {
    cryptoVendor: 'coingecko' | 'none';
    tradfiVendor: 'yahoo' | 'none';
    coingecko: { plan: 'demo' | 'pro'; apiKey?: string; apiUrl: string; callsPerMinute: number };
    binance: { apiUrl: string; weightPerMinute: number };
    yahoo: { queryUrl: string; cookieUrl: string; callsPerMinute: number };
    timeoutMs: number;
    maxRetries: number;
  };
  /** The stocks vendors; timeouts and retries are marketVendors'. The SEC budget is per second, shared by all replicas. */
  stockVendors: {
    filingsVendor: FilingsVendor;
    /** archivesUrl: the public base of the filing links handed to clients. */
    sec: { userAgent?: string; dataUrl: string; filesUrl: string; archivesUrl: string; requestsPerSecond: number };
  };
  /** News: the feeds read, the analyser, and its cost budget. */
  news: {
    feeds: NewsFeedSetting[];
    /** Contains `{symbol}`; null reads no per-stock feed. */
    stockFeedUrl: string | null;
    stockFeedSource: string;
    feedMinIntervalMs: number;
    stockFeedIntervalMs: number;
    stockFreshMs: number;
    feedRequestsPerMinute: number;
    feedTimeoutMs: number;
    analysisVendor: AnalysisVendor;
    llm: { baseUrl?: string; model?: string; apiKey?: string; timeoutMs: number; maxTokens: number };
    translationsEnabled: boolean;
    analysisConcurrency: number;
    analysisCallsPerHour: number;
    analysisBatch: number;
    pageCacheMs: number;
  };
  /** The crypto universe's size: the top N coins by market cap. */
  markets: { cryptoUniverse: number };
  hlJobs: {
    /** HL_JOBS_ENABLED: the switch of every hl.* job, already folded into jobs.schedules. */
    enabled: boolean;
    midsIntervalMs: number;
    positionsIntervalMs: number;
    tradesIntervalMs: number;
    snapshotIntervalMs: number;
    leaderboardIntervalMs: number;
    pollConcurrency: number;
    pollBatch: number;
    /** Every HIP-3 dex is read at least this often per address; in between only those it held positions on. */
    fullReadIntervalMs: number;
    snapshotRetention: number;
    /** Fills older than this are pruned: the smart-trader aggregates are over the fills held. */
    fillsRetentionDays: number;
  };
  hl: { holderPagesCached: number };
  jobs: {
    /** JOBS_ENABLED: false, this replica schedules no job (job:run still runs any). */
    enabled: boolean;
    /** Every job's switch and cadence, in one place: the schedule reads them, the job modules only the lease. */
    schedules: Record<ScheduledJobName, JobSchedule>;
    runsRetentionDays: number;
  };
  /** NOTIFICATIONS_RETENTION_DAYS: days a read notification is kept before housekeeping prunes it. */
  notifications: { retentionDays: number };
  /** The account programmes: the service's builder, the fills' backfill, points' floor, and the claim rounds. */
  economy: {
    builderAddress?: string;
    baseFeeTenthsBps: number;
    backfillDays: number;
    pointsMinNotionalUsd: number;
    rewards: { distributor?: string; tokenSymbol: string; tokenDecimals: number; rpcUrl?: string; fromBlock: number };
  };
}

/** Loads `.env` (when present, without overriding the real environment) so the CLI and TypeORM CLI see what the server sees. */
export function loadDotEnv(path = resolve(process.cwd(), '.env')): void {
  if (existsSync(path)) process.loadEnvFile(path);
}

/** Flat environment -> nested typed configuration; the single reader of process.env. */
export function loadAppConfig(raw: Record<string, unknown> = process.env): AppConfig {
  const env = validateEnvironment(raw);
  return {
    env: env.NODE_ENV,
    logLevel: env.LOG_LEVEL,
    logFormat: env.LOG_FORMAT ?? (env.NODE_ENV === 'production' ? 'json' : 'pretty'),
    logRequestContext: env.LOG_REQUEST_CONTEXT ?? env.NODE_ENV !== 'production',
    metrics: { enabled: env.METRICS_ENABLED },
    http: { port: env.PORT, host: env.HTTP_HOST, adapter: env.HTTP_ADAPTER },
    database: { url: env.DATABASE_URL, dataDir: resolve(env.DATA_DIR), migrationsRun: env.MIGRATIONS_RUN },
    redis: { url: env.REDIS_URL, keyPrefix: env.REDIS_KEY_PREFIX, autoPipelining: env.REDIS_AUTO_PIPELINING, commandTimeoutMs: env.REDIS_COMMAND_TIMEOUT_MS },
    billing: { creditsStore: env.CREDITS_STORE, admissionTimeoutMs: env.ADMISSION_TIMEOUT_MS },
    security: {
      cursorSecret: env.CURSOR_SECRET ?? DEV_CURSOR_SECRET,
      jwtSecret: env.JWT_SECRET ?? DEV_JWT_SECRET,
    },
    auth: authSettings(env),
    apiKeys: {
      cacheTtlMs: env.API_KEY_CACHE_TTL_MS,
      touchIntervalMs: env.API_KEY_TOUCH_INTERVAL_MS,
      failedLookupsPerMinute: env.API_KEY_FAILED_LOOKUPS_PER_MINUTE,
      staleIfErrorMs: env.API_KEY_STALE_IF_ERROR_MS,
      lookupTimeoutMs: env.API_KEY_LOOKUP_TIMEOUT_MS,
    },
    httpServer: {
      requestTimeoutMs: env.HTTP_REQUEST_TIMEOUT_MS,
      headersTimeoutMs: env.HTTP_HEADERS_TIMEOUT_MS,
      keepAliveTimeoutMs: env.HTTP_KEEP_ALIVE_TIMEOUT_MS,
      shutdownGraceMs: env.HTTP_SHUTDOWN_GRACE_MS,
      trustProxy: parseTrustProxy(env.TRUST_PROXY),
    },
    ledger: {
      flushIntervalMs: env.LEDGER_FLUSH_INTERVAL_MS,
    },
    usage: { flushIntervalMs: env.USAGE_FLUSH_INTERVAL_MS, syncIntervalMs: env.USAGE_SYNC_INTERVAL_MS },
    hyperliquid: {
      infoUrl: env.HYPERLIQUID_INFO_URL,
      statsUrl: trimSlash(env.HYPERLIQUID_STATS_URL),
      weightPerMinute: env.HYPERLIQUID_WEIGHT_PER_MINUTE,
      // On the embedded database jobs take turns (one connection), so a trades or fills run waiting for its
      // share would hold every other job back, mids included: there the history reads share the whole budget.
      historyWeightShare: env.HYPERLIQUID_HISTORY_WEIGHT_SHARE ?? (env.DATABASE_URL ? 25 : 100),
      timeoutMs: env.HYPERLIQUID_TIMEOUT_MS,
      maxRetries: env.HYPERLIQUID_MAX_RETRIES,
    },
    marketVendors: {
      cryptoVendor: env.MARKET_DATA_CRYPTO_VENDOR,
      tradfiVendor: env.MARKET_DATA_TRADFI_VENDOR,
      coingecko: {
        plan: env.COINGECKO_PLAN,
        apiKey: env.COINGECKO_API_KEY,
        apiUrl: trimSlash(env.COINGECKO_API_URL ?? COINGECKO_HOSTS[env.COINGECKO_PLAN]),
        callsPerMinute: env.COINGECKO_CALLS_PER_MINUTE,
      },
      binance: { apiUrl: trimSlash(env.BINANCE_API_URL), weightPerMinute: env.BINANCE_WEIGHT_PER_MINUTE },
      yahoo: { queryUrl: trimSlash(env.YAHOO_QUERY_URL), cookieUrl: env.YAHOO_COOKIE_URL, callsPerMinute: env.YAHOO_CALLS_PER_MINUTE },
      timeoutMs: env.MARKET_UPSTREAM_TIMEOUT_MS,
      maxRetries: env.MARKET_UPSTREAM_MAX_RETRIES,
    },
    stockVendors: {
      filingsVendor: filingsVendorOf(env),
      sec: {
        userAgent: env.SEC_USER_AGENT,
        dataUrl: trimSlash(env.SEC_DATA_URL),
        filesUrl: trimSlash(env.SEC_FILES_URL),
        archivesUrl: trimSlash(env.SEC_ARCHIVES_URL),
        requestsPerSecond: env.SEC_REQUESTS_PER_SECOND,
      },
    },
    news: {
      feeds: parseNewsFeeds(env.NEWS_FEEDS),
      stockFeedUrl: env.NEWS_STOCK_FEED_URL === NO_FEED ? null : env.NEWS_STOCK_FEED_URL,
      stockFeedSource: env.NEWS_STOCK_FEED_SOURCE,
      feedMinIntervalMs: env.NEWS_FEED_MIN_INTERVAL_MS,
      stockFeedIntervalMs: env.NEWS_STOCK_FEED_INTERVAL_MS,
      stockFreshMs: env.NEWS_STOCK_FRESH_MS,
      feedRequestsPerMinute: env.NEWS_FEED_REQUESTS_PER_MINUTE,
      feedTimeoutMs: env.NEWS_FEED_TIMEOUT_MS,
      analysisVendor: analysisVendorOf(env),
      llm: {
        baseUrl: env.NEWS_LLM_BASE_URL && trimSlash(env.NEWS_LLM_BASE_URL),
        model: env.NEWS_LLM_MODEL,
        apiKey: env.NEWS_LLM_API_KEY,
        timeoutMs: env.NEWS_LLM_TIMEOUT_MS,
        maxTokens: env.NEWS_LLM_MAX_TOKENS,
      },
      translationsEnabled: env.NEWS_TRANSLATIONS_ENABLED,
      analysisConcurrency: env.NEWS_ANALYSIS_CONCURRENCY,
      analysisCallsPerHour: env.NEWS_ANALYSIS_CALLS_PER_HOUR,
      analysisBatch: env.NEWS_ANALYSIS_BATCH,
      pageCacheMs: env.NEWS_PAGE_CACHE_MS,
    },
    markets: { cryptoUniverse: env.MARKETS_CRYPTO_UNIVERSE },
    hlJobs: {
      enabled: env.HL_JOBS_ENABLED,
      midsIntervalMs: env.HL_MIDS_INTERVAL_MS,
      positionsIntervalMs: env.HL_POSITIONS_INTERVAL_MS,
      tradesIntervalMs: env.HL_TRADES_INTERVAL_MS,
      snapshotIntervalMs: env.HL_SNAPSHOT_INTERVAL_MS,
      leaderboardIntervalMs: env.HL_LEADERBOARD_INTERVAL_MS,
      pollConcurrency: env.HL_POLL_CONCURRENCY,
      pollBatch: env.HL_POLL_BATCH,
      fullReadIntervalMs: env.HL_FULL_READ_INTERVAL_MS,
      snapshotRetention: env.HL_SNAPSHOT_RETENTION,
      fillsRetentionDays: env.HL_FILLS_RETENTION_DAYS,
    },
    hl: { holderPagesCached: env.HL_HOLDER_PAGES_CACHED },
    jobs: { enabled: env.JOBS_ENABLED, schedules: jobSchedules(env), runsRetentionDays: env.JOB_RUNS_RETENTION_DAYS },
    notifications: { retentionDays: env.NOTIFICATIONS_RETENTION_DAYS },
    economy: {
      builderAddress: env.BUILDER_ADDRESS,
      baseFeeTenthsBps: env.BUILDER_BASE_FEE_TENTHS_BPS,
      backfillDays: env.BUILDER_FILLS_BACKFILL_DAYS,
      pointsMinNotionalUsd: env.POINTS_MIN_NOTIONAL_USD,
      rewards: {
        distributor: env.REWARDS_DISTRIBUTOR_ADDRESS,
        tokenSymbol: env.REWARDS_TOKEN_SYMBOL,
        tokenDecimals: env.REWARDS_TOKEN_DECIMALS,
        rpcUrl: env.REWARDS_RPC_URL,
        fromBlock: env.REWARDS_FROM_BLOCK,
      },
    },
  };
}

/**
 * `<JOB>_ENABLED` and `<JOB>_INTERVAL_MS` of each job (its name in upper snake case); HL_JOBS_ENABLED covers
 * every hl.* job, MARKETS_JOBS_ENABLED every markets.* job, NEWS_JOBS_ENABLED every news.* job.
 */
function jobSchedules(env: EnvironmentVariables): Record<ScheduledJobName, JobSchedule> {
  const hl = (enabled: boolean, intervalMs: number): JobSchedule => ({ enabled: env.HL_JOBS_ENABLED && enabled, intervalMs });
  return {
    'hl.markets': hl(env.HL_MARKETS_ENABLED, env.HL_MARKETS_INTERVAL_MS ?? 2 * env.HL_SNAPSHOT_INTERVAL_MS),
    'hl.mids': hl(env.HL_MIDS_ENABLED, env.HL_MIDS_INTERVAL_MS),
    'hl.positions': hl(env.HL_POSITIONS_ENABLED, env.HL_POSITIONS_INTERVAL_MS),
    'hl.trades': hl(env.HL_TRADES_ENABLED, env.HL_TRADES_INTERVAL_MS),
    'hl.fills': hl(env.HL_FILLS_ENABLED, env.HL_FILLS_INTERVAL_MS ?? env.HL_TRADES_INTERVAL_MS),
    'hl.leaderboard': hl(env.HL_LEADERBOARD_ENABLED, env.HL_LEADERBOARD_INTERVAL_MS),
    'hl.snapshot': hl(env.HL_SNAPSHOT_ENABLED, env.HL_SNAPSHOT_INTERVAL_MS),
    'markets.crypto': { enabled: env.MARKETS_JOBS_ENABLED && env.MARKETS_CRYPTO_ENABLED, intervalMs: env.MARKETS_CRYPTO_INTERVAL_MS },
    'markets.tradfi': { enabled: env.MARKETS_JOBS_ENABLED && env.MARKETS_TRADFI_ENABLED, intervalMs: env.MARKETS_TRADFI_INTERVAL_MS },
    'news.ingest': { enabled: env.NEWS_JOBS_ENABLED && env.NEWS_INGEST_ENABLED, intervalMs: env.NEWS_INGEST_INTERVAL_MS },
    'news.analyse': {
      enabled: env.NEWS_JOBS_ENABLED && env.NEWS_ANALYSE_ENABLED && analysisVendorOf(env) !== 'none',
      intervalMs: env.NEWS_ANALYSE_INTERVAL_MS,
    },
    'notifications.generate': { enabled: env.NOTIFICATIONS_GENERATE_ENABLED, intervalMs: env.NOTIFICATIONS_GENERATE_INTERVAL_MS },
    'economy.builder-fills': { enabled: env.ECONOMY_BUILDER_FILLS_ENABLED, intervalMs: env.ECONOMY_BUILDER_FILLS_INTERVAL_MS },
    // Both need configuration: a distributor to publish for, an RPC endpoint to read its events from.
    'rewards.publish-round': {
      enabled: env.REWARDS_PUBLISH_ROUND_ENABLED && env.REWARDS_DISTRIBUTOR_ADDRESS !== undefined,
      intervalMs: env.REWARDS_PUBLISH_ROUND_INTERVAL_MS,
    },
    'rewards.claims': {
      enabled: env.REWARDS_RPC_URL !== undefined && env.REWARDS_DISTRIBUTOR_ADDRESS !== undefined,
      intervalMs: env.REWARDS_CLAIMS_INTERVAL_MS,
    },
    'housekeeping.job-runs': { enabled: env.HOUSEKEEPING_JOB_RUNS_ENABLED, intervalMs: env.HOUSEKEEPING_JOB_RUNS_INTERVAL_MS },
    'housekeeping.notifications': { enabled: env.HOUSEKEEPING_NOTIFICATIONS_ENABLED, intervalMs: env.HOUSEKEEPING_NOTIFICATIONS_INTERVAL_MS },
  };
}

/** CoinGecko answers each plan on its own host. */
const COINGECKO_HOSTS = { demo: 'https://api.coingecko.com/api/v3', pro: 'https://pro-api.coingecko.com/api/v3' } as const;

/** Says what signing can and cannot do (contract 5.2 item 7); the wallet shows it to the user. */
export const DEFAULT_SIWE_STATEMENT = 'Sign in to the developer portal. This signature cannot move funds, place orders or approve builder fees.';

function authSettings(env: EnvironmentVariables): AppConfig['auth'] {
  // On a machine of one's own the portal is the server itself; a wildcard listen address is reached as localhost.
  const host = env.HTTP_HOST === '0.0.0.0' || env.HTTP_HOST === '::' ? 'localhost' : env.HTTP_HOST.includes(':') ? `[${env.HTTP_HOST}]` : env.HTTP_HOST;
  const domain = env.AUTH_SIWE_DOMAIN ?? `${host}:${env.PORT}`;
  return {
    siwe: {
      domain,
      uri: env.AUTH_SIWE_URI ?? `${env.NODE_ENV === 'production' ? 'https' : 'http'}://${domain}/portal`,
      chainId: env.AUTH_SIWE_CHAIN_ID,
      statement: env.AUTH_SIWE_STATEMENT ?? DEFAULT_SIWE_STATEMENT,
    },
    challengeTtlMs: env.AUTH_CHALLENGE_TTL_MS,
    maxOutstanding: env.AUTH_CHALLENGES_MAX,
    tokenTtlMs: env.AUTH_TOKEN_TTL_MS,
    sessionMaxMs: env.AUTH_SESSION_MAX_MS,
    refreshGraceMs: env.AUTH_REFRESH_GRACE_MS,
    rateLimit: { perIp: env.AUTH_RATE_LIMIT_PER_IP, perAddress: env.AUTH_RATE_LIMIT_PER_ADDRESS },
    rpcUrl: env.AUTH_RPC_URL,
  };
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

function parseTrustProxy(text: string): TrustProxy {
  if (text === 'true' || text === 'false') return text === 'true';
  if (/^\d+$/.test(text)) return Number(text);
  return text.split(',').map((entry) => entry.trim());
}

/**
 * For entry points (server, demo, ops CLI): the configuration, or every problem on stderr and exit 1. A
 * configuration mistake is the operator's to fix, so they get the list, not a stack trace to read past.
 */
export function loadAppConfigOrExit(raw: Record<string, unknown> = process.env): AppConfig {
  try {
    return loadAppConfig(raw);
  } catch (error) {
    if (!(error instanceof ConfigurationError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
}

/** The ops CLI's DEBUG switch (stack traces of unexpected errors); not service configuration. */
export function cliDebugEnabled(raw: Record<string, string | undefined> = process.env): boolean {
  return Boolean(raw.DEBUG);
}
