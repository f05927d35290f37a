import { plainToInstance, Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, IsUrl, Max, MaxLength, Min, MinLength, validateSync } from 'class-validator';
import { emptyToUndefined, IsConnectionUrl, IsTrustProxy, toBoolean, toInt } from './env-validators';
import { MarketVendorVariables } from './market-vendors.env';
import { productionSecretProblem } from './production-secrets';

/** Every environment variable the service reads; mirrors .env.example line by line. */
export class EnvironmentVariables extends MarketVendorVariables {
  @IsOptional()
  @IsIn(['development', 'production', 'test'])
  NODE_ENV: 'development' | 'production' | 'test' = 'development';

  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(65535)
  PORT = 3000;

  // Every interface by default (containers, servers); the demo binds 127.0.0.1.
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  @MinLength(1)
  HTTP_HOST = '0.0.0.0';

  @IsOptional()
  @IsIn(['express', 'fastify'])
  HTTP_ADAPTER: 'express' | 'fastify' = 'express';

  @IsOptional()
  @IsIn(['error', 'warn', 'log', 'debug', 'verbose'])
  LOG_LEVEL: 'error' | 'warn' | 'log' | 'debug' | 'verbose' = 'log';

  // Unset: pretty (one readable line each) unless NODE_ENV=production, where log collectors want JSON.
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsIn(['json', 'pretty'])
  LOG_FORMAT?: 'json' | 'pretty';

  // The request id on every line a request causes, through AsyncLocalStorage. Unset: on unless NODE_ENV=production:
  // on Node 20 it costs ~10% of the billed route's CPU (an async hook on every promise; docs/benchmarks.md).
  @Transform(toBoolean)
  @IsOptional()
  @IsBoolean()
  LOG_REQUEST_CONTEXT?: boolean;

  @Transform(toBoolean)
  @IsOptional()
  @IsBoolean()
  METRICS_ENABLED = true;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsConnectionUrl(['postgres', 'postgresql'])
  DATABASE_URL?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  DATA_DIR = './data';

  @Transform(toBoolean)
  @IsOptional()
  @IsBoolean()
  MIGRATIONS_RUN = true;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsConnectionUrl(['redis', 'rediss'])
  REDIS_URL?: string;

  // Off by default: ioredis runs one auto-pipeline at a time, so a batch of admissions waits for the one
  // before it to come back, and the commands it holds live long enough to be promoted by the GC
  // (docs/benchmarks.md). Off, the admissions of one event-loop turn share one script call
  // instead (AdmissionService). On, it saves Redis read calls at the cost of per-call latency.
  @Transform(toBoolean)
  @IsOptional()
  @IsBoolean()
  REDIS_AUTO_PIPELINING = false;

  // How long a Redis command may go unanswered before it fails (ioredis' commandTimeout): a command whose
  // reply was lost (the connection dropped under it) would otherwise wait forever, since the client never
  // sends a command twice on its own.
  @Transform(toInt)
  @IsInt()
  @Min(50)
  @Max(60_000)
  REDIS_COMMAND_TIMEOUT_MS = 1000;

  // Where live balances and charges are kept (docs/decisions.md, "Billing through faults"): redis (the
  // outbox, drained into PostgreSQL; needs a Redis that persists with an append-only file), postgres (each
  // charge written in PostgreSQL before its call is answered), auto (redis when the Redis persists, else postgres).
  @IsOptional()
  @IsIn(['auto', 'redis', 'postgres'])
  CREDITS_STORE: 'auto' | 'redis' | 'postgres' = 'auto';

  // How long a call's admission may wait for the credits store before the call is answered 503 (never charged).
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(30_000)
  ADMISSION_TIMEOUT_MS = 2000;

  // Bounded so the ledger outbox key (prefix included) fits the drain fence's outbox column (200).
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  @MaxLength(150)
  REDIS_KEY_PREFIX = 'mdapi:';

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  @MinLength(16)
  CURSOR_SECRET?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  @MinLength(16)
  JWT_SECRET?: string;

  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(5000)
  API_KEY_CACHE_TTL_MS = 2000;

  @Transform(toInt)
  @IsInt()
  @Min(50)
  @Max(300_000)
  LEDGER_FLUSH_INTERVAL_MS = 1000;

  @Transform(toInt)
  @IsInt()
  @Min(50)
  @Max(60_000)
  USAGE_FLUSH_INTERVAL_MS = 1000;

  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(600_000)
  USAGE_SYNC_INTERVAL_MS = 15_000;

  @Transform(toInt)
  @IsInt()
  @Min(1000)
  @Max(600_000)
  API_KEY_TOUCH_INTERVAL_MS = 10_000;

  // Per client address and replica: lookups of unknown keys (a database query each) before 429.
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(100_000)
  API_KEY_FAILED_LOOKUPS_PER_MINUTE = 10;

  // While PostgreSQL fails: how long past its TTL a key read before is still served (0: never).
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(300_000)
  API_KEY_STALE_IF_ERROR_MS = 60_000;

  // A read of the key table unanswered this long counts as failed (a database that accepts and hangs).
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(60_000)
  API_KEY_LOOKUP_TIMEOUT_MS = 3000;

  // Off: the client address is the socket's, so X-Forwarded-For cannot dodge the per-address limits.
  // true (every hop), a hop count, or addresses/CIDRs of the proxies (Express and Fastify read all three).
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsTrustProxy()
  TRUST_PROXY = 'false';

  // Seconds, not node's minutes: a client that declares a request and sends it slowly holds a socket only this long.
  @Transform(toInt)
  @IsInt()
  @Min(1000)
  @Max(300_000)
  HTTP_REQUEST_TIMEOUT_MS = 15_000;

  // At most HTTP_REQUEST_TIMEOUT_MS (node's rule); idle keep-alive connections are not cut by it on Node 20.
  @Transform(toInt)
  @IsInt()
  @Min(1000)
  @Max(300_000)
  HTTP_HEADERS_TIMEOUT_MS = 10_000;

  // Above the 60 s idle timeout of common load balancers, so the balancer, not us, closes a reused connection.
  @Transform(toInt)
  @IsInt()
  @Min(1000)
  @Max(600_000)
  HTTP_KEEP_ALIVE_TIMEOUT_MS = 65_000;

  // How long a stop waits for the requests in flight before it closes their connections (0: at once).
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(300_000)
  HTTP_SHUTDOWN_GRACE_MS = 10_000;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsUrl({ require_tld: false, require_protocol: true })
  HYPERLIQUID_INFO_URL = 'https://api.hyperliquid.xyz/info';

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsUrl({ require_tld: false, require_protocol: true })
  HYPERLIQUID_STATS_URL = 'https://stats-data.hyperliquid.xyz/Mainnet';

  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(1_000_000)
  HYPERLIQUID_WEIGHT_PER_MINUTE = 1200;

  // Unset: 25 with DATABASE_URL, 100 on the embedded database (app.config.ts says why).
  @Transform(toInt)
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(100)
  HYPERLIQUID_HISTORY_WEIGHT_SHARE?: number;

  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(120_000)
  HYPERLIQUID_TIMEOUT_MS = 10_000;

  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(10)
  HYPERLIQUID_MAX_RETRIES = 3;
}

/** Every problem found in the environment; entry points print `problems` as a list, not a stack trace. */
export class ConfigurationError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  ${problems.join('\n  ')}`);
    this.name = 'ConfigurationError';
  }
}

/** Validates the raw environment once at start-up; a bad value stops the process with every problem listed. */
export function validateEnvironment(raw: Record<string, unknown>): EnvironmentVariables {
  // `NAME=` (as .env.example leaves optional ones) means unset: the default applies, not an empty value.
  const set = Object.fromEntries(Object.entries(raw).filter(([, value]) => value !== ''));
  const env = plainToInstance(EnvironmentVariables, set, { exposeDefaultValues: true });
  const errors = validateSync(env, { skipMissingProperties: false, forbidUnknownValues: false });
  const problems = errors.map((e) => `${e.property}: ${Object.values(e.constraints ?? {}).join(', ')}`);
  // Node refuses this order at server construction; the timeouts are set after it (app.factory.ts), so check here.
  if (env.HTTP_HEADERS_TIMEOUT_MS > env.HTTP_REQUEST_TIMEOUT_MS) problems.push('HTTP_HEADERS_TIMEOUT_MS must not exceed HTTP_REQUEST_TIMEOUT_MS');
  if (env.NODE_ENV === 'production') {
    for (const name of ['CURSOR_SECRET', 'JWT_SECRET'] as const) {
      // A value the decorators refused already has its line.
      const problem = errors.some((e) => e.property === name) ? undefined : productionSecretProblem(name, env[name]);
      if (problem) problems.push(problem);
    }
    // The challenge names the portal's host: a default taken from the listening address would name an internal one.
    if (!env.AUTH_SIWE_DOMAIN) problems.push('AUTH_SIWE_DOMAIN must be set in production (the host the developer portal is served from)');
  }
  if (problems.length > 0) throw new ConfigurationError(problems);
  return env;
}
