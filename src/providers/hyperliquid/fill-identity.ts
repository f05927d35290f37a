import { toDecimalString } from '../../common/decimal/decimal';
import { TradeSide } from './hyperliquid.types';

/** What a builder's daily file and a user's `userFills` both say of one fill. */
export interface FillIdentityFields {
  /** Epoch ms; only its second counts (the files give whole seconds). */
  time: number;
  user: string;
  coin: string;
  side: TradeSide;
  px: string;
  sz: string;
}

/**
 * Each fill with its identity, `second|user|side|px|sz|n|coin`, the key the daily files and `userFills` agree
 * on: neither carries what the other uses to tell fills apart (the files have no hash or trade id, userFills no
 * counterparty), and the files give whole seconds. px and sz are canonical. Fills equal in all of these (one
 * order filled against two makers at one price and size within a second) are told apart by `n`, their 0-based
 * rank among such fills of the batch: they are interchangeable, so the set of keys does not depend on their
 * order, and a source listing the same fills gives the same keys. Fees and pnl stay out of the key, so a
 * restated file updates a fill instead of adding one; the coin, the only free text, comes last.
 */
export function withFillKeys<T extends FillIdentityFields>(fills: readonly T[]): Array<T & { fillKey: string }> {
  const occurrences = new Map<string, number>();
  return fills.map((fill) => {
    const identity = `${Math.floor(fill.time / 1000)}|${fill.user.toLowerCase()}|${fill.side}|${toDecimalString(fill.px)}|${toDecimalString(fill.sz)}`;
    const seen = `${identity}|${fill.coin}`;
    const n = occurrences.get(seen) ?? 0;
    occurrences.set(seen, n + 1);
    return { ...fill, fillKey: `${identity}|${n}|${fill.coin}` };
  });
}
