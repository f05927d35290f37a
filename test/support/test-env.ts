import { randomBytes } from 'node:crypto';
import { AppConfig, HttpAdapterName, loadAppConfig } from '../../src/config/app.config';

/** The local servers CI starts; overridable so the suite can point elsewhere. */
export const TEST_DATABASE_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
export const TEST_REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
/** scripts/test.sh runs the e2e suite once per adapter. */
export const TEST_ADAPTER: HttpAdapterName = process.env.TEST_HTTP_ADAPTER === 'fastify' ? 'fastify' : 'express';

/**
 * Every Redis key a test writes starts with this: scripts/test.sh deletes `test:<run>:*` when the run ends, so
 * the suite leaves nothing behind (and a run never touches another run's keys).
 */
export const TEST_RUN_KEY_PREFIX = `test:${process.env.TEST_RUN_ID || 'local'}:`;

/** A fresh Redis key prefix per test file keeps files from seeing each other's windows and balances. */
export function uniqueKeyPrefix(): string {
  return `${TEST_RUN_KEY_PREFIX}${randomBytes(4).toString('hex')}:`;
}

export function testConfig(overrides: Record<string, string> = {}): AppConfig {
  return loadAppConfig(testEnvironment(overrides));
}

/** The environment testConfig reads: also what a test hands a server process it starts itself. */
export function testEnvironment(overrides: Record<string, string> = {}): Record<string, string> {
  return {
    NODE_ENV: 'test',
    LOG_LEVEL: 'error',
    PORT: '0',
    HTTP_ADAPTER: TEST_ADAPTER,
    DATABASE_URL: TEST_DATABASE_URL,
    REDIS_URL: TEST_REDIS_URL,
    REDIS_KEY_PREFIX: uniqueKeyPrefix(),
    LEDGER_FLUSH_INTERVAL_MS: '200',
    // The production store: this machine's Redis keeps no append-only file, so auto would pick postgres.
    // Suites of the postgres store say so.
    CREDITS_STORE: 'redis',
    USAGE_SYNC_INTERVAL_MS: '200',
    // Suites that want the snapshot jobs turn them on and point them at a simulator.
    HL_JOBS_ENABLED: 'false',
    MARKETS_JOBS_ENABLED: 'false',
    NEWS_JOBS_ENABLED: 'false',
    NOTIFICATIONS_GENERATE_ENABLED: 'false',
    HOUSEKEEPING_NOTIFICATIONS_ENABLED: 'false',
    ECONOMY_BUILDER_FILLS_ENABLED: 'false',
    // Every suite signs in from one address; the limit's own test sets a small one.
    AUTH_RATE_LIMIT_PER_IP: '100000',
    AUTH_RATE_LIMIT_PER_ADDRESS: '100000',
    // Suites read news right after running a job: no page may outlive it.
    NEWS_PAGE_CACHE_MS: '0',
    // No test reaches a real vendor: suites that want market data point these at a simulator or a stub.
    COINGECKO_API_URL: 'http://127.0.0.1:9/coingecko',
    BINANCE_API_URL: 'http://127.0.0.1:9/binance',
    YAHOO_QUERY_URL: 'http://127.0.0.1:9/yahoo',
    YAHOO_COOKIE_URL: 'http://127.0.0.1:9/yahoo/cookie',
    SEC_DATA_URL: 'http://127.0.0.1:9/sec',
    SEC_FILES_URL: 'http://127.0.0.1:9/sec',
    NEWS_FEEDS: 'test-feed=http://127.0.0.1:9/feeds/test.rss',
    NEWS_STOCK_FEED_URL: 'http://127.0.0.1:9/feeds/headline?s={symbol}',
    ...overrides,
  };
}
