import { Decimal, toDecimalString } from '../../common/decimal/decimal';

/** Yahoo quotes a currency against the dollar as `<CCY>=X`: units of it per USD. */
export function fxSymbolOf(currency: string): string {
  return `${currency}=X`;
}

/** The FX symbols whose quotes convert these currencies to USD (none for USD). */
export function fxSymbolsOf(currencies: Iterable<string | null>): string[] {
  return [...new Set([...currencies].map((currency) => currency ?? 'USD'))].filter((currency) => currency !== 'USD').map(fxSymbolOf);
}

/**
 * `value` in `currency` as USD, at the rates by FX symbol (units per USD), to `decimals` places (a USD value
 * as it is); null without a value or a usable rate.
 */
export function toUsd(value: string | null, currency: string | null, rates: ReadonlyMap<string, string>, decimals = 2): string | null {
  if (value === null) return null;
  const code = currency ?? 'USD';
  if (code === 'USD') return value;
  const rate = rates.get(fxSymbolOf(code)) ?? null;
  if (rate === null || new Decimal(rate).isZero()) return null;
  return toDecimalString(new Decimal(value).div(rate).decimalPlaces(decimals));
}
