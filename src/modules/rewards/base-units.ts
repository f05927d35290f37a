import BigNumber from 'bignumber.js';
import { Decimal } from '../../common/decimal/decimal';

/** Whole base units of the reward token in `amount` token units, rounded down: a fraction stays owed for the next round. */
export function toBaseUnits(amount: BigNumber.Value, decimals: number): BigNumber {
  return new Decimal(amount).shiftedBy(decimals).integerValue(BigNumber.ROUND_FLOOR);
}

/** Token units of `base` base units, as a decimal string. */
export function fromBaseUnits(base: BigNumber.Value, decimals: number): string {
  return new Decimal(base).shiftedBy(-decimals).toFixed();
}
