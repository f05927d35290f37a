import { Transform } from 'class-transformer';
import { IsInt, IsOptional, IsString, IsUrl, Matches, Max, MaxLength, Min } from 'class-validator';
import { emptyToUndefined, IsConnectionUrl, toInt } from './env-validators';
import { NotificationVariables } from './notifications.env';

/**
 * The wallet-session backend (`/api/v1`): the Sign-In with Ethereum challenge, the JWT sessions and the
 * auth routes' own rate limits. NewsVariables extends it.
 */
export class AuthVariables extends NotificationVariables {
  /** host[:port] the portal is served from; a wallet warns when it differs from the page's origin. Default: HTTP_HOST:PORT. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^[a-z0-9.-]+(:\d{1,5})?$/i, { message: 'AUTH_SIWE_DOMAIN must be a host name with an optional port, e.g. portal.example.com' })
  AUTH_SIWE_DOMAIN?: string;

  /** The URI the challenge names (EIP-4361 `URI`). Default: http://AUTH_SIWE_DOMAIN/portal. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsUrl({ require_tld: false, protocols: ['http', 'https'], require_protocol: true })
  @MaxLength(200)
  AUTH_SIWE_URI?: string;

  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(2 ** 31 - 1)
  AUTH_SIWE_CHAIN_ID = 1;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  @MaxLength(200)
  AUTH_SIWE_STATEMENT?: string;

  /** How long a login challenge may be signed (contract 8.7: typically 5 minutes). */
  @Transform(toInt)
  @IsInt()
  @Min(10_000)
  @Max(3_600_000)
  AUTH_CHALLENGE_TTL_MS = 300_000;

  /**
   * Login challenges outstanding at once over every client (under 1 KB of KV store each); past it, login
   * answers 503 with Retry-After until some are used or expire.
   */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  AUTH_CHALLENGES_MAX = 20_000;

  /** Lifetime of one access token; refresh before it ends. */
  @Transform(toInt)
  @IsInt()
  @Min(60_000)
  @Max(86_400_000)
  AUTH_TOKEN_TTL_MS = 3_600_000;

  /** Absolute lifetime of a session, however often its token is refreshed; then the wallet signs in again. */
  @Transform(toInt)
  @IsInt()
  @Min(60_000)
  @Max(90 * 86_400_000)
  AUTH_SESSION_MAX_MS = 7 * 86_400_000;

  /** A rotated token presented again within this window gets the same successor (a lost response), not a revoked session. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(60_000)
  AUTH_REFRESH_GRACE_MS = 10_000;

  /** Calls to the auth routes per client address per clock minute. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(100_000)
  AUTH_RATE_LIMIT_PER_IP = 60;

  /** Calls to the auth routes per wallet address per clock minute. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(100_000)
  AUTH_RATE_LIMIT_PER_ADDRESS = 20;

  /** An Ethereum JSON-RPC endpoint: with it, smart-contract wallets sign in through EIP-1271. Off when unset. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsConnectionUrl(['http', 'https'])
  AUTH_RPC_URL?: string;
}
