import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsNumber, IsOptional, Max, Min } from 'class-validator';
import { DEFAULT_NOTIFICATION_SETTINGS, FUNDING_APR_PERCENT_RANGE, PRICE_MOVE_WINDOWS_MINUTES, THRESHOLD_PERCENT_RANGE } from '../notification-settings';

const { min, max } = THRESHOLD_PERCENT_RANGE;
const PERCENT = { maxDecimalPlaces: 2, allowNaN: false, allowInfinity: false };
const WINDOWS = PRICE_MOVE_WINDOWS_MINUTES.join(', ');
const WINDOW_DESCRIPTION = `The window a price move is measured over, in minutes: one of ${WINDOWS} (default ${DEFAULT_NOTIFICATION_SETTINGS.priceMoveWindowMinutes})`;

/** The account's alert thresholds as served. */
export class NotificationSettingsDto {
  @ApiProperty({ example: DEFAULT_NOTIFICATION_SETTINGS.priceMoveEnabled, description: 'Alert on price moves of watchlist coins' })
  priceMoveEnabled: boolean;

  @ApiProperty({
    example: DEFAULT_NOTIFICATION_SETTINGS.priceMovePercent,
    description: `A move of at least this many percent either way within priceMoveWindowMinutes alerts (${min}-${max})`,
  })
  priceMovePercent: number;

  @ApiProperty({ example: DEFAULT_NOTIFICATION_SETTINGS.priceMoveWindowMinutes, enum: PRICE_MOVE_WINDOWS_MINUTES, description: WINDOW_DESCRIPTION })
  priceMoveWindowMinutes: number;

  @ApiProperty({ example: DEFAULT_NOTIFICATION_SETTINGS.liquidationRiskEnabled, description: 'Alert when a position of the wallet nears liquidation' })
  liquidationRiskEnabled: boolean;

  @ApiProperty({
    example: DEFAULT_NOTIFICATION_SETTINGS.liquidationDistancePercent,
    description: `A mark within this many percent of the position's liquidation price alerts (${min}-${max})`,
  })
  liquidationDistancePercent: number;

  @ApiProperty({
    example: DEFAULT_NOTIFICATION_SETTINGS.fundingRateEnabled,
    description: 'Alert when a watchlist perp’s funding rate goes beyond the threshold',
  })
  fundingRateEnabled: boolean;

  @ApiProperty({
    example: DEFAULT_NOTIFICATION_SETTINGS.fundingRateAprPercent,
    description: `A perp's hourly funding rate, annualised (× 24 × 365), at or beyond this many percent either way alerts (${FUNDING_APR_PERCENT_RANGE.min}-${FUNDING_APR_PERCENT_RANGE.max})`,
  })
  fundingRateAprPercent: number;
}

/**
 * PUT body: the fields given replace the stored ones; the others keep their value (their default if never set).
 * Every field GET serves is accepted, so a client can write back what it read with one field changed.
 */
export class UpdateNotificationSettingsDto {
  @ApiPropertyOptional({ example: true })
  @IsOptional()
  @IsBoolean()
  priceMoveEnabled?: boolean;

  @ApiPropertyOptional({ example: 5, minimum: min, maximum: max, description: `Percent, ${min}-${max}, up to 2 decimals` })
  @IsOptional()
  @IsNumber(PERCENT)
  @Min(min)
  @Max(max)
  priceMovePercent?: number;

  @ApiPropertyOptional({ example: 60, enum: PRICE_MOVE_WINDOWS_MINUTES, description: WINDOW_DESCRIPTION })
  @IsOptional()
  @IsIn(PRICE_MOVE_WINDOWS_MINUTES, { message: `must be one of ${WINDOWS} (minutes)` })
  priceMoveWindowMinutes?: number;

  @ApiPropertyOptional({ example: true })
  @IsOptional()
  @IsBoolean()
  liquidationRiskEnabled?: boolean;

  @ApiPropertyOptional({ example: 5, minimum: min, maximum: max, description: `Percent, ${min}-${max}, up to 2 decimals` })
  @IsOptional()
  @IsNumber(PERCENT)
  @Min(min)
  @Max(max)
  liquidationDistancePercent?: number;

  @ApiPropertyOptional({ example: true })
  @IsOptional()
  @IsBoolean()
  fundingRateEnabled?: boolean;

  @ApiPropertyOptional({
    example: 50,
    minimum: FUNDING_APR_PERCENT_RANGE.min,
    maximum: FUNDING_APR_PERCENT_RANGE.max,
    description: `Annualised percent, ${FUNDING_APR_PERCENT_RANGE.min}-${FUNDING_APR_PERCENT_RANGE.max}, up to 2 decimals`,
  })
  @IsOptional()
  @IsNumber(PERCENT)
  @Min(FUNDING_APR_PERCENT_RANGE.min)
  @Max(FUNDING_APR_PERCENT_RANGE.max)
  fundingRateAprPercent?: number;
}
