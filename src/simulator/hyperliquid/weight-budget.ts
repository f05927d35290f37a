/** Upstream weight per request type (docs: 2 for the light reads, 20 for most others). */
const LIGHT_TYPES = new Set(['allMids', 'clearinghouseState', 'spotClearinghouseState', 'l2Book', 'exchangeStatus']);
/** These add 1 per 20 items returned on top of their base weight. */
const PER_ITEM_TYPES = new Set(['recentTrades', 'userFills', 'userFillsByTime']);
const ITEMS_PER_EXTRA_WEIGHT = 20;
export const WINDOW_MS = 60_000;

export function baseWeight(type: string): number {
  return LIGHT_TYPES.has(type) ? 2 : 20;
}

export function itemWeight(type: string, items: number): number {
  return PER_ITEM_TYPES.has(type) ? Math.floor(items / ITEMS_PER_EXTRA_WEIGHT) : 0;
}

export type BudgetDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/**
 * Weight per client IP in fixed one-minute windows. A request is refused when its base weight no longer fits;
 * per-item weight is charged after the answer, so a window can end slightly over its limit as upstream does.
 */
export class WeightBudget {
  private readonly windows = new Map<string, { start: number; spent: number }>();

  constructor(private readonly limitPerMinute: number) {}

  get enabled(): boolean {
    return this.limitPerMinute > 0;
  }

  reserve(client: string, weight: number, now: number): BudgetDecision {
    if (!this.enabled) return { allowed: true };
    const window = this.windowOf(client, now);
    if (window.spent + weight > this.limitPerMinute) {
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((window.start + WINDOW_MS - now) / 1000)) };
    }
    window.spent += weight;
    return { allowed: true };
  }

  charge(client: string, weight: number, now: number): void {
    if (this.enabled && weight > 0) this.windowOf(client, now).spent += weight;
  }

  spent(client: string, now: number): number {
    return this.windowOf(client, now).spent;
  }

  private windowOf(client: string, now: number): { start: number; spent: number } {
    const start = Math.floor(now / WINDOW_MS) * WINDOW_MS;
    let window = this.windows.get(client);
    if (!window || window.start !== start) {
      window = { start, spent: 0 };
      this.windows.set(client, window);
    }
    return window;
  }
}
