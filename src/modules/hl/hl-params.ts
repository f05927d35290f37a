/**
 * The enumerated query values of the /hl routes and what each one means in SQL. Column names are only
 * ever taken from these maps, never from input, so they can be placed in statements safely.
 */

export const HOLDERS_LIMIT = { defaultLimit: 100, maxLimit: 500 } as const;
export const LEADERBOARD_LIMIT = { defaultLimit: 100, maxLimit: 500 } as const;
export const TRENDING_LIMIT = { defaultLimit: 50, maxLimit: 200 } as const;
export const SMART_TRADER_LIMIT = { defaultLimit: 50, maxLimit: 200 } as const;

/** Perp holders `sortBy` → rank column of hl_perp_holders (1 = largest). */
export const PERP_HOLDER_RANKS = { value: 'rank_value', pnl: 'rank_pnl' } as const;
export type PerpHolderSort = keyof typeof PERP_HOLDER_RANKS;
export const PERP_HOLDER_SORTS = Object.keys(PERP_HOLDER_RANKS) as PerpHolderSort[];

/** Leaderboard `sort` (contract 4.1) → rank column of hl_leaderboard (1 = largest). */
export const LEADERBOARD_RANKS = {
  pnl_day: 'rank_pnl_day',
  pnl_week: 'rank_pnl_week',
  pnl_month: 'rank_pnl_month',
  pnl_allTime: 'rank_pnl_all_time',
  roi_day: 'rank_roi_day',
  roi_week: 'rank_roi_week',
  roi_month: 'rank_roi_month',
  roi_allTime: 'rank_roi_all_time',
  vlm_day: 'rank_vlm_day',
  vlm_week: 'rank_vlm_week',
  vlm_month: 'rank_vlm_month',
  vlm_allTime: 'rank_vlm_all_time',
  accountValue: 'rank_account_value',
} as const;
export type LeaderboardSort = keyof typeof LEADERBOARD_RANKS;
export const LEADERBOARD_SORTS = Object.keys(LEADERBOARD_RANKS) as LeaderboardSort[];

/** Leaderboard windows in contract order, with their hl_leaderboard column suffix. */
export const LEADERBOARD_WINDOWS = [
  ['day', 'day'],
  ['week', 'week'],
  ['month', 'month'],
  ['allTime', 'all_time'],
] as const;
export type LeaderboardWindow = (typeof LEADERBOARD_WINDOWS)[number][0];

/** Smart-trader `sort` → hl_smart_traders column. Both markets share the set (none is HIP-3-only). */
export const SMART_TRADER_COLUMNS = {
  pnl: 'pnl',
  pnlPct: 'pnl_pct',
  tradeCount: 'trade_count',
  totalBuyUsd: 'total_buy_usd',
  totalSellUsd: 'total_sell_usd',
  realizedPnl: 'realized_pnl',
  unrealizedPnl: 'unrealized_pnl',
  lastTradeAt: 'last_trade_at',
} as const;
export type SmartTraderSort = keyof typeof SMART_TRADER_COLUMNS;
export const SMART_TRADER_SORTS = Object.keys(SMART_TRADER_COLUMNS) as SmartTraderSort[];

export const TRENDING_PERIODS = ['15m', '1h', '4h', '24h'] as const;
export type TrendingPeriod = (typeof TRENDING_PERIODS)[number];
export const TRENDING_MARKETS = ['all', 'spot', 'perp'] as const;
export type TrendingMarket = (typeof TRENDING_MARKETS)[number];
