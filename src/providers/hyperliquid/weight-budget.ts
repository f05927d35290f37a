import { KvStore } from '../../infra/kv/kv-store';
import { RequestBudget, RequestBudgetOptions } from '../kit/request-budget';

// Re-exported for the KV-script suite, which imports the spend script from here.

export const HYPERLIQUID_PROVIDER = 'hyperliquid';
/** The upstream weighs requests per IP per minute. */
export const WEIGHT_WINDOW_MS = 60_000;

/** Info request types with weight 2 (Hyperliquid docs, "Rate limits and user limits"). */
const LIGHT_TYPES: ReadonlySet<string> = new Set(['l2Book', 'allMids', 'clearinghouseState', 'orderStatus', 'spotClearinghouseState', 'exchangeStatus']);
/** Types that cost one more unit per 20 items returned. */
const PER_20_ITEMS_TYPES: ReadonlySet<string> = new Set([
  'recentTrades',
  'historicalOrders',
  'userFills',
  'userFillsByTime',
  'fundingHistory',
  'userFunding',
  'nonUserFundingUpdates',
  'twapHistory',
  'userTwapSliceFills',
  'userTwapSliceFillsByTime',
  'delegatorHistory',
  'delegatorRewards',
  'validatorStats',
]);

/**
 * History reads: the types whose weight grows with the response (trades, fills, funding, candles). They may
 * spend at most a share of the budget, so a job reading them can never starve the account reads.
 */
export function isHistoryType(type: string): boolean {
  return PER_20_ITEMS_TYPES.has(type) || type === 'candleSnapshot';
}

/** The upfront weight of one `POST /info` request of this type: 2, 60 for userRole, 20 for every other type. */
export function requestWeight(type: string): number {
  if (LIGHT_TYPES.has(type)) return 2;
  if (type === 'userRole') return 60;
  return 20;
}

/**
 * The weight the upstream adds once it knows the response size: one per whole 20 items for fills, trades
 * and the other listed history types, one per whole 60 candles for candleSnapshot. The docs say "per 20
 * items returned" without rounding; whole units (floor) match how others read it (2,000 fills = +100).
 */
export function extraWeight(type: string, itemCount: number): number {
  if (PER_20_ITEMS_TYPES.has(type)) return Math.floor(itemCount / 20);
  if (type === 'candleSnapshot') return Math.floor(itemCount / 60);
  return 0;
}

export interface HyperliquidBudgetOptions extends Pick<RequestBudgetOptions, 'now' | 'sleep' | 'random'> {
  kv: KvStore;
  /** 0 turns budgeting off. */
  weightPerMinute: number;
  /** Percent of weightPerMinute that history reads (isHistoryType) may spend. */
  historySharePercent?: number;
  windowMs?: number;
}

/**
 * The upstream's per-IP weight limit as the generic request budget: one-minute windows under
 * `budget:hyperliquid:*`, spent with requestWeight before each attempt and charged extraWeight after.
 */
export function hyperliquidWeightBudget({
  kv,
  weightPerMinute,
  historySharePercent,
  windowMs = WEIGHT_WINDOW_MS,
  ...clock
}: HyperliquidBudgetOptions): RequestBudget {
  return new RequestBudget({ kv, provider: HYPERLIQUID_PROVIDER, weightPerWindow: weightPerMinute, windowMs, historySharePercent, ...clock });
}
