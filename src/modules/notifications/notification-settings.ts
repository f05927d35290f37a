/** An account's alert thresholds; every field has a default, so an account that never saved any is alerted too. */
export interface NotificationSettings {
  priceMoveEnabled: boolean;
  /** Absolute move in percent, either way, within priceMoveWindowMinutes. */
  priceMovePercent: number;
  /** The window a price move is measured over, one of PRICE_MOVE_WINDOWS_MINUTES. */
  priceMoveWindowMinutes: number;
  liquidationRiskEnabled: boolean;
  /** How close the mark may come to the liquidation price, in percent of the mark. */
  liquidationDistancePercent: number;
  fundingRateEnabled: boolean;
  /** The perp's hourly funding rate, annualised (× 24 × 365), in percent either way. */
  fundingRateAprPercent: number;
}

/**
 * The windows an account may measure price moves over: a quarter hour, an hour, four hours and a day. The
 * mid samples are kept 26 hours (hl.state), so a day's reference price is always there.
 */
export const PRICE_MOVE_WINDOWS_MINUTES = [15, 60, 240, 1440] as const;
/** Bounds of both percent thresholds: below 1 % an alert is noise, above 50 % it comes too late. */
export const THRESHOLD_PERCENT_RANGE = { min: 1, max: 50 } as const;
/**
 * Bounds of the funding threshold (annualised percent): Hyperliquid's resting rate is 11 % a year, so less
 * than 5 % fires on every coin, and its cap (4 % an hour) is 35,040 % a year.
 */
export const FUNDING_APR_PERCENT_RANGE = { min: 5, max: 35_040 } as const;
/** Hours in a year, the factor from Hyperliquid's hourly funding rate to the annualised one. */
export const FUNDING_HOURS_PER_YEAR = 24 * 365;

export const DEFAULT_NOTIFICATION_SETTINGS: NotificationSettings = {
  priceMoveEnabled: true,
  priceMovePercent: 5,
  priceMoveWindowMinutes: 60,
  liquidationRiskEnabled: true,
  liquidationDistancePercent: 5,
  fundingRateEnabled: true,
  fundingRateAprPercent: 50,
};

/**
 * The stored settings over the defaults: a field the account never set, or one added later, reads as its
 * default, and so does a window no longer offered.
 */
export function withDefaults(stored: Partial<NotificationSettings> | null): NotificationSettings {
  const settings = { ...DEFAULT_NOTIFICATION_SETTINGS };
  for (const key of Object.keys(settings) as Array<keyof NotificationSettings>) {
    const value = stored?.[key];
    if (typeof value === typeof settings[key]) Object.assign(settings, { [key]: value });
  }
  if (!isPriceMoveWindow(settings.priceMoveWindowMinutes)) settings.priceMoveWindowMinutes = DEFAULT_NOTIFICATION_SETTINGS.priceMoveWindowMinutes;
  return settings;
}

export function isPriceMoveWindow(minutes: number): boolean {
  return (PRICE_MOVE_WINDOWS_MINUTES as readonly number[]).includes(minutes);
}
