import { PriceModel } from './price-model';
import { hash2, unit } from './prng';
import { roundPx } from './tick-rules';
import { cycleStart, PerpSlot } from './wallet-model';

// Entry prices of the wallets' cycles, shared so every protocol reports the same opening price.
const ENTRY_SLIPPAGE = 0.001;

/** Entry of a cycle: the price at its start plus a little deterministic slippage, on the tick. */
export function perpEntry(prices: PriceModel, slot: PerpSlot, cycle: number): number {
  const slip = (unit(hash2(slot.seed ^ 0xe1, cycle)) - 0.5) * ENTRY_SLIPPAGE;
  const instrument = slot.instrument;
  return roundPx(prices.pxAt(instrument, cycleStart(slot, cycle)) * (1 + slip), instrument.szDecimals, false);
}

/** Price paid for one outcome-side contract at an instant. */
export function outcomeEntry(prices: PriceModel, encoding: number, t: number): number {
  const instrument = prices.catalog.byCoin.get(`#${encoding}`);
  if (!instrument) throw new Error(`no outcome side #${encoding}`);
  return prices.pxAt(instrument, t);
}
