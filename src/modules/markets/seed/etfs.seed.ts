import type { SeedEntry } from './seed-entry';

/**
 * Major US-listed ETFs (equity indices, bonds, gold and silver, emerging markets). The category of each is
 * its sector field. A starting universe: an ops command adds assets later.
 */
const etf = (yahooSymbol: string, name: string, sector: string): SeedEntry => ({
  yahooSymbol,
  type: 'ETF',
  market: 'US',
  symbol: yahooSymbol,
  name,
  sector,
  currency: 'USD',
});

export const ETFS: SeedEntry[] = [
  etf('SPY', 'SPDR S&P 500 ETF Trust', 'Equity Index'),
  etf('VOO', 'Vanguard S&P 500 ETF', 'Equity Index'),
  etf('IVV', 'iShares Core S&P 500 ETF', 'Equity Index'),
  etf('QQQ', 'Invesco QQQ Trust', 'Equity Index'),
  etf('IWM', 'iShares Russell 2000 ETF', 'Equity Index'),
  etf('DIA', 'SPDR Dow Jones Industrial Average ETF Trust', 'Equity Index'),
  etf('VTI', 'Vanguard Total Stock Market ETF', 'Equity Index'),
  etf('VEA', 'Vanguard FTSE Developed Markets ETF', 'International Equity'),
  etf('EEM', 'iShares MSCI Emerging Markets ETF', 'International Equity'),
  etf('VWO', 'Vanguard FTSE Emerging Markets ETF', 'International Equity'),
  etf('EFA', 'iShares MSCI EAFE ETF', 'International Equity'),
  etf('FXI', 'iShares China Large-Cap ETF', 'International Equity'),
  etf('EWJ', 'iShares MSCI Japan ETF', 'International Equity'),
  etf('GLD', 'SPDR Gold Shares', 'Commodities'),
  etf('IAU', 'iShares Gold Trust', 'Commodities'),
  etf('SLV', 'iShares Silver Trust', 'Commodities'),
  etf('USO', 'United States Oil Fund', 'Commodities'),
  etf('TLT', 'iShares 20+ Year Treasury Bond ETF', 'Bonds'),
  etf('IEF', 'iShares 7-10 Year Treasury Bond ETF', 'Bonds'),
  etf('SHY', 'iShares 1-3 Year Treasury Bond ETF', 'Bonds'),
  etf('AGG', 'iShares Core U.S. Aggregate Bond ETF', 'Bonds'),
  etf('BND', 'Vanguard Total Bond Market ETF', 'Bonds'),
  etf('LQD', 'iShares iBoxx $ Investment Grade Corporate Bond ETF', 'Bonds'),
  etf('HYG', 'iShares iBoxx $ High Yield Corporate Bond ETF', 'Bonds'),
  etf('XLK', 'Technology Select Sector SPDR Fund', 'Sector Equity'),
  etf('XLF', 'Financial Select Sector SPDR Fund', 'Sector Equity'),
  etf('XLE', 'Energy Select Sector SPDR Fund', 'Sector Equity'),
  etf('XLV', 'Health Care Select Sector SPDR Fund', 'Sector Equity'),
  etf('SMH', 'VanEck Semiconductor ETF', 'Sector Equity'),
  etf('ARKK', 'ARK Innovation ETF', 'Thematic Equity'),
  etf('IBIT', 'iShares Bitcoin Trust ETF', 'Digital Assets'),
  etf('ETHA', 'iShares Ethereum Trust ETF', 'Digital Assets'),
];
