import { Decimal, toDecimalString } from '../../common/decimal/decimal';

const GRAMS_PER_TROY_OUNCE = new Decimal('31.1034768');
const GRAMS_PER_TONNE = new Decimal(1_000_000);

/**
 * The metals a future of which has a market cap in the sense RWA lists use (price × the stock above
 * ground), by catalogue symbol, in troy ounces. Gold: the World Gold Council's estimate of all gold ever
 * mined, about 216,265 t. A commodity missing here has no market cap, so its RWA row is left out.
 */
const ABOVE_GROUND_TROY_OUNCES: Readonly<Record<string, InstanceType<typeof Decimal>>> = {
  GC: new Decimal(216_265).times(GRAMS_PER_TONNE).div(GRAMS_PER_TROY_OUNCE),
};

/** The market cap of a commodity at `pricePerTroyOunce` (its future's quote, USD), null when its stock is not known. */
export function commodityMarketCap(symbol: string, pricePerTroyOunce: string | null): string | null {
  const ounces = ABOVE_GROUND_TROY_OUNCES[symbol];
  if (ounces === undefined || pricePerTroyOunce === null) return null;
  return toDecimalString(ounces.times(pricePerTroyOunce).integerValue());
}
