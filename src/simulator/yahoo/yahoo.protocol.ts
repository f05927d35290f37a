import { SimulatorProtocol } from '../simulator-protocol';
import { startYahoo, YAHOO_COOKIE_PATH, YAHOO_DEFAULT_CALLS_PER_MINUTE, YAHOO_PATH, YahooSimulation } from './yahoo-handler';

/** Yahoo's query host and its cookie page, both under `/yahoo`. */
export const YAHOO_PROTOCOL: SimulatorProtocol<YahooSimulation> = {
  name: 'yahoo',
  prefixes: [YAHOO_PATH],
  summary: `yahoo: ${YAHOO_PATH}, cookie: ${YAHOO_COOKIE_PATH}`,
  env: (baseUrl, options) => ({
    YAHOO_QUERY_URL: `${baseUrl}${YAHOO_PATH}`,
    YAHOO_COOKIE_URL: `${baseUrl}${YAHOO_COOKIE_PATH}`,
    YAHOO_CALLS_PER_MINUTE: String(options.yahooCallsPerMinute ?? YAHOO_DEFAULT_CALLS_PER_MINUTE),
  }),
  start: startYahoo,
};
