import { Transform } from 'class-transformer';
import { IsBoolean, IsInt, IsOptional, IsString, Max, MaxLength, Min, MinLength } from 'class-validator';
import { WalletAddress } from '../common/validation/wallet-address.decorator';
import { emptyToUndefined, IsConnectionUrl, toBoolean, toInt } from './env-validators';
import { JobVariables } from './jobs.env';

const WEEK_MS = 7 * 86_400_000;

/**
 * The account programmes: the builder whose fills are the service's revenue, their ingestion, and the claim
 * rounds that pay referral rewards and OPC revenue. NotificationVariables extends it.
 */
export class EconomyVariables extends JobVariables {
  /** The service's Hyperliquid builder address. Unset: only OPC builders' fills are read (and no fee records exist). */
  @Transform(emptyToUndefined)
  @IsOptional()
  @WalletAddress()
  BUILDER_ADDRESS?: string;

  /** The service's base builder fee in tenths of a basis point (10 = 0.01 %); Hyperliquid caps perps at 100. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(100)
  BUILDER_BASE_FEE_TENTHS_BPS = 10;

  /** economy.builder-fills: the daily per-builder fills files, today's fills of account wallets, then points and OPC revenue. */
  @Transform(toBoolean)
  @IsOptional()
  @IsBoolean()
  ECONOMY_BUILDER_FILLS_ENABLED = true;

  @Transform(toInt)
  @IsInt()
  @Min(10_000)
  @Max(86_400_000)
  ECONOMY_BUILDER_FILLS_INTERVAL_MS = 300_000;

  /** How many finished days the first run reads back (files for older days are not fetched). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(365)
  BUILDER_FILLS_BACKFILL_DAYS = 7;

  /** Fills below this notional (USD) earn no points: wash-sized trades are not worth a point. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(1_000_000)
  POINTS_MIN_NOTIONAL_USD = 10;

  /** rewards.publish-round: closes a claim round of each programme (weekly by default). Needs REWARDS_DISTRIBUTOR_ADDRESS. */
  @Transform(toBoolean)
  @IsOptional()
  @IsBoolean()
  REWARDS_PUBLISH_ROUND_ENABLED = true;

  @Transform(toInt)
  @IsInt()
  @Min(60_000)
  @Max(90 * 86_400_000)
  REWARDS_PUBLISH_ROUND_INTERVAL_MS = WEEK_MS;

  /** The Merkle distributor contract the rounds are published for (claimMultiple). Unset: no round is published. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @WalletAddress()
  REWARDS_DISTRIBUTOR_ADDRESS?: string;

  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(16)
  REWARDS_TOKEN_SYMBOL = 'USDC';

  /** Base units of the reward token (USDC: 6): leaf amounts are integers of them. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(18)
  REWARDS_TOKEN_DECIMALS = 6;

  /** Set: rewards.claims reads the distributor's Claimed events through this JSON-RPC endpoint and marks leaves claimed. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsConnectionUrl(['http', 'https'])
  REWARDS_RPC_URL?: string;

  @Transform(toInt)
  @IsInt()
  @Min(5_000)
  @Max(86_400_000)
  REWARDS_CLAIMS_INTERVAL_MS = 300_000;

  /** The first block the Claimed-event scan reads (the distributor's deployment block). */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  REWARDS_FROM_BLOCK = 0;
}
