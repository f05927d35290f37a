import { MarketBook } from '../world/market-book';
import { DAY_MS, imageUrl, pctChange } from './coin-markets';
import { inEveryCurrency } from './vs-currencies';

const DOMINANCE_ENTRIES = 10;
const SEARCH_RESULTS = 25;
/** Venues behind the tickers and derivatives (CoinGecko counts exchanges' markets here). */
const MARKET_COUNT = 9;

/** `/global`: totals over the whole universe at t, in every vs-currency. */
export function globalStats(book: MarketBook, t: number): object {
  const ranked = book.coinsByMarketCap(t);
  const caps = ranked.map((coin) => book.coinMarketCap(coin, t));
  const totalCap = caps.reduce((sum, cap) => sum + cap, 0);
  const totalCap24 = ranked.reduce((sum, coin) => sum + book.coinMarketCap(coin, t - DAY_MS), 0);
  const totalVolume = ranked.reduce((sum, coin) => sum + book.coinVolume24h(coin, t), 0);
  const dominance: Record<string, number> = {};
  ranked.slice(0, DOMINANCE_ENTRIES).forEach((coin, k) => {
    dominance[coin.symbol] ??= (caps[k] / totalCap) * 100;
  });
  return {
    data: {
      active_cryptocurrencies: book.coins.length,
      upcoming_icos: 0,
      ongoing_icos: 49,
      ended_icos: 3376,
      markets: MARKET_COUNT,
      total_market_cap: inEveryCurrency(book, totalCap, t, (value) => value),
      total_volume: inEveryCurrency(book, totalVolume, t, (value) => value),
      market_cap_percentage: dominance,
      market_cap_change_percentage_24h_usd: pctChange(totalCap, totalCap24),
      updated_at: Math.floor(t / 1000),
    },
  };
}

/** `/search?query=`: coins whose id, name or symbol contains the query, by market-cap rank. */
export function search(book: MarketBook, query: string, t: number): object {
  const needle = query.trim().toLowerCase();
  const ranked = book.coinsByMarketCap(t);
  const coins = needle
    ? ranked
        .map((coin, k) => ({ coin, rank: k + 1 }))
        .filter(({ coin }) => coin.id.includes(needle) || coin.name.toLowerCase().includes(needle) || coin.symbol.includes(needle))
        .slice(0, SEARCH_RESULTS)
        .map(({ coin, rank }) => ({
          id: coin.id,
          name: coin.name,
          api_symbol: coin.id,
          symbol: coin.symbol.toUpperCase(),
          market_cap_rank: rank,
          thumb: imageUrl(coin, 'thumb'),
          large: imageUrl(coin, 'large'),
        }))
    : [];
  return { coins, exchanges: [], icos: [], categories: [], nfts: [] };
}
