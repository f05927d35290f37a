import { CryptoCoin } from '../world/crypto-universe';
import { MentionStyle } from './news-feeds';

const CURRENCY_SIGNS: Record<string, string> = { USD: '$', HKD: 'HK$', JPY: '¥', KRW: '₩', EUR: '€', GBP: '£', CNY: 'CN¥' };
const MONTH_NAMES = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const QUARTER_NAMES = ['First', 'Second', 'Third', 'Fourth'];

/** Digits a price is quoted with: cents for most, more for sub-dollar coins (PEPE's 0.00001234). */
function fractionDigits(px: number): number {
  if (px >= 1_000) return 0;
  if (px >= 1) return 2;
  return Math.min(10, 2 - Math.floor(Math.log10(px)) + 1);
}

/** A number grouped in thousands with `digits` decimals, the same on every host (no locale). */
function grouped(value: number, digits: number): string {
  const [whole, fraction] = value.toFixed(digits).split('.');
  const withCommas = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return fraction === undefined ? withCommas : `${withCommas}.${fraction}`;
}

/** `$97,412`, `$3.42`, `$0.00001234`. */
export function usd(px: number): string {
  return `$${grouped(px, fractionDigits(px))}`;
}

/** A price in its currency: `$231.40`, `HK$438.40`, `¥2,895`, `₩71,400`; other currencies by code. */
export function money(px: number, currency: string): string {
  const digits = currency === 'JPY' || currency === 'KRW' ? 0 : fractionDigits(px);
  const sign = CURRENCY_SIGNS[currency];
  return sign ? `${sign}${grouped(px, digits)}` : `${grouped(px, digits)} ${currency}`;
}

/** The size of a change in percent with one decimal, without its sign: `4.2`. */
export function percent(change: number): string {
  return (Math.abs(change) * 100).toFixed(1);
}

export function windowLabel(hours: number): string {
  if (hours === 1) return 'an hour';
  if (hours === 24) return '24 hours';
  return `${hours} hours`;
}

/** `14:05 UTC`. */
export function utcClock(at: number): string {
  return `${new Date(at).toISOString().slice(11, 16)} UTC`;
}

/** `June 2, 2025`. */
export function longDate(at: number): string {
  const date = new Date(at);
  return `${MONTH_NAMES[date.getUTCMonth()]} ${date.getUTCDate()}, ${date.getUTCFullYear()}`;
}

/** The quarter that closed last before `at`: `Second Quarter 2025`. */
export function lastQuarter(at: number): string {
  const date = new Date(at);
  const quarter = Math.floor(date.getUTCMonth() / 3) - 1;
  const year = date.getUTCFullYear() - (quarter < 0 ? 1 : 0);
  return `${QUARTER_NAMES[(quarter + 4) % 4]} Quarter ${year}`;
}

export function ticker(coin: CryptoCoin): string {
  return coin.symbol.toUpperCase();
}

/** How a headline names a coin: `Bitcoin (BTC)`, `Bitcoin`, `$BTC`. */
export function mention(coin: CryptoCoin, style: MentionStyle): string {
  if (style === 'cashtag') return `$${ticker(coin)}`;
  return style === 'name' ? coin.name : `${coin.name} (${ticker(coin)})`;
}

/** A draw in [low, high] rounded to `step`. */
export function between(u: number, low: number, high: number, step: number): number {
  return Math.round((low + u * (high - low)) / step) * step;
}
