/**
 * The named crypto listing: the large coins with their CoinGecko ids and supplies (rounded from public figures).
 * A coin with `process` follows that Hyperliquid underlying's price path, so every protocol quotes it alike;
 * the others own a process keyed `coin:<id>`. Generated coins fill the long tail (crypto-universe.ts).
 */
export interface CoinDef {
  id: string;
  symbol: string;
  name: string;
  /** Key of the Hyperliquid underlying it shares a price with. */
  process?: string;
  /** Units of the process per coin: Hyperliquid's kPEPE is 1000 PEPE. */
  processScale?: number;
  basePx?: number;
  vol?: number;
  circulating: number;
  total: number | null;
  max: number | null;
  genesis: string | null;
  categories: string[];
  /** Listed on Binance spot against USDT. */
  binance: boolean;
  hashing?: string | null;
  blockMinutes?: number;
}

const L1 = ['Layer 1 (L1)', 'Smart Contract Platform'];
const STABLE = ['Stablecoins', 'USD Stablecoin'];
const DEFI = ['Decentralized Finance (DeFi)'];
const MEME = ['Meme'];
const L2 = ['Layer 2 (L2)', 'Ethereum Ecosystem'];

// prettier-ignore
export const NAMED_COINS: CoinDef[] = [
  { id: 'bitcoin', symbol: 'btc', name: 'Bitcoin', process: 'BTC', circulating: 19_850_000, total: 19_850_000, max: 21_000_000, genesis: '2009-01-03', categories: ['Cryptocurrency', 'Layer 1 (L1)'], binance: true, hashing: 'SHA-256', blockMinutes: 10 },
  { id: 'ethereum', symbol: 'eth', name: 'Ethereum', process: 'ETH', circulating: 120_700_000, total: 120_700_000, max: null, genesis: '2015-07-30', categories: L1, binance: true, hashing: 'Ethash', blockMinutes: 0 },
  { id: 'tether', symbol: 'usdt', name: 'Tether', basePx: 1.0002, vol: 0.002, circulating: 184_400_000_000, total: 184_400_000_000, max: null, genesis: null, categories: STABLE, binance: false },
  { id: 'ripple', symbol: 'xrp', name: 'XRP', process: 'XRP', circulating: 60_300_000_000, total: 99_986_000_000, max: 100_000_000_000, genesis: null, categories: L1, binance: true },
  { id: 'binancecoin', symbol: 'bnb', name: 'BNB', process: 'BNB', circulating: 139_300_000, total: 139_300_000, max: 200_000_000, genesis: '2017-07-08', categories: L1, binance: true },
  { id: 'usd-coin', symbol: 'usdc', name: 'USDC', basePx: 0.9999, vol: 0.001, circulating: 75_300_000_000, total: 75_300_000_000, max: null, genesis: null, categories: STABLE, binance: true },
  { id: 'solana', symbol: 'sol', name: 'Solana', process: 'SOL', circulating: 560_000_000, total: 610_000_000, max: null, genesis: '2020-03-16', categories: L1, binance: true },
  { id: 'tron', symbol: 'trx', name: 'TRON', basePx: 0.2841, vol: 0.6, circulating: 94_700_000_000, total: 94_700_000_000, max: null, genesis: '2017-09-13', categories: L1, binance: true },
  { id: 'dogecoin', symbol: 'doge', name: 'Dogecoin', process: 'DOGE', circulating: 150_700_000_000, total: 150_700_000_000, max: null, genesis: '2013-12-08', categories: MEME, binance: true, hashing: 'Scrypt', blockMinutes: 1 },
  { id: 'cardano', symbol: 'ada', name: 'Cardano', process: 'ADA', circulating: 36_400_000_000, total: 45_000_000_000, max: 45_000_000_000, genesis: '2017-09-23', categories: L1, binance: true },
  { id: 'hyperliquid', symbol: 'hype', name: 'Hyperliquid', process: 'HYPE', circulating: 337_000_000, total: 999_500_000, max: 1_000_000_000, genesis: '2024-11-29', categories: ['Decentralized Finance (DeFi)', 'Layer 1 (L1)'], binance: true },
  { id: 'chainlink', symbol: 'link', name: 'Chainlink', process: 'LINK', circulating: 678_000_000, total: 1_000_000_000, max: 1_000_000_000, genesis: '2017-09-16', categories: ['Oracle'], binance: true },
  { id: 'sui', symbol: 'sui', name: 'Sui', process: 'SUI', circulating: 3_500_000_000, total: 10_000_000_000, max: 10_000_000_000, genesis: '2023-05-03', categories: L1, binance: true },
  { id: 'avalanche-2', symbol: 'avax', name: 'Avalanche', process: 'AVAX', circulating: 422_000_000, total: 458_000_000, max: 720_000_000, genesis: '2020-09-21', categories: L1, binance: true },
  { id: 'the-open-network', symbol: 'ton', name: 'Toncoin', process: 'TON', circulating: 2_460_000_000, total: 5_140_000_000, max: null, genesis: '2019-11-15', categories: L1, binance: true },
  { id: 'litecoin', symbol: 'ltc', name: 'Litecoin', process: 'LTC', circulating: 76_000_000, total: 84_000_000, max: 84_000_000, genesis: '2011-10-07', categories: ['Cryptocurrency'], binance: true, hashing: 'Scrypt', blockMinutes: 2.5 },
  { id: 'aave', symbol: 'aave', name: 'Aave', process: 'AAVE', circulating: 15_200_000, total: 16_000_000, max: 16_000_000, genesis: '2020-10-02', categories: DEFI, binance: true },
  { id: 'ethena', symbol: 'ena', name: 'Ethena', process: 'ENA', circulating: 6_600_000_000, total: 15_000_000_000, max: 15_000_000_000, genesis: '2024-04-02', categories: DEFI, binance: true },
  { id: 'pepe', symbol: 'pepe', name: 'Pepe', process: 'kPEPE', processScale: 0.001, circulating: 420_690_000_000_000, total: 420_690_000_000_000, max: 420_690_000_000_000, genesis: '2023-04-14', categories: MEME, binance: true },
  { id: 'arbitrum', symbol: 'arb', name: 'Arbitrum', process: 'ARB', circulating: 5_200_000_000, total: 10_000_000_000, max: 10_000_000_000, genesis: '2023-03-23', categories: L2, binance: true },
  { id: 'optimism', symbol: 'op', name: 'Optimism', process: 'OP', circulating: 1_750_000_000, total: 4_290_000_000, max: 4_290_000_000, genesis: '2022-05-31', categories: L2, binance: true },
  { id: 'dogwifcoin', symbol: 'wif', name: 'dogwifhat', process: 'WIF', circulating: 998_900_000, total: 998_900_000, max: 998_900_000, genesis: '2023-11-20', categories: MEME, binance: true },
  { id: 'fartcoin', symbol: 'fartcoin', name: 'Fartcoin', process: 'FARTCOIN', circulating: 999_990_000, total: 999_990_000, max: 1_000_000_000, genesis: '2024-10-18', categories: MEME, binance: false },
  { id: 'polkadot', symbol: 'dot', name: 'Polkadot', basePx: 3.91, vol: 1, circulating: 1_620_000_000, total: 1_620_000_000, max: null, genesis: '2020-05-26', categories: L1, binance: true },
  { id: 'bitcoin-cash', symbol: 'bch', name: 'Bitcoin Cash', basePx: 512.4, vol: 0.8, circulating: 19_900_000, total: 19_900_000, max: 21_000_000, genesis: '2017-08-01', categories: ['Cryptocurrency'], binance: true, hashing: 'SHA-256', blockMinutes: 10 },
  { id: 'stellar', symbol: 'xlm', name: 'Stellar', basePx: 0.2641, vol: 0.9, circulating: 31_200_000_000, total: 50_000_000_000, max: 50_000_000_000, genesis: '2014-07-31', categories: L1, binance: true },
  { id: 'eos', symbol: 'eos', name: 'EOS', basePx: 0.512, vol: 1, circulating: 1_550_000_000, total: 1_550_000_000, max: 2_100_000_000, genesis: '2017-06-26', categories: L1, binance: true },
  { id: 'yearn-finance', symbol: 'yfi', name: 'yearn.finance', basePx: 4820, vol: 1, circulating: 33_900, total: 36_600, max: 36_666, genesis: '2020-07-17', categories: DEFI, binance: true },
  { id: 'uniswap', symbol: 'uni', name: 'Uniswap', basePx: 6.84, vol: 1, circulating: 600_000_000, total: 1_000_000_000, max: 1_000_000_000, genesis: '2020-09-17', categories: DEFI, binance: true },
  { id: 'near', symbol: 'near', name: 'NEAR Protocol', basePx: 2.21, vol: 1.1, circulating: 1_240_000_000, total: 1_270_000_000, max: null, genesis: '2020-04-22', categories: L1, binance: true },
  { id: 'aptos', symbol: 'apt', name: 'Aptos', basePx: 4.32, vol: 1.1, circulating: 640_000_000, total: 1_180_000_000, max: null, genesis: '2022-10-12', categories: L1, binance: true },
  { id: 'internet-computer', symbol: 'icp', name: 'Internet Computer', basePx: 4.88, vol: 1.1, circulating: 535_000_000, total: 535_000_000, max: null, genesis: '2021-05-10', categories: L1, binance: true },
  { id: 'axelar', symbol: 'axl', name: 'Axelar', basePx: 0.31, vol: 1.2, circulating: 1_030_000_000, total: 1_210_000_000, max: null, genesis: '2022-09-27', categories: ['Cross-chain Communication'], binance: true },
  { id: 'binance-usd', symbol: 'busd', name: 'BUSD', basePx: 1.0004, vol: 0.003, circulating: 62_000_000, total: 62_000_000, max: null, genesis: null, categories: STABLE, binance: false },
  // Symbols shared by different coins, as on CoinGecko: clients must key by id, never by symbol.
  { id: 'ethereum-wormhole', symbol: 'eth', name: 'Ethereum (Wormhole)', process: 'ETH', circulating: 8_300, total: 8_300, max: null, genesis: null, categories: ['Bridged Tokens'], binance: false },
  { id: 'binance-peg-busd', symbol: 'busd', name: 'Binance-Peg BUSD', basePx: 0.9991, vol: 0.004, circulating: 410_000_000, total: 410_000_000, max: null, genesis: null, categories: ['Bridged Stablecoins'], binance: false },
  { id: 'axl-inu', symbol: 'axl', name: 'AXL INU', basePx: 0.0000217, vol: 1.8, circulating: 18_000_000_000, total: 100_000_000_000, max: 100_000_000_000, genesis: null, categories: MEME, binance: false },
  { id: 'unicorn-token', symbol: 'uni', name: 'Unicorn Token', basePx: 0.00142, vol: 1.7, circulating: 410_000_000, total: 1_000_000_000, max: 1_000_000_000, genesis: null, categories: MEME, binance: false },
];
