/**
 * Every `type` a notification may carry: a watchlist coin moving beyond the account's threshold within an
 * hour, and a position of the account's own wallet nearing its liquidation price.
 */
export const NOTIFICATION_TYPES = ['price_move', 'liquidation_risk'] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

export const NOTIFICATION_TYPES_TEXT =
  'price_move (a watchlist coin moved beyond the threshold within an hour), liquidation_risk (a position of the wallet nears its liquidation price)';
