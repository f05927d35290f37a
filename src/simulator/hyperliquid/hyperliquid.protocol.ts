import { SimulatorProtocol } from '../simulator-protocol';
import { SIMULATED_SERVICE_BUILDER } from '../world/builders';
import { HyperliquidSimulation, INFO_PATH, MAINNET_WEIGHT_PER_MINUTE, startHyperliquid, STATS_PATH } from './hyperliquid-handler';

/**
 * Hyperliquid keeps the upstream's own paths (`/info` on the API host, `/Mainnet/...` on the stats host): nothing
 * else uses them, and local .env files already point there. Vendors whose paths would collide (two `/api/v3`s)
 * mount under `/<vendor>`.
 */
export const HYPERLIQUID_PROTOCOL: SimulatorProtocol<HyperliquidSimulation> = {
  name: 'hyperliquid',
  prefixes: [INFO_PATH, STATS_PATH],
  summary: `info: ${INFO_PATH}, stats: ${STATS_PATH}`,
  env: (baseUrl, options) => ({
    HYPERLIQUID_INFO_URL: `${baseUrl}${INFO_PATH}`,
    HYPERLIQUID_STATS_URL: `${baseUrl}${STATS_PATH}`,
    // The service's budget exists to stay under the upstream's limit, and here the simulator is the upstream:
    // its limit is the right budget, and 0 (limit off) turns the service's budget off too.
    HYPERLIQUID_WEIGHT_PER_MINUTE: String(options.weightPerMinute ?? MAINNET_WEIGHT_PER_MINUTE),
    // The builder most simulated traders trade through: the service reads its fills as its own.
    BUILDER_ADDRESS: options.serviceBuilder ?? SIMULATED_SERVICE_BUILDER,
  }),
  start: startHyperliquid,
};
