import { SimulatorProtocol } from '../simulator-protocol';
import { BINANCE_PATH, BINANCE_SPOT_WEIGHT_PER_MINUTE, BinanceSimulation, startBinance } from './binance-handler';

/** Binance mounts under `/binance`: its `/api/v3` would collide with CoinGecko's. */
export const BINANCE_PROTOCOL: SimulatorProtocol<BinanceSimulation> = {
  name: 'binance',
  prefixes: [BINANCE_PATH],
  summary: `binance: ${BINANCE_PATH}/api/v3`,
  env: (baseUrl, options) => ({
    BINANCE_API_URL: `${baseUrl}${BINANCE_PATH}`,
    BINANCE_WEIGHT_PER_MINUTE: String(options.binanceWeightPerMinute ?? BINANCE_SPOT_WEIGHT_PER_MINUTE),
  }),
  start: startBinance,
};
