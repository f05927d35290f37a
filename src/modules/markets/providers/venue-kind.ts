/**
 * CoinGecko's tickers do not say whether a venue is centralised (only `/exchanges/{id}` does, one call per
 * venue, more than a free plan's budget allows on a ticker request). Decentralised venues are told by
 * these words in the venue's id or name: the protocols behind most DEX volume. Everything else is a CEX.
 * Data, not logic: extend the list as venues appear.
 */
// prettier-ignore
const DEX_WORDS = [
  'uniswap', 'pancakeswap', 'sushiswap', 'curve', 'balancer', 'aerodrome', 'velodrome', 'raydium', 'orca', 'meteora',
  'jupiter', 'trader joe', 'traderjoe', 'quickswap', 'camelot', 'thena', 'osmosis', 'dydx', 'gmx', 'drift', 'aevo',
  'vertex', 'hyperliquid', 'paradex', 'apex', 'lighter', 'aster', 'bluefin', 'kwenta', 'synthetix', 'dodo', '1inch',
  'maverick', 'ston.fi', 'dedust', 'cetus', 'pumpswap', 'fluid', 'ekubo', 'ambient', 'lfj', 'spookyswap', 'biswap',
];

/** 'dex' when the venue's id or name names a decentralised protocol, else 'cex'. */
export function venueKindOf(venue: string, venueId: string | null = null): 'cex' | 'dex' {
  const text = `${venueId ?? ''} ${venue}`.toLowerCase();
  return DEX_WORDS.some((word) => text.includes(word)) ? 'dex' : 'cex';
}
