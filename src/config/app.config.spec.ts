import { loadAppConfig, SCHEDULED_JOBS } from './app.config';
import { configProblemsOf as problemsOf, PRODUCTION_SECRETS } from '../../test/support/config-kit';
import { ConfigurationError } from './env.validation';

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
      commandTimeoutMs: 1000,
    });
  });

  it('picks the credits store from Redis by default, and refuses a store it does not know', () => {
    expect(loadAppConfig({}).billing).toEqual({ creditsStore: 'auto', admissionTimeoutMs: 2000 });
    expect(loadAppConfig({ CREDITS_STORE: 'postgres' }).billing.creditsStore).toBe('postgres');
    expect(() => loadAppConfig({ CREDITS_STORE: 'memory' })).toThrow(/CREDITS_STORE/);
  });
});

describe('loadAppConfig: validation at start-up', () => {
  it.each(['ture', 'on', 'Y'])('refuses %s for a boolean setting rather than reading it as false', (text) => {
    expect(() => loadAppConfig({ MIGRATIONS_RUN: text })).toThrow(/MIGRATIONS_RUN/);
  });

  it.each([
    ['YES', true],
    ['0', false],
    ['no', false],
  ])('reads %s as %s', (text, value) => {
    expect(loadAppConfig({ MIGRATIONS_RUN: text }).database.migrationsRun).toBe(value);
  });

  it.each(['postgres://user:secret@pg_primary:5432/db', 'postgresql:///db?host=/var/run/postgresql', 'postgresql://127.0.0.1/test'])(
    'accepts the PostgreSQL URL %s',
    (url) => {
      expect(loadAppConfig({ DATABASE_URL: url }).database.url).toBe(url);
    },
  );

  it.each(['redis://redis_cache:6379', 'rediss://:pw@cache.internal:6380/2'])('accepts the Redis URL %s', (url) => {
    expect(loadAppConfig({ REDIS_URL: url }).redis.url).toBe(url);
  });

  it.each([
    ['DATABASE_URL', 'mysql://db/x'],
    ['DATABASE_URL', 'not a url'],
    ['REDIS_URL', 'http://cache:6379'],
  ])('refuses %s=%s, naming the variable', (name, url) => {
    expect(() => loadAppConfig({ [name]: url })).toThrow(new RegExp(name));
  });

  it.each(['foo', '10.0.0.1/33', '10.0.0.1,bar', '::1/129'])('refuses TRUST_PROXY=%s, which the adapters would throw on only when they start', (text) => {
    expect(() => loadAppConfig({ TRUST_PROXY: text })).toThrow(/TRUST_PROXY/);
  });

  it.each([
    ['true', true],
    ['2', 2],
    ['loopback, 10.0.0.0/8,fd00::1', ['loopback', '10.0.0.0/8', 'fd00::1']],
  ])('reads TRUST_PROXY=%s', (text, value) => {
    expect(loadAppConfig({ TRUST_PROXY: text }).httpServer.trustProxy).toEqual(value);
  });
});

describe('loadAppConfig: retention', () => {
  it('keeps a week of fills and of job runs unless told otherwise', () => {
    const config = loadAppConfig({});

    expect(config.hlJobs.fillsRetentionDays).toBe(7);
    expect(config.jobs.runsRetentionDays).toBe(7);
  });

  it('reads both settings and refuses a retention under a day', () => {
    const config = loadAppConfig({ HL_FILLS_RETENTION_DAYS: '30', JOB_RUNS_RETENTION_DAYS: '2' });

    expect(config.hlJobs.fillsRetentionDays).toBe(30);
    expect(config.jobs.runsRetentionDays).toBe(2);
    expect(() => loadAppConfig({ HL_FILLS_RETENTION_DAYS: '0' })).toThrow(/HL_FILLS_RETENTION_DAYS/);
    expect(() => loadAppConfig({ JOB_RUNS_RETENTION_DAYS: '0' })).toThrow(/JOB_RUNS_RETENTION_DAYS/);
  });
});

describe('loadAppConfig: production secrets', () => {
  it('refuses production without the secrets every replica must share, or the portal domain sign-in names', () => {
    const problems = (() => {
      try {
        loadAppConfig({ NODE_ENV: 'production' });
      } catch (error) {
        return (error as ConfigurationError).problems;
      }
    })();
    expect(problems).toEqual([
      'CURSOR_SECRET must be set in production (shared by every replica); make one with: openssl rand -base64 48',
      'JWT_SECRET must be set in production (shared by every replica); make one with: openssl rand -base64 48',
      'AUTH_SIWE_DOMAIN must be set in production (the host the developer portal is served from)',
    ]);
  });

  it('lists every problem at once, the missing CURSOR_SECRET with the bad values', () => {
    let thrown: unknown;
    try {
      loadAppConfig({
        NODE_ENV: 'production',
        PORT: 'eighty',
        HL_FILLS_RETENTION_DAYS: '0',
        JWT_SECRET: PRODUCTION_SECRETS.JWT_SECRET,
        AUTH_SIWE_DOMAIN: 'a.example',
      });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ConfigurationError);
    const { problems } = thrown as ConfigurationError;
    expect(problems).toHaveLength(3);
    expect(problems.join('\n')).toMatch(/PORT: .*\nHL_FILLS_RETENTION_DAYS: .*\nCURSOR_SECRET must be set in production/);
  });

  it('refuses in production the development secrets that ship in the source', () => {
    const shipped = { CURSOR_SECRET: 'dev-only-cursor-secret-change-me', JWT_SECRET: 'dev-only-jwt-secret-change-me!!' };
    expect(problemsOf({ ...PRODUCTION_SECRETS, NODE_ENV: 'production', ...shipped })).toEqual([
      'CURSOR_SECRET: the development value that ships in the repository is public; make one with: openssl rand -base64 48',
      'JWT_SECRET: the development value that ships in the repository is public; make one with: openssl rand -base64 48',
    ]);
    // Outside production the embedded run still starts on them.
    expect(loadAppConfig({ NODE_ENV: 'development', ...shipped }).security).toEqual({ cursorSecret: shipped.CURSOR_SECRET, jwtSecret: shipped.JWT_SECRET });
  });

  it('requires at least 32 bytes of each secret in production, counting bytes, not characters', () => {
    const short = { CURSOR_SECRET: 'c'.repeat(31), JWT_SECRET: `${'ü'.repeat(15)}x` };
    expect(problemsOf({ ...PRODUCTION_SECRETS, NODE_ENV: 'production', ...short })).toEqual([
      'CURSOR_SECRET: 31 bytes; production needs at least 32 (make one with: openssl rand -base64 48)',
      'JWT_SECRET: 31 bytes; production needs at least 32 (make one with: openssl rand -base64 48)',
    ]);
    const enough = { CURSOR_SECRET: 'c'.repeat(32), JWT_SECRET: 'ü'.repeat(16) };
    expect(loadAppConfig({ ...PRODUCTION_SECRETS, NODE_ENV: 'production', ...enough }).security).toEqual({
      cursorSecret: enough.CURSOR_SECRET,
      jwtSecret: enough.JWT_SECRET,
    });
  });

  it('starts production with them, the challenge naming the portal over https', () => {
    const config = loadAppConfig({ NODE_ENV: 'production', ...PRODUCTION_SECRETS });
    expect(config.security).toEqual({ cursorSecret: PRODUCTION_SECRETS.CURSOR_SECRET, jwtSecret: PRODUCTION_SECRETS.JWT_SECRET });
    expect(config.auth.siwe).toMatchObject({ domain: 'portal.example.com', uri: 'https://portal.example.com/portal', chainId: 1 });
  });
});

describe('loadAppConfig: wallet sign-in', () => {
  it('names the server itself as the portal when no domain is set (a wildcard listen address as localhost)', () => {
    expect(loadAppConfig({}).auth.siwe).toMatchObject({ domain: 'localhost:3000', uri: 'http://localhost:3000/portal' });
    expect(loadAppConfig({ HTTP_HOST: '127.0.0.1', PORT: '8080' }).auth.siwe.domain).toBe('127.0.0.1:8080');
    expect(loadAppConfig({ HTTP_HOST: '::1' }).auth.siwe.domain).toBe('[::1]:3000');
  });

  it('documents its defaults: 5-minute challenges, 1-hour tokens, 7-day sessions, a 10 s refresh grace', () => {
    expect(loadAppConfig({}).auth).toMatchObject({
      challengeTtlMs: 300_000,
      tokenTtlMs: 3_600_000,
      sessionMaxMs: 7 * 86_400_000,
      refreshGraceMs: 10_000,
      rateLimit: { perIp: 60, perAddress: 20 },
    });
  });

  it('refuses a domain with a scheme or path, and a chain id that is not a positive integer', () => {
    expect(() => loadAppConfig({ AUTH_SIWE_DOMAIN: 'https://portal.example.com' })).toThrow(/AUTH_SIWE_DOMAIN/);
    expect(() => loadAppConfig({ AUTH_SIWE_CHAIN_ID: '0' })).toThrow(/AUTH_SIWE_CHAIN_ID/);
  });
});

describe('loadAppConfig: Hyperliquid weight', () => {
  it('gives history reads a quarter of the weight unless told otherwise', () => {
    expect(loadAppConfig({ DATABASE_URL: 'postgres://db/market' }).hyperliquid.historyWeightShare).toBe(25);
    // Embedded, jobs take turns: a history job waiting for its share would stop the others.
    expect(loadAppConfig({}).hyperliquid.historyWeightShare).toBe(100);
    expect(loadAppConfig({ HYPERLIQUID_HISTORY_WEIGHT_SHARE: '40' }).hyperliquid.historyWeightShare).toBe(40);
  });

  it.each(['-1', '101', '12.5', 'half'])('refuses HYPERLIQUID_HISTORY_WEIGHT_SHARE=%s, naming the variable', (text) => {
    expect(() => loadAppConfig({ HYPERLIQUID_HISTORY_WEIGHT_SHARE: text })).toThrow(/HYPERLIQUID_HISTORY_WEIGHT_SHARE/);
  });
});

describe('loadAppConfig: positions polling', () => {
  it('reads every HIP-3 dex of an address at least hourly unless told otherwise', () => {
    expect(loadAppConfig({}).hlJobs.fullReadIntervalMs).toBe(3_600_000);
    expect(loadAppConfig({ HL_FULL_READ_INTERVAL_MS: '' }).hlJobs.fullReadIntervalMs).toBe(3_600_000);
    // 0: every read is a full one, as before partial reads.
    expect(loadAppConfig({ HL_FULL_READ_INTERVAL_MS: '0' }).hlJobs.fullReadIntervalMs).toBe(0);
    expect(loadAppConfig({ HL_FULL_READ_INTERVAL_MS: '21600000' }).hlJobs.fullReadIntervalMs).toBe(21_600_000);
  });

  it.each(['-1', '86400001', '1.5', 'hourly'])('refuses HL_FULL_READ_INTERVAL_MS=%s, naming the variable', (text) => {
    expect(() => loadAppConfig({ HL_FULL_READ_INTERVAL_MS: text })).toThrow(/HL_FULL_READ_INTERVAL_MS/);
  });
});

describe('loadAppConfig: job schedules', () => {
  it('switches every job on, on the cadences it always had, unless told otherwise or it needs configuration', () => {
    const { jobs } = loadAppConfig({});

    expect(jobs.enabled).toBe(true);
    expect(Object.keys(jobs.schedules)).toEqual([...SCHEDULED_JOBS]);
    const off = Object.entries(jobs.schedules).filter(([, schedule]) => !schedule.enabled);
    expect(off.map(([name]) => name)).toEqual(['rewards.publish-round', 'rewards.claims']);
    expect(jobs.schedules['hl.markets'].intervalMs).toBe(30_000);
    expect(jobs.schedules['hl.fills'].intervalMs).toBe(10_000);
    expect(jobs.schedules['housekeeping.job-runs'].intervalMs).toBe(600_000);
  });

  it("reads each job's own switch and cadence as <JOB>_ENABLED and <JOB>_INTERVAL_MS", () => {
    const { schedules } = loadAppConfig({ HL_MIDS_ENABLED: 'false', HL_FILLS_INTERVAL_MS: '45000', HOUSEKEEPING_JOB_RUNS_INTERVAL_MS: '60000' }).jobs;

    expect(schedules['hl.mids']).toEqual({ enabled: false, intervalMs: 3000 });
    expect(schedules['hl.trades']).toEqual({ enabled: true, intervalMs: 10_000 });
    expect(schedules['hl.fills']).toEqual({ enabled: true, intervalMs: 45_000 });
    expect(schedules['housekeeping.job-runs']).toEqual({ enabled: true, intervalMs: 60_000 });
  });

  it('keeps the markets job at twice the snapshot cadence unless it has its own', () => {
    expect(loadAppConfig({ HL_SNAPSHOT_INTERVAL_MS: '20000' }).jobs.schedules['hl.markets'].intervalMs).toBe(40_000);
    expect(loadAppConfig({ HL_SNAPSHOT_INTERVAL_MS: '20000', HL_MARKETS_INTERVAL_MS: '90000' }).jobs.schedules['hl.markets'].intervalMs).toBe(90_000);
  });

  it('turns off every hl.* job with HL_JOBS_ENABLED=false, and only those', () => {
    const { schedules } = loadAppConfig({ HL_JOBS_ENABLED: 'false' }).jobs;

    const on = Object.entries(schedules)
      .filter(([, schedule]) => schedule.enabled)
      .map(([name]) => name);
    expect(on).toEqual([
      'markets.crypto',
      'markets.tradfi',
      'news.ingest',
      'news.analyse',
      'notifications.generate',
      'economy.builder-fills',
      'housekeeping.job-runs',
      'housekeeping.notifications',
    ]);
  });

  it('publishes claim rounds once a distributor is configured, and reads its Claimed events once an RPC endpoint is too', () => {
    const distributor = '0x' + 'd'.repeat(40);
    const on = (env: Record<string, string>) => {
      const { schedules } = loadAppConfig(env).jobs;
      return [schedules['rewards.publish-round'].enabled, schedules['rewards.claims'].enabled];
    };
    expect(on({ REWARDS_DISTRIBUTOR_ADDRESS: distributor })).toEqual([true, false]);
    expect(on({ REWARDS_DISTRIBUTOR_ADDRESS: distributor, REWARDS_RPC_URL: 'http://127.0.0.1:8545' })).toEqual([true, true]);
    expect(on({ REWARDS_DISTRIBUTOR_ADDRESS: distributor, REWARDS_PUBLISH_ROUND_ENABLED: 'false' })).toEqual([false, false]);
    expect(loadAppConfig({ BUILDER_ADDRESS: '0x' + 'AB'.repeat(20) }).economy.builderAddress).toBe('0x' + 'ab'.repeat(20));
    expect(() => loadAppConfig({ BUILDER_ADDRESS: '0x1234' })).toThrow(/BUILDER_ADDRESS/);
  });

  it('turns off every markets.* job with MARKETS_JOBS_ENABLED=false, and only those', () => {
    const { schedules } = loadAppConfig({ MARKETS_JOBS_ENABLED: 'false', MARKETS_TRADFI_INTERVAL_MS: '300000' }).jobs;

    expect(Object.keys(schedules).filter((name) => !schedules[name as keyof typeof schedules].enabled)).toEqual([
      'markets.crypto',
      'markets.tradfi',
      'rewards.publish-round',
      'rewards.claims',
    ]);
    expect(schedules['markets.tradfi'].intervalMs).toBe(300_000);
  });

  it('turns off every news.* job with NEWS_JOBS_ENABLED=false, and news.analyse alone when no analyser is chosen', () => {
    const off = (env: Record<string, string>) => {
      const { schedules } = loadAppConfig(env).jobs;
      return Object.keys(schedules).filter((name) => !schedules[name as keyof typeof schedules].enabled);
    };

    const unconfigured = ['rewards.publish-round', 'rewards.claims'];
    expect(off({ NEWS_JOBS_ENABLED: 'false' })).toEqual(['news.ingest', 'news.analyse', ...unconfigured]);
    expect(off({ NEWS_ANALYSIS_VENDOR: 'none' })).toEqual(['news.analyse', ...unconfigured]);
  });

  it('turns the whole schedule off with JOBS_ENABLED=false, leaving each switch as configured', () => {
    const { jobs } = loadAppConfig({ JOBS_ENABLED: 'false' });

    expect(jobs.enabled).toBe(false);
    expect(jobs.schedules['hl.snapshot'].enabled).toBe(true);
  });

  it.each([
    ['HL_SNAPSHOT_ENABLED', 'maybe'],
    ['HOUSEKEEPING_JOB_RUNS_ENABLED', 'on'],
    ['HOUSEKEEPING_JOB_RUNS_INTERVAL_MS', '999'],
    ['HL_MARKETS_INTERVAL_MS', 'hourly'],
  ])('refuses %s=%s, naming the variable', (name, text) => {
    expect(() => loadAppConfig({ [name]: text })).toThrow(new RegExp(name));
  });
});

describe('loadAppConfig: logs and metrics', () => {
  it('logs JSON in production and readable lines elsewhere, unless LOG_FORMAT says', () => {
    const secret = PRODUCTION_SECRETS;
    expect(loadAppConfig({ NODE_ENV: 'production', ...secret }).logFormat).toBe('json');
    expect(loadAppConfig({ NODE_ENV: 'development' }).logFormat).toBe('pretty');
    expect(loadAppConfig({ NODE_ENV: 'test' }).logFormat).toBe('pretty');
    expect(loadAppConfig({ NODE_ENV: 'production', LOG_FORMAT: 'pretty', ...secret }).logFormat).toBe('pretty');
    expect(loadAppConfig({ NODE_ENV: 'development', LOG_FORMAT: 'json' }).logFormat).toBe('json');
    expect(() => loadAppConfig({ LOG_FORMAT: 'xml' })).toThrow(/LOG_FORMAT/);
  });

  it('follows a request through its log lines except in production, where it costs the billed route, unless told', () => {
    const secret = PRODUCTION_SECRETS;
    expect(loadAppConfig({}).logRequestContext).toBe(true);
    expect(loadAppConfig({ NODE_ENV: 'production', ...secret }).logRequestContext).toBe(false);
    expect(loadAppConfig({ NODE_ENV: 'production', LOG_REQUEST_CONTEXT: 'true', ...secret }).logRequestContext).toBe(true);
    expect(loadAppConfig({ LOG_REQUEST_CONTEXT: 'false' }).logRequestContext).toBe(false);
  });

  it("points CoinGecko at the plan's own host unless told otherwise, without a trailing slash", () => {
    expect(loadAppConfig({}).marketVendors.coingecko).toMatchObject({ plan: 'demo', apiUrl: 'https://api.coingecko.com/api/v3' });
    expect(loadAppConfig({ COINGECKO_PLAN: 'pro' }).marketVendors.coingecko.apiUrl).toBe('https://pro-api.coingecko.com/api/v3');
    expect(loadAppConfig({ COINGECKO_API_URL: 'http://127.0.0.1:7070/coingecko/api/v3/' }).marketVendors.coingecko.apiUrl).toBe(
      'http://127.0.0.1:7070/coingecko/api/v3',
    );
    expect(() => loadAppConfig({ COINGECKO_PLAN: 'enterprise' })).toThrow(/COINGECKO_PLAN/);
    expect(loadAppConfig({}).marketVendors).toMatchObject({ cryptoVendor: 'coingecko', tradfiVendor: 'yahoo' });
    expect(loadAppConfig({ MARKET_DATA_TRADFI_VENDOR: 'none' }).marketVendors.tradfiVendor).toBe('none');
    expect(() => loadAppConfig({ MARKET_DATA_CRYPTO_VENDOR: 'binance' })).toThrow(/MARKET_DATA_CRYPTO_VENDOR/);
  });

  it('serves /metrics unless METRICS_ENABLED=false', () => {
    expect(loadAppConfig({}).metrics.enabled).toBe(true);
    expect(loadAppConfig({ METRICS_ENABLED: 'false' }).metrics.enabled).toBe(false);
  });
});
