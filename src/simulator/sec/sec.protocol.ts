import { SimulatorOptions } from '../simulator-options';
import { SimulatorProtocol } from '../simulator-protocol';
import { SEC_PATH, SecSimulation, startSec } from './sec-handler';
import { SEC_REQUESTS_PER_SECOND_LIMIT } from './sec-rate-limit';

/** A declared User-Agent without spaces, so `export $(npm run -s simulator -- --print-env)` keeps it one word. */
export const SIMULATOR_SEC_USER_AGENT = 'MarketDataApiSimulator(admin@example.com)';

/**
 * The service's per-second budget for a simulator limiting at `limit`: 80% of it (8 of SEC's 10, the service's
 * default), since a request admitted at the end of one second may arrive in the next. Off: the service's maximum.
 */
export function secClientBudget(limit: number): number {
  return limit > 0 ? Math.max(1, Math.floor(limit * 0.8)) : SEC_REQUESTS_PER_SECOND_LIMIT;
}

/** data.sec.gov and www.sec.gov, both under `/sec`. */
export const SEC_PROTOCOL: SimulatorProtocol<SecSimulation> = {
  name: 'sec',
  prefixes: [SEC_PATH],
  summary: `sec: ${SEC_PATH}/submissions, ${SEC_PATH}/files`,
  env: (baseUrl: string, options: SimulatorOptions) => ({
    STOCK_FILINGS_VENDOR: 'sec',
    SEC_USER_AGENT: SIMULATOR_SEC_USER_AGENT,
    SEC_DATA_URL: `${baseUrl}${SEC_PATH}`,
    SEC_FILES_URL: `${baseUrl}${SEC_PATH}`,
    SEC_REQUESTS_PER_SECOND: String(secClientBudget(options.secRequestsPerSecond ?? SEC_REQUESTS_PER_SECOND_LIMIT)),
  }),
  start: startSec,
};
