import { toDecimalString } from '../../common/decimal/decimal';
import { SchemaReader } from '../kit/schema-reader';
import { Candle } from '../market-data-provider';

export const BINANCE_PROVIDER = 'binance';

const { asDecimal, asInteger, fixedLength, mapArray, shapeError } = new SchemaReader(BINANCE_PROVIDER);

/**
 * A klines body, `[[openTime ms, open, high, low, close, volume, closeTime ms, quoteVolume, trades, ...], ...]`,
 * as candles ascending by openTime with the bar's base-asset volume. Spot (`/api/v3/klines`) and USDⓈ-M
 * futures (`/fapi/v1/klines`) rows share this layout; columns past the volume are not read, so a longer row
 * is fine. Prices and volumes arrive as decimal strings with trailing zeros ("440.69000"), trimmed here.
 * The newest row is the bar still open, as Binance sends it.
 */
export function parseKlines(json: unknown, label = 'klines'): Candle[] {
  const candles = mapArray(json, label, (item, path): Candle => {
    const [openTime, open, high, low, close, volume] = fixedLength(item, path, 6, true);
    return {
      openTime: isoFromMs(openTime, `${path}[0]`),
      open: toDecimalString(asDecimal(open, `${path}[1]`)),
      high: toDecimalString(asDecimal(high, `${path}[2]`)),
      low: toDecimalString(asDecimal(low, `${path}[3]`)),
      close: toDecimalString(asDecimal(close, `${path}[4]`)),
      volume: toDecimalString(asDecimal(volume, `${path}[5]`)),
    };
  });
  for (let i = 1; i < candles.length; i++) {
    // Binance sends bars oldest first; out of order or repeated, the body is not one series.
    if (candles[i].openTime <= candles[i - 1].openTime) throw shapeError(`${label}[${i}][0]`, 'expected open times strictly ascending');
  }
  return candles;
}

function isoFromMs(value: unknown, path: string): string {
  const date = new Date(asInteger(value, path));
  if (Number.isNaN(date.getTime())) throw shapeError(path, 'expected an epoch time in milliseconds');
  return date.toISOString();
}
