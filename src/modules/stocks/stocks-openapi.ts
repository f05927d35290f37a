/** OpenAPI text shared by the Stocks routes (docs/decisions.md, "Stocks"). */
import { YAHOO_METRICS } from '../../providers/yahoo/yahoo-fundamentals.mapping';
import { STATEMENT_LINES } from '../../providers/yahoo/yahoo-statements.mapping';

export const STOCK_SYMBOL = {
  description:
    'A stock, case-insensitive: bare ticker or `<TICKER>-<MARKET>` (AAPL and AAPL-US are the same; 0700 and 0700-HK). A bare ticker listed on ' +
    'several markets is its primary listing, in the order US, HK, JP, KR. Crypto, ETFs and other classes are not stocks: 404 MARKET_ASSET_NOT_FOUND.',
  example: 'AAPL',
};

export const PARTIAL_ANSWER =
  'Assembled from several vendor calls: one that fails leaves its sections empty and adds an `errors` entry (section, endpoint, message; no ' +
  'upstream host or secret), and the answer is asked again after a minute rather than 30. Only when every call fails and nothing is cached ' +
  '(up to an hour old) is it 502 MARKET_UPSTREAM_ERROR.';

/** What the default vendor (Yahoo) fills: the metric keys and each statement's line items. */
export const FUNDAMENTALS_KEYS =
  `With the default vendor, overviewMetrics keys are, in order: ${YAHOO_METRICS.map((metric) => metric.key).join(', ')} (a metric without a ` +
  'figure is left out; valueUsd is empty for ratios and counts). Statement line items: ' +
  Object.entries(STATEMENT_LINES)
    .map(([statement, lines]) => `${statement}: ${lines.map(([, key]) => key).join(', ')}`)
    .join('; ') +
  '. Annual periods are `FY<year the period ends in>`; quarters count from the fiscal year end (`Q1 FY2025` ends December 2024 for a September year end).';
