/** OpenAPI text shared by the Stocks routes (docs/decisions.md, "Stocks"). */

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
