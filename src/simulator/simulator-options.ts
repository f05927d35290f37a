/** How one simulator run is set up; every protocol reads the options it needs and defaults the rest. */
export interface SimulatorOptions {
  port?: number;
  host?: string;
  wallets?: number;
  seed?: number;
  /** The service's Hyperliquid builder address, which most builder-attributed trades go through (SIMULATED_SERVICE_BUILDER). */
  serviceBuilder?: string;
  /** Hyperliquid weight per minute per client IP; 0 turns the budget off (benchmarks). */
  weightPerMinute?: number;
  priceStepMs?: number;
  /** CoinGecko calls per minute per key (or address); 0 turns the budget off. */
  coingeckoCallsPerMinute?: number;
  /** Binance request weight per minute per address; 0 turns the budget off. */
  binanceWeightPerMinute?: number;
  /** Yahoo calls per minute per address; 0 turns the budget off. */
  yahooCallsPerMinute?: number;
  /** How long a Yahoo crumb stays valid after it is issued. */
  yahooCrumbTtlMs?: number;
  /** SEC requests per second per address (SEC's is 10); 0 turns the limit off. */
  secRequestsPerSecond?: number;
  /** How long SEC limits an address once it went past the limit (SEC's ~10 minutes). */
  secBlockMs?: number;
  /** Time source; tests pin it to compare two simulators at the same instant. */
  clock?: () => number;
}

export const DEFAULT_PORT = 7070;
export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_WALLETS = 500;

/** The base URL of a simulator on host:port; protocols append their own path prefixes. */
export function simulatorUrl(host: string, port: number): string {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}
