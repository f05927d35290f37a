/**
 * Static listing of the simulated exchange. Sizes, leverages, token ids and base prices are taken from
 * the recorded mainnet fixtures so the synthetic market looks like the real one to parsers and to people.
 */

/** A price process. Instruments either own one or track another's (spot UBTC tracks perp BTC). */
export interface UnderlyingDef {
  key: string;
  basePx: number;
  /** Volatility multiplier of the shared noise octaves; 1 is a mid-cap crypto. */
  vol: number;
}

export interface PerpDef {
  name: string;
  szDecimals: number;
  maxLeverage: number;
  marginTableId: number;
  basePx: number;
  vol: number;
  /** Relative share of wallets holding it; 0 means nobody opens it (delisted). */
  popularity: number;
  tracks?: string;
  isDelisted?: boolean;
  marginMode?: 'strictIsolated' | 'noCross';
}

export interface DexDef {
  name: string;
  fullName: string;
  deployer: string;
  oracleUpdater: string | null;
  feeRecipient: string | null;
  /** Spot token name of the collateral; its index is sent as `collateralToken`. */
  collateral: 'USDC' | 'USDH';
  perps: PerpDef[];
}

export interface SpotTokenDef {
  name: string;
  szDecimals: number;
  weiDecimals: number;
  tokenId: string;
  isCanonical: boolean;
  evmContract: { address: string; evm_extra_wei_decimals: number } | null;
  fullName: string | null;
  deployerTradingFeeShare: string;
  basePx: number;
  vol: number;
  tracks?: string;
  totalSupply: number;
  circulatingSupply: number;
  /** Probability that a wallet holds some. */
  holderShare: number;
}

export interface OutcomeDef {
  name: string;
  description: string;
  /** Starting log-odds of the Yes side. */
  logit: number;
}

// prettier-ignore
export const NATIVE_PERPS: PerpDef[] = [
  { name: 'BTC', szDecimals: 5, maxLeverage: 40, marginTableId: 56, basePx: 66344, vol: 0.6, popularity: 10 },
  { name: 'ETH', szDecimals: 4, maxLeverage: 25, marginTableId: 55, basePx: 1919.1, vol: 0.8, popularity: 8 },
  { name: 'SOL', szDecimals: 2, maxLeverage: 20, marginTableId: 54, basePx: 81.499, vol: 1, popularity: 6 },
  { name: 'HYPE', szDecimals: 2, maxLeverage: 10, marginTableId: 52, basePx: 34.292, vol: 1.1, popularity: 7 },
  { name: 'XRP', szDecimals: 0, maxLeverage: 20, marginTableId: 53, basePx: 1.372, vol: 0.9, popularity: 4 },
  { name: 'DOGE', szDecimals: 0, maxLeverage: 10, marginTableId: 52, basePx: 0.0932, vol: 1.2, popularity: 3 },
  { name: 'BNB', szDecimals: 3, maxLeverage: 10, marginTableId: 51, basePx: 634.94, vol: 0.7, popularity: 2 },
  { name: 'AVAX', szDecimals: 2, maxLeverage: 10, marginTableId: 52, basePx: 8.6821, vol: 1.1, popularity: 2 },
  { name: 'LINK', szDecimals: 1, maxLeverage: 10, marginTableId: 52, basePx: 8.2967, vol: 1, popularity: 2 },
  { name: 'SUI', szDecimals: 1, maxLeverage: 10, marginTableId: 52, basePx: 0.94425, vol: 1.2, popularity: 2 },
  // Delisted assets keep their slot in the universe and asset contexts, as on mainnet.
  { name: 'MATIC', szDecimals: 1, maxLeverage: 20, marginTableId: 20, basePx: 0.37621, vol: 0, popularity: 0, isDelisted: true },
  { name: 'ARB', szDecimals: 1, maxLeverage: 10, marginTableId: 51, basePx: 0.11134, vol: 1.2, popularity: 1.5 },
  { name: 'OP', szDecimals: 1, maxLeverage: 10, marginTableId: 51, basePx: 0.1834, vol: 1.2, popularity: 1.5 },
  { name: 'LTC', szDecimals: 2, maxLeverage: 10, marginTableId: 52, basePx: 52.412, vol: 0.8, popularity: 1.5 },
  { name: 'ADA', szDecimals: 0, maxLeverage: 10, marginTableId: 52, basePx: 0.26118, vol: 1, popularity: 1.5 },
  { name: 'TON', szDecimals: 1, maxLeverage: 10, marginTableId: 51, basePx: 1.293, vol: 1, popularity: 1 },
  { name: 'kPEPE', szDecimals: 0, maxLeverage: 10, marginTableId: 52, basePx: 0.003663, vol: 1.5, popularity: 2 },
  { name: 'WIF', szDecimals: 0, maxLeverage: 5, marginTableId: 5, basePx: 0.22015, vol: 1.6, popularity: 1.5 },
  { name: 'ENA', szDecimals: 0, maxLeverage: 10, marginTableId: 52, basePx: 0.11972, vol: 1.3, popularity: 1.5 },
  { name: 'AAVE', szDecimals: 2, maxLeverage: 10, marginTableId: 52, basePx: 106.07, vol: 1, popularity: 1.5 },
  { name: 'FARTCOIN', szDecimals: 1, maxLeverage: 10, marginTableId: 52, basePx: 0.1965, vol: 1.7, popularity: 2 },
];

const STOCK = { marginMode: 'strictIsolated' as const, maxLeverage: 10, marginTableId: 10, szDecimals: 3 };

/** HIP-3 dexes: builder-deployed perps, isolated margin only, coin names `dex:SYMBOL`. */
// prettier-ignore
export const HIP3_DEXES: DexDef[] = [
  {
    name: 'xyz',
    fullName: 'XYZ',
    deployer: '0x88806a71d74ad0a510b350545c9ae490912f0888',
    oracleUpdater: null,
    feeRecipient: '0x97f46f90c04efb91d0d740bd263e76683ca6f904',
    collateral: 'USDC',
    perps: [
      { name: 'xyz:XYZ100', szDecimals: 4, maxLeverage: 25, marginTableId: 25, marginMode: 'noCross', basePx: 24657, vol: 0.5, popularity: 3 },
      { ...STOCK, name: 'xyz:TSLA', basePx: 399.52, vol: 0.8, popularity: 3 },
      { ...STOCK, name: 'xyz:NVDA', basePx: 176.19, vol: 0.7, popularity: 3 },
      { name: 'xyz:GOLD', szDecimals: 4, maxLeverage: 20, marginTableId: 20, marginMode: 'noCross', basePx: 4899.9, vol: 0.3, popularity: 2 },
      { ...STOCK, name: 'xyz:AAPL', basePx: 274.5, vol: 0.5, popularity: 2 },
      { ...STOCK, name: 'xyz:HOOD', basePx: 75.823, vol: 0.9, popularity: 1.5 },
      { ...STOCK, name: 'xyz:MSFT', basePx: 398.65, vol: 0.5, popularity: 1.5 },
      { ...STOCK, name: 'xyz:GOOGL', basePx: 326.41, vol: 0.5, popularity: 1.5 },
    ],
  },
  {
    name: 'flx',
    fullName: 'Felix Exchange',
    deployer: '0x2fab552502a6d45920d5741a2f3ebf4c35536352',
    oracleUpdater: '0x94757f8dcb4bf73b850195660e959d1105cfedd5',
    feeRecipient: '0xe2872b5ae7dcbba40cc4510d08c8bbea95b42d43',
    collateral: 'USDH',
    perps: [
      { ...STOCK, name: 'flx:CRCL', basePx: 80.262, vol: 1.1, popularity: 2 },
      { ...STOCK, name: 'flx:COIN', basePx: 153.73, vol: 0.9, popularity: 2 },
      { ...STOCK, name: 'flx:TSLA', basePx: 399.52, vol: 0.8, popularity: 2, tracks: 'xyz:TSLA' },
      { name: 'flx:GOLD', szDecimals: 4, maxLeverage: 20, marginTableId: 20, marginMode: 'noCross', basePx: 4899.9, vol: 0.3, popularity: 1.5, tracks: 'xyz:GOLD' },
    ],
  },
];

const UNIT_FEE = '1.0';
/** Dense token indices 0..n-1 (the array position is the index), pair `k` trades token `k + 1` against USDC. */
// prettier-ignore
export const SPOT_TOKENS: SpotTokenDef[] = [
  { name: 'USDC', szDecimals: 8, weiDecimals: 8, tokenId: '0x6d1e7cde53ba9467b783cb7c530ce054', isCanonical: true, evmContract: null, fullName: null, deployerTradingFeeShare: '0.0', basePx: 1, vol: 0, totalSupply: 0, circulatingSupply: 0, holderShare: 0.7 },
  { name: 'PURR', szDecimals: 0, weiDecimals: 5, tokenId: '0xc1fb593aeffbeb02f85e0308e9956a90', isCanonical: true, evmContract: { address: '0x9b498c3c8a0b8cd8ba1d9851d40d186f1872b44e', evm_extra_wei_decimals: 13 }, fullName: null, deployerTradingFeeShare: '0.0', basePx: 0.11317, vol: 1.4, totalSupply: 595985207.98445, circulatingSupply: 595985201.46167, holderShare: 0.2 },
  { name: 'HFUN', szDecimals: 2, weiDecimals: 8, tokenId: '0xbaf265ef389da684513d98d68edf4eae', isCanonical: false, evmContract: { address: '0xa320d9f65ec992eff38622c63627856382db726c', evm_extra_wei_decimals: 10 }, fullName: null, deployerTradingFeeShare: '0.0', basePx: 26.183, vol: 1.3, totalSupply: 996132.45958348, circulatingSupply: 996132.41583138, holderShare: 0.08 },
  { name: 'JEFF', szDecimals: 0, weiDecimals: 5, tokenId: '0xfcf28885456bf7e7cbe5b7a25407c5bc', isCanonical: false, evmContract: { address: '0x52e444545fbe9e5972a7a371299522f7871aec1f', evm_extra_wei_decimals: 13 }, fullName: null, deployerTradingFeeShare: '0.0', basePx: 3.957, vol: 1.5, totalSupply: 995041.11863, circulatingSupply: 990365.9054, holderShare: 0.06 },
  { name: 'HYPE', szDecimals: 2, weiDecimals: 8, tokenId: '0x0d01dc56dcaaca66ad901c959b4011ec', isCanonical: false, evmContract: null, fullName: 'Hyperliquid', deployerTradingFeeShare: '0.0', basePx: 34.292, vol: 1.1, tracks: 'HYPE', totalSupply: 999516427.35515, circulatingSupply: 337155614.49472, holderShare: 0.4 },
  { name: 'UBTC', szDecimals: 5, weiDecimals: 10, tokenId: '0x8f254b963e8468305d409b33aa137c67', isCanonical: false, evmContract: { address: '0x9fdbda0a5e284c32744d2f17ee5c74b284993463', evm_extra_wei_decimals: -2 }, fullName: 'Unit Bitcoin', deployerTradingFeeShare: UNIT_FEE, basePx: 66344, vol: 0.6, tracks: 'BTC', totalSupply: 20999999.998616, circulatingSupply: 20999999.998616, holderShare: 0.12 },
  { name: 'UETH', szDecimals: 4, weiDecimals: 9, tokenId: '0xe1edd30daaf5caac3fe63569e24748da', isCanonical: false, evmContract: { address: '0xbe6727b535545c67d5caa73dea54865b92cf7907', evm_extra_wei_decimals: 9 }, fullName: 'Unit Ethereum', deployerTradingFeeShare: UNIT_FEE, basePx: 1919.1, vol: 0.8, tracks: 'ETH', totalSupply: 99999999.988285, circulatingSupply: 99999999.988194, holderShare: 0.1 },
  { name: 'USOL', szDecimals: 3, weiDecimals: 8, tokenId: '0x49b67c39f5566535de22b29b0e51e685', isCanonical: false, evmContract: { address: '0x068f321fa8fb9f0d135f290ef6a3e2813e1c8a29', evm_extra_wei_decimals: 1 }, fullName: 'Unit Solana', deployerTradingFeeShare: UNIT_FEE, basePx: 81.499, vol: 1, tracks: 'SOL', totalSupply: 499999999.91044, circulatingSupply: 499999999.90898, holderShare: 0.08 },
  { name: 'USDH', szDecimals: 2, weiDecimals: 8, tokenId: '0x54e00a5988577cb0b0c9ab0cb6ef7f4b', isCanonical: false, evmContract: { address: '0x111111a1a0667d36bd57c0a9f569b98057111111', evm_extra_wei_decimals: -2 }, fullName: 'USDH', deployerTradingFeeShare: '0.0', basePx: 0.99994, vol: 0.002, totalSupply: 100000000000, circulatingSupply: 100000000000, holderShare: 0.1 },
  { name: 'FEUSD', szDecimals: 2, weiDecimals: 8, tokenId: '0x88102bea0bbad5f301f6e9e4dacdf979', isCanonical: false, evmContract: { address: '0x02c6a2fa58cc01a18b8d9e00ea48d65e4df26c70', evm_extra_wei_decimals: 10 }, fullName: 'Felix USD', deployerTradingFeeShare: UNIT_FEE, basePx: 0.99378, vol: 0.004, totalSupply: 8888888886.8887, circulatingSupply: 8888888886.8887, holderShare: 0.05 },
  { name: 'UFART', szDecimals: 1, weiDecimals: 6, tokenId: '0x7650808198966e4285687d3deb556ccc', isCanonical: false, evmContract: { address: '0x3b4575e689ded21caad31d64c4df1f10f3b2cedf', evm_extra_wei_decimals: 0 }, fullName: 'Unit Fartcoin', deployerTradingFeeShare: UNIT_FEE, basePx: 0.1965, vol: 1.7, tracks: 'FARTCOIN', totalSupply: 999999990.65852, circulatingSupply: 999999990.65074, holderShare: 0.06 },
  { name: 'USDT0', szDecimals: 2, weiDecimals: 8, tokenId: '0x25faedc3f054130dbb4e4203aca63567', isCanonical: false, evmContract: { address: '0xb8ce59fc3717ada4c02eadf9682a9e934f625ebb', evm_extra_wei_decimals: -2 }, fullName: 'USDT0', deployerTradingFeeShare: '0.0', basePx: 0.99986, vol: 0.002, totalSupply: 184467440737.09552, circulatingSupply: 184467440737.09552, holderShare: 0.1 },
];

/**
 * HIP-4 outcome markets, ids from 0, each with a Yes and a No side. Mainnet names its recurring price
 * binaries all "Recurring" (the question is in the description); here each gets its own name, so people
 * and tests can tell the outcomes apart in the smart-trader answers and in the unknown-outcome message.
 */
// prettier-ignore
export const OUTCOMES: OutcomeDef[] = [
  { name: 'BTC above 66,000 on May 3', description: 'class:priceBinary|underlying:BTC|expiry:20260503-0600|targetPrice:66000|period:1d', logit: 0.3 },
  { name: 'ETH above 1,950 on May 3', description: 'class:priceBinary|underlying:ETH|expiry:20260503-0600|targetPrice:1950|period:1d', logit: -0.4 },
  { name: 'HYPE above 35 by May 10', description: 'class:priceBinary|underlying:HYPE|expiry:20260510-0600|targetPrice:35|period:7d', logit: 0.9 },
];
export const OUTCOME_SIDE_NAMES = ['Yes', 'No'] as const;

export const VAULT_NAMES = ['Hyperliquidity Provider (HLP)', 'HLP Strategy A', 'HLP Liquidator', 'Growi HF', 'Sifu Vault'];

/** Margin tables referenced by id >= 50 (smaller ids mean "maxLeverage = id"), as in the native meta. */
// prettier-ignore
export const NATIVE_MARGIN_TABLES = [
  [50, { description: '', marginTiers: [{ lowerBound: '0.0', maxLeverage: 50 }] }],
  [51, { description: 'tiered 10x', marginTiers: [{ lowerBound: '0.0', maxLeverage: 10 }, { lowerBound: '3000000.0', maxLeverage: 5 }] }],
  [52, { description: 'tiered 10x (2)', marginTiers: [{ lowerBound: '0.0', maxLeverage: 10 }, { lowerBound: '20000000.0', maxLeverage: 5 }] }],
  [53, { description: 'tiered 20x', marginTiers: [{ lowerBound: '0.0', maxLeverage: 20 }, { lowerBound: '40000000.0', maxLeverage: 10 }] }],
  [54, { description: 'tiered 20x (2)', marginTiers: [{ lowerBound: '0.0', maxLeverage: 20 }, { lowerBound: '70000000.0', maxLeverage: 10 }] }],
  [55, { description: 'tiered 25x', marginTiers: [{ lowerBound: '0.0', maxLeverage: 25 }, { lowerBound: '100000000.0', maxLeverage: 15 }] }],
  [56, { description: 'tiered 40x', marginTiers: [{ lowerBound: '0.0', maxLeverage: 40 }, { lowerBound: '150000000.0', maxLeverage: 20 }] }],
];
export const HIP3_MARGIN_TABLES = [[50, { description: '', marginTiers: [{ lowerBound: '0.0', maxLeverage: 50 }] }]];
