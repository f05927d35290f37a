import { Decimal, toDecimalString } from '../../common/decimal/decimal';

/** Credits travel through the KV store as integer micro-credits: exact integer arithmetic in Redis and Lua. */
export const MICRO_PER_CREDIT = 1_000_000;

export function creditsToMicro(credits: string | number): string {
  const micro = new Decimal(credits).times(MICRO_PER_CREDIT);
  if (!micro.isInteger()) throw new Error(`credit amount ${credits} has more than 6 decimal places`);
  return micro.toFixed();
}

export function microToCredits(micro: string | number): string {
  // Hot path (two headers per billed call): whole credits need no BigNumber. Integers below 2^53 are exact.
  const n = typeof micro === 'number' ? micro : Number(micro);
  if (Number.isSafeInteger(n) && n % MICRO_PER_CREDIT === 0) return String(n / MICRO_PER_CREDIT);
  return toDecimalString(new Decimal(micro).div(MICRO_PER_CREDIT));
}
