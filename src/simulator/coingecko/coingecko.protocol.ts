import { SimulatorProtocol } from '../simulator-protocol';
import { COINGECKO_DEMO_CALLS_PER_MINUTE, COINGECKO_PATH, CoinGeckoSimulation, startCoinGecko } from './coingecko-handler';

/** CoinGecko mounts under `/coingecko`: its `/api/v3` would collide with Binance's. */
export const COINGECKO_PROTOCOL: SimulatorProtocol<CoinGeckoSimulation> = {
  name: 'coingecko',
  prefixes: [COINGECKO_PATH],
  summary: `coingecko: ${COINGECKO_PATH}`,
  env: (baseUrl, options) => ({
    COINGECKO_API_URL: `${baseUrl}${COINGECKO_PATH}`,
    // The simulator is the upstream here, so its limit is the service's budget (0 turns both off).
    COINGECKO_CALLS_PER_MINUTE: String(options.coingeckoCallsPerMinute ?? COINGECKO_DEMO_CALLS_PER_MINUTE),
  }),
  start: startCoinGecko,
};
