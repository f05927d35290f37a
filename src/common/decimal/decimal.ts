import BigNumber from 'bignumber.js';
import { ValueTransformer } from 'typeorm';

/** A BigNumber configured for money-like values: no exponent notation, ever. */
export const Decimal = BigNumber.clone({ EXPONENTIAL_AT: 1e9, DECIMAL_PLACES: 18 });

const PLAIN_DECIMAL = /^-?\d+(\.\d+)?$/;
const LEADING_ZERO = /^-?0\d/;

/**
 * Canonical decimal string: no exponent, no trailing zeros ("10.500000" -> "10.5"). Plain decimal text
 * (what PostgreSQL's numeric::text always is) is trimmed as text: a 100-row page has over a thousand
 * such values and BigNumber would be most of the request's cost. Anything else goes through BigNumber.
 */
export function toDecimalString(value: BigNumber.Value): string {
  if (typeof value === 'string' && PLAIN_DECIMAL.test(value)) {
    let text = value;
    if (text.includes('.')) {
      let end = text.length;
      while (text.charCodeAt(end - 1) === 48) end -= 1;
      if (text.charCodeAt(end - 1) === 46) end -= 1;
      text = text.slice(0, end);
    }
    // Leading zeros ("007", "-007") and negative zero ("-0.00", trimmed to "-0") are rare; let BigNumber
    // canonicalise them. "-0.5" is already canonical (and common: a losing position's roe).
    if (LEADING_ZERO.test(text) || text === '-0') return new Decimal(value).toFixed();
    return text;
  }
  return new Decimal(value).toFixed();
}

/** numeric columns come back from pg as strings; keep them strings, canonicalised. */
export const decimalTransformer: ValueTransformer = {
  to: (value: string | null | undefined) => value,
  from: (value: string | null) => (value === null ? null : toDecimalString(value)),
};
