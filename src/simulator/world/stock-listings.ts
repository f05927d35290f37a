/**
 * Stocks, ETFs, FX pairs, futures and crypto pairs as Yahoo Finance lists them. Prices and share counts are
 * rounded public figures; a listing with `process` follows that Hyperliquid underlying (xyz:TSLA trades TSLA),
 * one with `coin` follows that crypto coin, so every protocol quotes the same asset alike. The other assets the
 * service seeds are listed too, derived in seed-listings.ts; these named ones take precedence.
 */
export type QuoteType = 'EQUITY' | 'ETF' | 'CURRENCY' | 'FUTURE' | 'CRYPTOCURRENCY';

export interface ExchangeDef {
  code: string;
  fullName: string;
  timezone: string;
  timezoneName: string;
  /** Seconds east of UTC; fixed (no daylight saving) so sessions stay simple and deterministic. */
  gmtOffset: number;
  market: string;
  /** Regular session in local minutes after midnight. */
  openMinute: number;
  closeMinute: number;
  /** Trades on Saturdays and Sundays too (crypto). */
  weekends: boolean;
}

// prettier-ignore
export const EXCHANGES: Record<string, ExchangeDef> = {
  NMS: { code: 'NMS', fullName: 'NasdaqGS', timezone: 'EST', timezoneName: 'America/New_York', gmtOffset: -18000, market: 'us_market', openMinute: 570, closeMinute: 960, weekends: false },
  NYQ: { code: 'NYQ', fullName: 'NYSE', timezone: 'EST', timezoneName: 'America/New_York', gmtOffset: -18000, market: 'us_market', openMinute: 570, closeMinute: 960, weekends: false },
  NGM: { code: 'NGM', fullName: 'NasdaqGM', timezone: 'EST', timezoneName: 'America/New_York', gmtOffset: -18000, market: 'us_market', openMinute: 570, closeMinute: 960, weekends: false },
  PCX: { code: 'PCX', fullName: 'NYSEArca', timezone: 'EST', timezoneName: 'America/New_York', gmtOffset: -18000, market: 'us_market', openMinute: 570, closeMinute: 960, weekends: false },
  HKG: { code: 'HKG', fullName: 'HKSE', timezone: 'HKT', timezoneName: 'Asia/Hong_Kong', gmtOffset: 28800, market: 'hk_market', openMinute: 570, closeMinute: 960, weekends: false },
  JPX: { code: 'JPX', fullName: 'Tokyo', timezone: 'JST', timezoneName: 'Asia/Tokyo', gmtOffset: 32400, market: 'jp_market', openMinute: 540, closeMinute: 930, weekends: false },
  KSC: { code: 'KSC', fullName: 'KSE', timezone: 'KST', timezoneName: 'Asia/Seoul', gmtOffset: 32400, market: 'kr_market', openMinute: 540, closeMinute: 930, weekends: false },
  CCY: { code: 'CCY', fullName: 'CCY', timezone: 'GMT', timezoneName: 'Europe/London', gmtOffset: 0, market: 'ccy_market', openMinute: 0, closeMinute: 1440, weekends: false },
  CMX: { code: 'CMX', fullName: 'COMEX', timezone: 'EST', timezoneName: 'America/New_York', gmtOffset: -18000, market: 'us24_market', openMinute: 0, closeMinute: 1440, weekends: false },
  NYM: { code: 'NYM', fullName: 'NY Mercantile', timezone: 'EST', timezoneName: 'America/New_York', gmtOffset: -18000, market: 'us24_market', openMinute: 0, closeMinute: 1440, weekends: false },
  CBT: { code: 'CBT', fullName: 'CBOT', timezone: 'CST', timezoneName: 'America/Chicago', gmtOffset: -21600, market: 'us24_market', openMinute: 0, closeMinute: 1440, weekends: false },
  CCC: { code: 'CCC', fullName: 'CCC', timezone: 'UTC', timezoneName: 'UTC', gmtOffset: 0, market: 'ccc_market', openMinute: 0, closeMinute: 1440, weekends: true },
};

export interface ListingDef {
  symbol: string;
  longName: string;
  shortName: string;
  type: QuoteType;
  exchange: keyof typeof EXCHANGES;
  currency: string;
  sector: string | null;
  industry: string | null;
  process?: string;
  coin?: string;
  basePx?: number;
  vol?: number;
  /** Shares outstanding (equities, ETFs); market cap is shares × price. */
  shares?: number;
  /** A cross pair (EUR/JPY) priced from its two USD legs, so it never disagrees with them. */
  cross?: { base: string; quote: string };
}

const TECH = 'Technology';
const COMM = 'Communication Services';
const CYC = 'Consumer Cyclical';
const FIN = 'Financial Services';

// prettier-ignore
export const LISTINGS: ListingDef[] = [
  { symbol: 'AAPL', longName: 'Apple Inc.', shortName: 'Apple Inc.', type: 'EQUITY', exchange: 'NMS', currency: 'USD', sector: TECH, industry: 'Consumer Electronics', process: 'xyz:AAPL', shares: 14_840_000_000 },
  { symbol: 'MSFT', longName: 'Microsoft Corporation', shortName: 'Microsoft Corporation', type: 'EQUITY', exchange: 'NMS', currency: 'USD', sector: TECH, industry: 'Software - Infrastructure', process: 'xyz:MSFT', shares: 7_430_000_000 },
  { symbol: 'NVDA', longName: 'NVIDIA Corporation', shortName: 'NVIDIA Corporation', type: 'EQUITY', exchange: 'NMS', currency: 'USD', sector: TECH, industry: 'Semiconductors', process: 'xyz:NVDA', shares: 24_300_000_000 },
  { symbol: 'GOOGL', longName: 'Alphabet Inc.', shortName: 'Alphabet Inc.', type: 'EQUITY', exchange: 'NMS', currency: 'USD', sector: COMM, industry: 'Internet Content & Information', process: 'xyz:GOOGL', shares: 12_100_000_000 },
  { symbol: 'AMZN', longName: 'Amazon.com, Inc.', shortName: 'Amazon.com, Inc.', type: 'EQUITY', exchange: 'NMS', currency: 'USD', sector: CYC, industry: 'Internet Retail', basePx: 221.3, vol: 0.5, shares: 10_680_000_000 },
  { symbol: 'META', longName: 'Meta Platforms, Inc.', shortName: 'Meta Platforms, Inc.', type: 'EQUITY', exchange: 'NMS', currency: 'USD', sector: COMM, industry: 'Internet Content & Information', basePx: 712.4, vol: 0.6, shares: 2_520_000_000 },
  { symbol: 'TSLA', longName: 'Tesla, Inc.', shortName: 'Tesla, Inc.', type: 'EQUITY', exchange: 'NMS', currency: 'USD', sector: CYC, industry: 'Auto Manufacturers', process: 'xyz:TSLA', shares: 3_220_000_000 },
  { symbol: 'BRK-B', longName: 'Berkshire Hathaway Inc.', shortName: 'Berkshire Hathaway Inc. New', type: 'EQUITY', exchange: 'NYQ', currency: 'USD', sector: FIN, industry: 'Insurance - Diversified', basePx: 497.2, vol: 0.25, shares: 2_160_000_000 },
  { symbol: 'JPM', longName: 'JPMorgan Chase & Co.', shortName: 'JP Morgan Chase & Co.', type: 'EQUITY', exchange: 'NYQ', currency: 'USD', sector: FIN, industry: 'Banks - Diversified', basePx: 287.9, vol: 0.4, shares: 2_780_000_000 },
  { symbol: 'V', longName: 'Visa Inc.', shortName: 'Visa Inc.', type: 'EQUITY', exchange: 'NYQ', currency: 'USD', sector: FIN, industry: 'Credit Services', basePx: 342.6, vol: 0.3, shares: 1_940_000_000 },
  { symbol: 'XOM', longName: 'Exxon Mobil Corporation', shortName: 'Exxon Mobil Corporation', type: 'EQUITY', exchange: 'NYQ', currency: 'USD', sector: 'Energy', industry: 'Oil & Gas Integrated', basePx: 112.8, vol: 0.35, shares: 4_310_000_000 },
  { symbol: 'JNJ', longName: 'Johnson & Johnson', shortName: 'Johnson & Johnson', type: 'EQUITY', exchange: 'NYQ', currency: 'USD', sector: 'Healthcare', industry: 'Drug Manufacturers - General', basePx: 178.4, vol: 0.25, shares: 2_410_000_000 },
  { symbol: 'WMT', longName: 'Walmart Inc.', shortName: 'Walmart Inc.', type: 'EQUITY', exchange: 'NMS', currency: 'USD', sector: 'Consumer Defensive', industry: 'Discount Stores', basePx: 101.2, vol: 0.3, shares: 7_980_000_000 },
  { symbol: 'HOOD', longName: 'Robinhood Markets, Inc.', shortName: 'Robinhood Markets, Inc.', type: 'EQUITY', exchange: 'NMS', currency: 'USD', sector: FIN, industry: 'Capital Markets', process: 'xyz:HOOD', shares: 885_000_000 },
  { symbol: 'COIN', longName: 'Coinbase Global, Inc.', shortName: 'Coinbase Global, Inc.', type: 'EQUITY', exchange: 'NMS', currency: 'USD', sector: FIN, industry: 'Financial Data & Stock Exchanges', process: 'flx:COIN', shares: 254_000_000 },
  { symbol: 'CRCL', longName: 'Circle Internet Group, Inc.', shortName: 'Circle Internet Group, Inc.', type: 'EQUITY', exchange: 'NYQ', currency: 'USD', sector: FIN, industry: 'Software - Infrastructure', process: 'flx:CRCL', shares: 229_000_000 },
  { symbol: '0700.HK', longName: 'Tencent Holdings Limited', shortName: 'TENCENT', type: 'EQUITY', exchange: 'HKG', currency: 'HKD', sector: COMM, industry: 'Internet Content & Information', basePx: 438.4, vol: 0.5, shares: 9_160_000_000 },
  { symbol: '9988.HK', longName: 'Alibaba Group Holding Limited', shortName: 'BABA-W', type: 'EQUITY', exchange: 'HKG', currency: 'HKD', sector: CYC, industry: 'Internet Retail', basePx: 131.7, vol: 0.6, shares: 19_100_000_000 },
  { symbol: '0005.HK', longName: 'HSBC Holdings plc', shortName: 'HSBC HOLDINGS', type: 'EQUITY', exchange: 'HKG', currency: 'HKD', sector: FIN, industry: 'Banks - Diversified', basePx: 98.35, vol: 0.3, shares: 17_600_000_000 },
  { symbol: '1299.HK', longName: 'AIA Group Limited', shortName: 'AIA', type: 'EQUITY', exchange: 'HKG', currency: 'HKD', sector: FIN, industry: 'Insurance - Life', basePx: 71.4, vol: 0.35, shares: 10_700_000_000 },
  { symbol: '3690.HK', longName: 'Meituan', shortName: 'MEITUAN-W', type: 'EQUITY', exchange: 'HKG', currency: 'HKD', sector: CYC, industry: 'Internet Retail', basePx: 104.9, vol: 0.7, shares: 6_110_000_000 },
  { symbol: '7203.T', longName: 'Toyota Motor Corporation', shortName: 'TOYOTA MOTOR CORP', type: 'EQUITY', exchange: 'JPX', currency: 'JPY', sector: CYC, industry: 'Auto Manufacturers', basePx: 2895, vol: 0.35, shares: 13_000_000_000 },
  { symbol: '6758.T', longName: 'Sony Group Corporation', shortName: 'SONY GROUP CORPORATION', type: 'EQUITY', exchange: 'JPX', currency: 'JPY', sector: TECH, industry: 'Consumer Electronics', basePx: 3562, vol: 0.45, shares: 6_000_000_000 },
  { symbol: '9984.T', longName: 'SoftBank Group Corp.', shortName: 'SOFTBANK GROUP CORP', type: 'EQUITY', exchange: 'JPX', currency: 'JPY', sector: COMM, industry: 'Telecom Services', basePx: 17_850, vol: 0.7, shares: 1_430_000_000 },
  { symbol: '8306.T', longName: 'Mitsubishi UFJ Financial Group, Inc.', shortName: 'MITSUBISHI UFJ FINANCIAL GROUP', type: 'EQUITY', exchange: 'JPX', currency: 'JPY', sector: FIN, industry: 'Banks - Diversified', basePx: 2214, vol: 0.35, shares: 11_900_000_000 },
  { symbol: '005930.KS', longName: 'Samsung Electronics Co., Ltd.', shortName: 'SamsungElec', type: 'EQUITY', exchange: 'KSC', currency: 'KRW', sector: TECH, industry: 'Consumer Electronics', basePx: 71_400, vol: 0.4, shares: 5_920_000_000 },
  { symbol: '000660.KS', longName: 'SK hynix Inc.', shortName: 'SK hynix', type: 'EQUITY', exchange: 'KSC', currency: 'KRW', sector: TECH, industry: 'Semiconductors', basePx: 268_500, vol: 0.6, shares: 728_000_000 },
  { symbol: '035420.KS', longName: 'NAVER Corporation', shortName: 'NAVER', type: 'EQUITY', exchange: 'KSC', currency: 'KRW', sector: COMM, industry: 'Internet Content & Information', basePx: 214_000, vol: 0.5, shares: 158_000_000 },
  { symbol: 'SPY', longName: 'SPDR S&P 500 ETF Trust', shortName: 'SPDR S&P 500', type: 'ETF', exchange: 'PCX', currency: 'USD', sector: null, industry: null, basePx: 664.2, vol: 0.25, shares: 1_010_000_000 },
  { symbol: 'QQQ', longName: 'Invesco QQQ Trust', shortName: 'Invesco QQQ Trust, Series 1', type: 'ETF', exchange: 'NGM', currency: 'USD', sector: null, industry: null, basePx: 598.7, vol: 0.3, shares: 393_100_000 },
  { symbol: 'IWM', longName: 'iShares Russell 2000 ETF', shortName: 'iShares Russell 2000 ETF', type: 'ETF', exchange: 'PCX', currency: 'USD', sector: null, industry: null, basePx: 241.8, vol: 0.35, shares: 289_000_000 },
  { symbol: 'GLD', longName: 'SPDR Gold Trust', shortName: 'SPDR Gold Trust', type: 'ETF', exchange: 'PCX', currency: 'USD', sector: null, industry: null, basePx: 452.3, vol: 0.3, shares: 101_000_000 },
  { symbol: 'TLT', longName: 'iShares 20+ Year Treasury Bond ETF', shortName: 'iShares 20+ Year Treasury Bond', type: 'ETF', exchange: 'NGM', currency: 'USD', sector: null, industry: null, basePx: 89.6, vol: 0.15, shares: 540_000_000 },
  { symbol: 'EURUSD=X', longName: 'EUR/USD', shortName: 'EUR/USD', type: 'CURRENCY', exchange: 'CCY', currency: 'USD', sector: null, industry: null, basePx: 1.0921, vol: 0.06 },
  { symbol: 'GBPUSD=X', longName: 'GBP/USD', shortName: 'GBP/USD', type: 'CURRENCY', exchange: 'CCY', currency: 'USD', sector: null, industry: null, basePx: 1.2974, vol: 0.07 },
  { symbol: 'JPY=X', longName: 'USD/JPY', shortName: 'USD/JPY', type: 'CURRENCY', exchange: 'CCY', currency: 'JPY', sector: null, industry: null, basePx: 148.62, vol: 0.08 },
  { symbol: 'HKD=X', longName: 'USD/HKD', shortName: 'USD/HKD', type: 'CURRENCY', exchange: 'CCY', currency: 'HKD', sector: null, industry: null, basePx: 7.842, vol: 0.005 },
  { symbol: 'KRW=X', longName: 'USD/KRW', shortName: 'USD/KRW', type: 'CURRENCY', exchange: 'CCY', currency: 'KRW', sector: null, industry: null, basePx: 1392.4, vol: 0.07 },
  { symbol: 'CNY=X', longName: 'USD/CNY', shortName: 'USD/CNY', type: 'CURRENCY', exchange: 'CCY', currency: 'CNY', sector: null, industry: null, basePx: 7.182, vol: 0.03 },
  { symbol: 'GC=F', longName: 'Gold', shortName: 'Gold Dec 26', type: 'FUTURE', exchange: 'CMX', currency: 'USD', sector: null, industry: null, process: 'xyz:GOLD' },
  { symbol: 'SI=F', longName: 'Silver', shortName: 'Silver Dec 26', type: 'FUTURE', exchange: 'CMX', currency: 'USD', sector: null, industry: null, basePx: 54.12, vol: 0.45 },
  { symbol: 'CL=F', longName: 'Crude Oil', shortName: 'Crude Oil Dec 26', type: 'FUTURE', exchange: 'NYM', currency: 'USD', sector: null, industry: null, basePx: 61.37, vol: 0.5 },
  { symbol: 'NG=F', longName: 'Natural Gas', shortName: 'Natural Gas Dec 26', type: 'FUTURE', exchange: 'NYM', currency: 'USD', sector: null, industry: null, basePx: 3.412, vol: 0.8 },
  { symbol: 'BTC-USD', longName: 'Bitcoin USD', shortName: 'Bitcoin USD', type: 'CRYPTOCURRENCY', exchange: 'CCC', currency: 'USD', sector: null, industry: null, coin: 'bitcoin' },
  { symbol: 'ETH-USD', longName: 'Ethereum USD', shortName: 'Ethereum USD', type: 'CRYPTOCURRENCY', exchange: 'CCC', currency: 'USD', sector: null, industry: null, coin: 'ethereum' },
  { symbol: 'SOL-USD', longName: 'Solana USD', shortName: 'Solana USD', type: 'CRYPTOCURRENCY', exchange: 'CCC', currency: 'USD', sector: null, industry: null, coin: 'solana' },
];
