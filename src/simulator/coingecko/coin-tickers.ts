import { CryptoCoin } from '../world/crypto-universe';
import { MarketBook } from '../world/market-book';
import { hash2, unit } from '../world/prng';
import { cgPrice, DAY_MS, pctChange, round } from './coin-markets';

interface Venue {
  name: string;
  identifier: string;
  /** Share of a coin's volume it takes when it lists the coin. */
  weight: number;
  targets: string[];
  tradeUrl: (base: string, target: string) => string;
}

// prettier-ignore
const VENUES: Venue[] = [
  { name: 'Binance', identifier: 'binance', weight: 0.3, targets: ['USDT', 'FDUSD', 'BTC'], tradeUrl: (b, q) => `https://www.binance.com/en/trade/${b}_${q}` },
  { name: 'Coinbase Exchange', identifier: 'gdax', weight: 0.12, targets: ['USD', 'USDC'], tradeUrl: (b, q) => `https://www.coinbase.com/advanced-trade/spot/${b}-${q}` },
  { name: 'OKX', identifier: 'okex', weight: 0.1, targets: ['USDT', 'USDC'], tradeUrl: (b, q) => `https://www.okx.com/trade-spot/${b.toLowerCase()}-${q.toLowerCase()}` },
  { name: 'Bybit', identifier: 'bybit_spot', weight: 0.09, targets: ['USDT'], tradeUrl: (b, q) => `https://www.bybit.com/en/trade/spot/${b}/${q}` },
  { name: 'Kraken', identifier: 'kraken', weight: 0.05, targets: ['USD', 'EUR'], tradeUrl: (b, q) => `https://pro.kraken.com/app/trade/${b}-${q}` },
  { name: 'Uniswap V3 (Ethereum)', identifier: 'uniswap_v3', weight: 0.04, targets: ['USDC', 'WETH'], tradeUrl: () => 'https://app.uniswap.org/#/swap' },
];
/** CoinGecko ids of the quote assets that are coins (fiat targets have no `target_coin_id`). */
const TARGET_COINS: Record<string, string> = { USDT: 'tether', USDC: 'usd-coin', FDUSD: 'first-digital-usd', BTC: 'bitcoin', WETH: 'weth' };
const DERIVATIVE_VENUES = ['Binance (Futures)', 'Bybit', 'OKX (Futures)'];
/** Coins with perps on the CEX derivative venues: the largest ones Binance lists. */
const DERIVATIVE_COINS = 40;

/** `2021-05-15T15:55:48+00:00`: CoinGecko's ticker time format (seconds, explicit offset). */
function tickerTime(t: number): string {
  return `${new Date(Math.floor(t / 1000) * 1000).toISOString().slice(0, 19)}+00:00`;
}

/** Every spot ticker of a coin, largest converted volume first (the `order=volume_desc` the clients use). */
export function coinTickers(book: MarketBook, coin: CryptoCoin, t: number): object[] {
  const usd = book.coinPx(coin, t);
  const btc = book.coinPx(book.coin('bitcoin') as CryptoCoin, t);
  const eth = book.coinPx(book.coin('ethereum') as CryptoCoin, t);
  const volume = book.coinVolume24h(coin, t);
  const base = coin.symbol.toUpperCase();
  const rows: Array<{ usdVolume: number; body: object }> = [];
  VENUES.forEach((venue, v) => {
    // The top coins trade everywhere; the tail on a deterministic subset of venues.
    if (coin.binanceSymbol === null && venue.identifier === 'binance') return;
    if (unit(hash2(coin.seed, 0x7e00 + v)) > (coin.binanceSymbol ? 0.9 : 0.5) && v > 0) return;
    venue.targets.forEach((target, k) => {
      if (target === base || (target === 'BTC' && coin.id === 'bitcoin')) return;
      const basis = 1 + (unit(hash2(coin.seed ^ v, Math.floor(t / 60_000) + k)) - 0.5) * 0.002;
      const targetUsd = target === 'BTC' ? btc : target === 'WETH' ? eth : target === 'EUR' ? book.usdPerUnit('EUR', t) : 1;
      const lastUsd = usd * basis;
      const usdVolume = (volume * venue.weight) / (k + 1);
      const stamp = tickerTime(t - Math.floor(unit(hash2(coin.seed, v * 10 + k)) * 120_000));
      const body: Record<string, unknown> = {
        base,
        target,
        market: { name: venue.name, identifier: venue.identifier, has_trading_incentive: false },
        last: cgPrice(lastUsd / targetUsd),
        volume: usdVolume / lastUsd,
        converted_last: { btc: round(lastUsd / btc, 8), eth: round(lastUsd / eth, 6), usd: cgPrice(lastUsd) },
        converted_volume: { btc: round(usdVolume / btc, 3), eth: Math.round(usdVolume / eth), usd: Math.round(usdVolume) },
        trust_score: venue.weight >= 0.05 ? 'green' : 'yellow',
        bid_ask_spread_percentage: round(0.01 + unit(hash2(coin.seed, 0x5b + v)) * 0.1, 6),
        timestamp: stamp,
        last_traded_at: stamp,
        last_fetch_at: stamp,
        is_anomaly: false,
        is_stale: false,
        trade_url: venue.tradeUrl(base, target),
        token_info_url: null,
        coin_id: coin.id,
      };
      if (TARGET_COINS[target]) body.target_coin_id = TARGET_COINS[target];
      rows.push({ usdVolume, body });
    });
  });
  return rows.sort((a, b) => b.usdVolume - a.usdVolume).map((row) => row.body);
}

/** `/derivatives`: perpetuals of the largest coins on the CEX venues, plus Hyperliquid's own perps at its mark. */
export function derivatives(book: MarketBook, t: number): object[] {
  const rows: Array<{ volume: number; body: object }> = [];
  const perp = (market: string, symbol: string, coin: CryptoCoin, price: number, index: number, funding: number, salt: number) => {
    const volume = book.coinVolume24h(coin, t) * (0.5 + unit(hash2(coin.seed, salt)));
    rows.push({
      volume,
      body: {
        market,
        symbol,
        index_id: coin.symbol.toUpperCase(),
        price: String(cgPrice(price)),
        price_percentage_change_24h: pctChange(price, book.coinPx(coin, t - DAY_MS)),
        contract_type: 'perpetual',
        index: cgPrice(index),
        basis: round(((price - index) / index) * 100, 8),
        spread: round(0.01 + unit(hash2(coin.seed, salt ^ 0x5)) * 0.05, 3),
        funding_rate: funding,
        open_interest: round(volume * (0.1 + 0.4 * unit(hash2(coin.seed, salt ^ 0x0e))), 2),
        volume_24h: round(volume, 6),
        last_traded_at: Math.floor(t / 1000),
        expired_at: null,
      },
    });
  };
  const listed = book.coinsByMarketCap(t).filter((coin) => coin.binanceSymbol !== null);
  listed.slice(0, DERIVATIVE_COINS).forEach((coin) => {
    const index = book.coinPx(coin, t);
    DERIVATIVE_VENUES.forEach((market, v) => {
      const basis = 1 + (unit(hash2(coin.seed ^ (v + 1), Math.floor(t / 60_000))) - 0.5) * 0.002;
      const funding = round((unit(hash2(coin.seed ^ 0xf0 ^ v, Math.floor(t / 3_600_000))) - 0.3) * 0.02, 6);
      perp(market, coin.binanceSymbol as string, coin, index * basis, index, funding, 0xd0 + v);
    });
  });
  const seen = new Set<string>();
  for (const coin of book.coins) {
    const instrument = book.prices.catalog.byCoin.get(coin.process.key);
    // Bridged copies follow the same process; only the canonical (first-listed) coin names the perp.
    if (!instrument || instrument.kind !== 'perp' || instrument.dexIndex !== 0 || coin.scale !== 1 || seen.has(instrument.coin)) continue;
    seen.add(instrument.coin);
    const mark = book.prices.px(instrument, t);
    perp('Hyperliquid (Futures)', `${instrument.coin}-USD`, coin, mark, book.coinPx(coin, t), round(book.prices.funding(instrument, t) * 100, 6), 0xd9);
  }
  return rows.sort((a, b) => b.volume - a.volume).map((row) => row.body);
}
