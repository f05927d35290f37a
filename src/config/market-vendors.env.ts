import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, IsUrl, Max, MaxLength, Min } from 'class-validator';
import { emptyToUndefined, toBoolean, toInt } from './env-validators';
import { StockVendorVariables } from './stock-vendors.env';

/** The market-data vendors' settings (CoinGecko, Binance, Yahoo Finance); EnvironmentVariables extends it. */
export class MarketVendorVariables extends StockVendorVariables {
  /** Who answers crypto market data; none: those routes answer 503 MARKET_DATA_DISABLED. */
  @IsIn(['coingecko', 'none'])
  MARKET_DATA_CRYPTO_VENDOR: 'coingecko' | 'none' = 'coingecko';

  /** Who answers stocks, ETFs, FX and commodities; none: those routes answer 503 MARKET_DATA_DISABLED. */
  @IsIn(['yahoo', 'none'])
  MARKET_DATA_TRADFI_VENDOR: 'yahoo' | 'none' = 'yahoo';

  /** demo: the free key on api.coingecko.com (x-cg-demo-api-key); pro: pro-api.coingecko.com (x-cg-pro-api-key). */
  @IsIn(['demo', 'pro'])
  COINGECKO_PLAN: 'demo' | 'pro' = 'demo';

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  @MaxLength(200)
  COINGECKO_API_KEY?: string;

  /** Unset: the plan's own host. Set it to point the client at the upstream simulator. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsUrl({ require_tld: false, require_protocol: true })
  COINGECKO_API_URL?: string;

  /** The demo plan allows about 30 calls a minute, varying with load; this is the budget all replicas share. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(100_000)
  COINGECKO_CALLS_PER_MINUTE = 25;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsUrl({ require_tld: false, require_protocol: true })
  BINANCE_API_URL = 'https://api.binance.com';

  /** Binance's request weight per minute shared by all replicas (its own limit is higher; klines weigh 2). */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(100_000)
  BINANCE_WEIGHT_PER_MINUTE = 1000;

  /** Yahoo Finance's query host (chart, quote, spark, quoteSummary, crumb). */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsUrl({ require_tld: false, require_protocol: true })
  YAHOO_QUERY_URL = 'https://query1.finance.yahoo.com';

  /** The page whose response sets the session cookie the crumb is bound to. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsUrl({ require_tld: false, require_protocol: true })
  YAHOO_COOKIE_URL = 'https://fc.yahoo.com';

  /** Yahoo publishes no limit and blocks for hours past it: about one call a second, shared by all replicas. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(100_000)
  YAHOO_CALLS_PER_MINUTE = 60;

  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(120_000)
  MARKET_UPSTREAM_TIMEOUT_MS = 10_000;

  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(5)
  MARKET_UPSTREAM_MAX_RETRIES = 2;

  /** The switch of every markets.* job (quote and catalogue refreshes). */
  @Transform(toBoolean)
  @IsOptional()
  @IsBoolean()
  MARKETS_JOBS_ENABLED = true;

  @Transform(toBoolean)
  @IsOptional()
  @IsBoolean()
  MARKETS_CRYPTO_ENABLED = true;

  /** Crypto catalogue and quotes: one CoinGecko call per 250 coins of the universe each run. */
  @Transform(toInt)
  @IsInt()
  @Min(10_000)
  @Max(86_400_000)
  MARKETS_CRYPTO_INTERVAL_MS = 60_000;

  @Transform(toBoolean)
  @IsOptional()
  @IsBoolean()
  MARKETS_TRADFI_ENABLED = true;

  /** Stocks, ETFs, FX and futures: the seed list, then Yahoo quotes (50 a call) and sparks (20 a call) of every listed one. */
  @Transform(toInt)
  @IsInt()
  @Min(10_000)
  @Max(86_400_000)
  MARKETS_TRADFI_INTERVAL_MS = 120_000;

  /** The crypto universe: the top N coins by market cap. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(5_000)
  MARKETS_CRYPTO_UNIVERSE = 1_000;
}
