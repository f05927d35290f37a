/**
 * Credits per successful call (contract part 8.3): the single source of every route's cost. A public
 * route names its entry with @PublicEndpoint('<name>'), so a route without a cost does not compile.
 * Names are the internal dotted endpoint names that /usage reports.
 */
export const CREDIT_COSTS = {
  'usage.list': 0,

  'hl.spot.holders': 1,
  'hl.perp.holders': 1,
  'hl.prices.mids': 1,
  'hl.trending': 1,
  'hl.leaderboard': 1,
  'hl.perp.liquidation-map': 2,
  'hl.hip3.smart-trader': 2,
  'hl.hip4.smart-trader': 2,

  'news.feed': 1,
  'news.detail': 1,
  'news.search': 2,

  'markets.assets': 1,
  'markets.asset': 1,
  'markets.trending-gainers': 1,
  'markets.tickers': 1,
  'markets.search': 2,
  'markets.klines': 2,
  'markets.global-stats': 1,

  'stocks.overview': 1,
  'stocks.fundamentals': 1,
  'stocks.company': 1,
  'stocks.news': 1,
  'stocks.sec-filings': 2,
  'stocks.rwa': 1,

  'account.summary': 1,
  'account.vip': 1,
  'account.vip.entitlements': 1,
  'account.credits': 1,
  'account.credits.transactions': 1,
  'account.watchlist': 1,
  'account.watchlist.entries': 1,
  'account.notifications': 1,
  'account.notifications.unread': 1,
  'account.fees': 1,
  'account.points': 1,
  'account.points.transactions': 1,
  'account.referrals': 1,
  'account.referrals.referees': 1,
  'account.referrals.claims': 1,
  'account.referrals.claims.status': 1,
  'account.referrals.claims.all': 1,
  'account.opc': 1,
  'account.opc.revenue': 1,
  'account.opc.revenue.summary': 1,
  'account.opc.claimable': 1,
  'account.opc.claims': 1,
} as const satisfies Record<string, number>;

export type EndpointName = keyof typeof CREDIT_COSTS;

export function creditCostOf(endpoint: EndpointName): number {
  return CREDIT_COSTS[endpoint];
}
