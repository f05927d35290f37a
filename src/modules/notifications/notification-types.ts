/**
 * Every `type` a notification may carry: a watchlist coin moving beyond the account's threshold within an
 * hour, a position of the account's own wallet nearing its liquidation price, and a watchlist perp's funding
 * rate going beyond the account's threshold.
 */
export const NOTIFICATION_TYPES = ['price_move', 'liquidation_risk', 'funding_rate'] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

export const NOTIFICATION_TYPES_TEXT =
  'price_move (a watchlist coin moved beyond the threshold within an hour), liquidation_risk (a position of the wallet nears its liquidation price), ' +
  'funding_rate (a watchlist perp’s funding rate, annualised, went beyond the threshold either way; again only after it came back within)';
