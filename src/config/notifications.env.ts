import { Transform } from 'class-transformer';
import { IsBoolean, IsInt, IsOptional, Max, Min } from 'class-validator';
import { EconomyVariables } from './economy.env';
import { toBoolean, toInt } from './env-validators';

/** The notifications generator and the retention of read notifications. AuthVariables extends it. */
export class NotificationVariables extends EconomyVariables {
  /** notifications.generate: alerts of watchlist price moves and of positions nearing liquidation. */
  @Transform(toBoolean)
  @IsOptional()
  @IsBoolean()
  NOTIFICATIONS_GENERATE_ENABLED = true;

  /** A minute by default: the mids it compares are sampled once a minute. */
  @Transform(toInt)
  @IsInt()
  @Min(5_000)
  @Max(3_600_000)
  NOTIFICATIONS_GENERATE_INTERVAL_MS = 60_000;

  /** housekeeping.notifications: prunes read notifications past NOTIFICATIONS_RETENTION_DAYS. */
  @Transform(toBoolean)
  @IsOptional()
  @IsBoolean()
  HOUSEKEEPING_NOTIFICATIONS_ENABLED = true;

  @Transform(toInt)
  @IsInt()
  @Min(60_000)
  @Max(86_400_000)
  HOUSEKEEPING_NOTIFICATIONS_INTERVAL_MS = 3_600_000;

  /** Days a read notification is kept; the housekeeping prune deletes older ones (unread ones stay). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(3650)
  NOTIFICATIONS_RETENTION_DAYS = 90;
}
