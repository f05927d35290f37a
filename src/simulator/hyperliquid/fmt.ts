import { pxDecimals, roundPx } from '../world/tick-rules';

/** Decimal strings as the upstream writes them: no exponent, trailing zeros trimmed, at least one decimal ("2.0"). */
export function fmt(value: number, decimals: number): string {
  if (!Number.isFinite(value)) throw new RangeError(`fmt: not a finite number (${value})`);
  // toFixed switches to exponent notation from 1e21; such values only arise from a bug, so write the integer part.
  let text = Math.abs(value) < 1e21 ? value.toFixed(decimals) : `${BigInt(Math.round(value))}.0`;
  if (text.includes('.')) {
    text = text.replace(/0+$/, '');
    if (text.endsWith('.')) text += '0';
  } else {
    text += '.0';
  }
  return text === '-0.0' ? '0.0' : text;
}

/** A price on its tick, written as the upstream writes it. */
export function fmtPx(px: number, szDecimals: number, spot: boolean): string {
  return fmt(roundPx(px, szDecimals, spot), pxDecimals(px, szDecimals, spot));
}
