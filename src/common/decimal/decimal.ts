import BigNumber from 'bignumber.js';
import { ValueTransformer } from 'typeorm';

/** A BigNumber configured for money-like values: no exponent notation, ever. */
export const Decimal = BigNumber.clone({ EXPONENTIAL_AT: 1e9, DECIMAL_PLACES: 18 });

/** Canonical decimal string: no exponent, no trailing zeros ("10.500000" -> "10.5"). */
export function toDecimalString(value: BigNumber.Value): string {
  return new Decimal(value).toFixed();
}

/** numeric columns come back from pg as strings; keep them strings, canonicalised. */
export const decimalTransformer: ValueTransformer = {
  to: (value: string | null | undefined) => value,
  from: (value: string | null) => (value === null ? null : toDecimalString(value)),
};

/** bigint columns: pg returns strings; the values here stay well inside 2^53. */
export const bigintToNumberTransformer: ValueTransformer = {
  to: (value: number | null | undefined) => value,
  from: (value: string | null) => (value === null ? null : Number(value)),
};
