import BigNumber from 'bignumber.js';
import { Decimal } from '../../../common/decimal/decimal';
import { FUNDING_HOURS_PER_YEAR } from '../notification-settings';

const GROUPED = { decimalSeparator: '.', groupSeparator: ',', groupSize: 3 };

/** A price as people read it: grouped thousands, cents above 1, four significant digits below (0.0001235). */
export function formatPrice(value: BigNumber.Value): string {
  const px = new Decimal(value);
  const abs = px.abs();
  if (abs.gte(1000)) return px.toFormat(0, BigNumber.ROUND_HALF_UP, GROUPED);
  if (abs.gte(1) || abs.isZero()) return px.toFormat(2, BigNumber.ROUND_HALF_UP, GROUPED);
  const places = -Math.floor(Math.log10(abs.toNumber())) + 3;
  return px.decimalPlaces(places, BigNumber.ROUND_HALF_UP).toFormat(GROUPED);
}

/** `BTC rose 6.2% in the last hour to 97,410`. */
export function priceMoveMessage({ coin, pastPx, mid, windowMinutes }: { coin: string; pastPx: string; mid: string; windowMinutes: number }): string {
  const change = new Decimal(mid).minus(pastPx).div(pastPx).times(100);
  const verb = change.isNegative() ? 'fell' : 'rose';
  const window =
    windowMinutes === 60 ? 'the last hour' : windowMinutes % 60 === 0 ? `the last ${windowMinutes / 60} hours` : `the last ${windowMinutes} minutes`;
  return `${coin} ${verb} ${change.abs().toFixed(1, BigNumber.ROUND_HALF_UP)}% in ${window} to ${formatPrice(mid)}`;
}

/** `Your BTC long is 3.1% from liquidation: mark 97,410, liquidation price 94,400`. */
export function liquidationRiskMessage({ coin, szi, markPx, liquidationPx }: { coin: string; szi: string; markPx: string; liquidationPx: string }): string {
  const side = new Decimal(szi).isNegative() ? 'short' : 'long';
  const distance = new Decimal(markPx).minus(liquidationPx).abs().div(markPx).times(100);
  return `Your ${coin} ${side} is ${distance.toFixed(1, BigNumber.ROUND_HALF_UP)}% from liquidation: mark ${formatPrice(markPx)}, liquidation price ${formatPrice(liquidationPx)}`;
}

/** `BTC funding is +0.0100% an hour (87.6% a year): longs pay shorts`. */
export function fundingRateMessage({ coin, funding }: { coin: string; funding: string }): string {
  const hourly = new Decimal(funding).times(100);
  const yearly = hourly.times(FUNDING_HOURS_PER_YEAR).abs();
  const payer = hourly.isNegative() ? 'shorts pay longs' : 'longs pay shorts';
  const sign = hourly.isNegative() ? '-' : '+';
  return `${coin} funding is ${sign}${hourly.abs().toFixed(4, BigNumber.ROUND_HALF_UP)}% an hour (${yearly.toFixed(1, BigNumber.ROUND_HALF_UP)}% a year): ${payer}`;
}
