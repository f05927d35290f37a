import type { SeedEntry } from './seed-entry';

/**
 * FX majors and crosses, priced in the quote currency. Yahoo's symbol is `<BASE><QUOTE>=X`, except for pairs
 * based on the US dollar, which Yahoo names by the quote currency alone (`JPY=X` is USD/JPY).
 * Then the front-month metal, energy and grain futures (Yahoo `<ROOT>=F`, in USD). A starting universe: an ops command adds assets later.
 */
const fx = (pair: string, name: string): SeedEntry => ({
  yahooSymbol: pair.startsWith('USD') ? `${pair.slice(3)}=X` : `${pair}=X`,
  type: 'FOREX',
  market: null,
  symbol: pair,
  name,
  sector: 'Currencies',
  currency: pair.slice(3),
});

const future = (root: string, name: string, sector: string): SeedEntry => ({
  yahooSymbol: `${root}=F`,
  type: 'COMMODITY',
  market: null,
  symbol: root,
  name,
  sector,
  currency: 'USD',
});

export const FX_PAIRS: SeedEntry[] = [
  fx('EURUSD', 'Euro / US Dollar'),
  fx('GBPUSD', 'British Pound / US Dollar'),
  fx('USDJPY', 'US Dollar / Japanese Yen'),
  fx('USDCHF', 'US Dollar / Swiss Franc'),
  fx('AUDUSD', 'Australian Dollar / US Dollar'),
  fx('USDCAD', 'US Dollar / Canadian Dollar'),
  fx('NZDUSD', 'New Zealand Dollar / US Dollar'),
  fx('EURGBP', 'Euro / British Pound'),
  fx('EURJPY', 'Euro / Japanese Yen'),
  fx('EURCHF', 'Euro / Swiss Franc'),
  fx('GBPJPY', 'British Pound / Japanese Yen'),
  fx('AUDJPY', 'Australian Dollar / Japanese Yen'),
  fx('USDCNY', 'US Dollar / Chinese Yuan'),
  fx('USDHKD', 'US Dollar / Hong Kong Dollar'),
  fx('USDKRW', 'US Dollar / South Korean Won'),
  fx('USDSGD', 'US Dollar / Singapore Dollar'),
  fx('USDINR', 'US Dollar / Indian Rupee'),
];

export const COMMODITIES: SeedEntry[] = [
  future('GC', 'Gold Futures', 'Precious Metals'),
  future('SI', 'Silver Futures', 'Precious Metals'),
  future('PL', 'Platinum Futures', 'Precious Metals'),
  future('PA', 'Palladium Futures', 'Precious Metals'),
  future('HG', 'Copper Futures', 'Industrial Metals'),
  future('CL', 'Crude Oil WTI Futures', 'Energy'),
  future('BZ', 'Brent Crude Oil Futures', 'Energy'),
  future('NG', 'Natural Gas Futures', 'Energy'),
  future('RB', 'RBOB Gasoline Futures', 'Energy'),
  future('HO', 'Heating Oil Futures', 'Energy'),
  future('ZC', 'Corn Futures', 'Agriculture'),
  future('ZW', 'Wheat Futures', 'Agriculture'),
  future('ZS', 'Soybean Futures', 'Agriculture'),
];
