import { loadAppConfig } from './app.config';

describe('loadAppConfig: redis', () => {
  it('leaves ioredis auto-pipelining off unless REDIS_AUTO_PIPELINING asks for it', () => {
    expect(loadAppConfig({}).redis.autoPipelining).toBe(false);
    expect(loadAppConfig({ REDIS_AUTO_PIPELINING: '' }).redis.autoPipelining).toBe(false);
    expect(loadAppConfig({ REDIS_AUTO_PIPELINING: 'true' }).redis.autoPipelining).toBe(true);
    expect(loadAppConfig({ REDIS_AUTO_PIPELINING: 'false' }).redis.autoPipelining).toBe(false);
  });

  it('takes an empty NAME= as unset, so defaults still apply', () => {
    const config = loadAppConfig({ MIGRATIONS_RUN: '', HL_JOBS_ENABLED: '', LEDGER_FLUSH_INTERVAL_MS: '', REDIS_URL: '' });

    expect(config.database.migrationsRun).toBe(true);
    expect(config.hlJobs.enabled).toBe(true);
    expect(config.ledger.flushIntervalMs).toBe(1000);
    expect(config.redis.url).toBeUndefined();
  });

  it('keeps the URL and key prefix beside it', () => {
    expect(loadAppConfig({ REDIS_URL: 'redis://cache:6379', REDIS_KEY_PREFIX: 'eu1:' }).redis).toEqual({
      url: 'redis://cache:6379',
      keyPrefix: 'eu1:',
      autoPipelining: false,
    });
  });
});
