import { PriceModel } from '../world/price-model';
import { outcomeEncoding } from '../world/catalog';
import { hash2, hexHash } from '../world/prng';
import { fmt, fmtPx } from './fmt';
import { outcomeEntry, perpEntry } from '../world/cycle-entries';
import { cycleStart, outcomeSide, OutcomeSlot, perpSide, PerpSlot, WalletProfile } from '../world/wallet-model';

export const MAX_FILLS_PER_RESPONSE = 2000;
const TAKER_FEE = 0.00045;
const MAKER_FEE = 0.00015;
/** HIP-3 deployers add their share on top of the base fee. */
const HIP3_FEE_MULTIPLIER = 2;
const OUTCOME_FEE = 0.0004;
/** A builder fee rate `f` is in tenths of a basis point: the fee is px × sz × f / 100,000. */
const BUILDER_FEE_RATE_UNIT = 100_000;
/** Fees are kept in whole micro-USDC so that `fee` is exactly the exchange fee plus `builderFee` as written. */
const MICRO = 1_000_000;
const OID_BASE = 100_000_000_000;
/** Fill tids are time * 128 + 64..127; trade-tape tids use 0..63, so the two never collide. */
const TID_TIME_FACTOR = 128;

/** One fill, kept numeric until it is written. */
export interface FillRecord {
  coin: string;
  szDecimals: number;
  px: number;
  sz: number;
  side: 'B' | 'A';
  time: number;
  startPosition: number;
  dir: string;
  closedPnl: number;
  hash: string;
  oid: number;
  crossed: boolean;
  /** Everything paid, the builder's share included. */
  fee: number;
  tid: number;
  /** The builder the order carried (lower-case), even when its share rounds to nothing. */
  builder: string | null;
  /** The builder's share of `fee`; null when there is none (the wire then omits it). */
  builderFee: number | null;
}

/** Cycles whose opening boundary falls in [from, to]. */
function boundaries(slot: { cycleMs: number; phaseMs: number }, from: number, to: number): number[] {
  const first = Math.ceil((from + slot.phaseMs) / slot.cycleMs);
  const last = Math.floor((to + slot.phaseMs) / slot.cycleMs);
  const cycles: number[] = [];
  for (let c = first; c <= last; c++) cycles.push(c);
  return cycles;
}

function perpFills(prices: PriceModel, slot: PerpSlot, cycle: number): FillRecord[] {
  const instrument = slot.instrument;
  const time = cycleStart(slot, cycle);
  const prevSide = perpSide(slot, cycle - 1);
  const side = perpSide(slot, cycle);
  const px = perpEntry(prices, slot, cycle);
  const closedPnl = prevSide * slot.size * (px - perpEntry(prices, slot, cycle - 1));
  const feeRate = (slot.maker ? MAKER_FEE : TAKER_FEE) * (instrument.dexIndex > 0 ? HIP3_FEE_MULTIPLIER : 1);
  const hash = hexHash(hash2(slot.seed, cycle));
  const oid = OID_BASE + (hash2(slot.seed ^ 0x01d, cycle) % 10_000_000_000);
  const firstTid = time * TID_TIME_FACTOR + 64 + (slot.seed & 31) * 2;
  // Every field written out in one order (no spread): builder files turn tens of thousands of these into rows.
  const fill = (k: number, sz: number, orderSide: 1 | -1, startPosition: number, dir: string, pnl: number): FillRecord => {
    const exchangeMicro = Math.round(sz * px * feeRate * MICRO);
    const builderMicro = slot.builder ? Math.round((sz * px * slot.builder.f * MICRO) / BUILDER_FEE_RATE_UNIT) : 0;
    return {
      coin: instrument.coin,
      szDecimals: instrument.szDecimals,
      px,
      sz,
      side: orderSide > 0 ? 'B' : 'A',
      time,
      startPosition,
      dir,
      closedPnl: pnl,
      hash,
      oid,
      crossed: !slot.maker,
      fee: (exchangeMicro + builderMicro) / MICRO,
      tid: firstTid + k,
      builder: slot.builder?.b ?? null,
      builderFee: builderMicro > 0 ? builderMicro / MICRO : null,
    };
  };
  const prevSzi = prevSide * slot.size;
  if (prevSide !== side) {
    return [fill(0, 2 * slot.size, side, prevSzi, prevSide > 0 ? 'Long > Short' : 'Short > Long', closedPnl)];
  }
  const label = side > 0 ? 'Long' : 'Short';
  return [fill(0, slot.size, -prevSide as 1 | -1, prevSzi, `Close ${label}`, closedPnl), fill(1, slot.size, side, 0, `Open ${label}`, 0)];
}

function outcomeFills(prices: PriceModel, slot: OutcomeSlot, cycle: number, seedSalt: number): FillRecord[] {
  const time = cycleStart(slot, cycle);
  const sold = outcomeEncoding(slot.outcome, outcomeSide(slot, cycle - 1));
  const bought = outcomeEncoding(slot.outcome, outcomeSide(slot, cycle));
  const sellPx = outcomeEntry(prices, sold, time);
  const buyPx = outcomeEntry(prices, bought, time);
  const paid = outcomeEntry(prices, sold, cycleStart(slot, cycle - 1));
  // Outcome orders are placed without a builder code.
  const common = { szDecimals: 0, sz: slot.qty, time, hash: hexHash(hash2(slot.seed, cycle)), crossed: true, builder: null, builderFee: null };
  const oid = OID_BASE + (hash2(slot.seed ^ 0x01d, cycle) % 10_000_000_000);
  const tid = time * TID_TIME_FACTOR + 64 + (seedSalt & 31) * 2;
  return [
    {
      ...common,
      coin: `#${sold}`,
      px: sellPx,
      side: 'A',
      startPosition: slot.qty,
      dir: 'Sell',
      closedPnl: slot.qty * (sellPx - paid),
      oid,
      fee: slot.qty * sellPx * OUTCOME_FEE,
      tid,
    },
    {
      ...common,
      coin: `#${bought}`,
      px: buyPx,
      side: 'B',
      startPosition: 0,
      dir: 'Buy',
      closedPnl: 0,
      oid: oid + 1,
      fee: slot.qty * buyPx * OUTCOME_FEE,
      tid: tid + 1,
    },
  ];
}

function byTime(a: FillRecord, b: FillRecord): number {
  return a.time - b.time || a.tid - b.tid;
}

function slotFills(prices: PriceModel, slots: PerpSlot[], from: number, to: number): FillRecord[] {
  const fills: FillRecord[] = [];
  for (const slot of slots) {
    for (const cycle of boundaries(slot, from, to)) fills.push(...perpFills(prices, slot, cycle));
  }
  return fills;
}

/** Every fill of a wallet with from <= time <= to, oldest first. */
export function walletFills(prices: PriceModel, wallet: WalletProfile | undefined, from: number, to: number): FillRecord[] {
  if (!wallet || to < from) return [];
  const fills = slotFills(prices, wallet.perps, from, to);
  const outcome = wallet.outcome;
  if (outcome) {
    for (const cycle of boundaries(outcome, from, to)) fills.push(...outcomeFills(prices, outcome, cycle, wallet.index));
  }
  return fills.sort(byTime);
}

export interface BuilderFillsQuery {
  prices: PriceModel;
  wallet: WalletProfile;
  builder: string;
  from: number;
  to: number;
}

/**
 * The fills of a wallet with from <= time <= to that paid a builder, oldest first: the same records as
 * walletFills, without computing the fills of the wallet's other positions.
 */
export function walletBuilderFills({ prices, wallet, builder, from, to }: BuilderFillsQuery): FillRecord[] {
  if (to < from) return [];
  const slots = wallet.perps.filter((slot) => slot.builder?.b === builder);
  return slotFills(prices, slots, from, to)
    .filter((fill) => fill.builderFee !== null)
    .sort(byTime);
}

/** A fill's price as the wire and the builder files write it. */
export function fillPx(fill: FillRecord): string {
  return fmtPx(fill.px, fill.szDecimals, fill.coin.startsWith('#'));
}

/** The wire shape of a fill (2025 schema: tid, feeToken, and builderFee only when a builder was paid). */
export function fillBody(fill: FillRecord): object {
  const body: Record<string, unknown> = {
    coin: fill.coin,
    px: fillPx(fill),
    sz: fmt(fill.sz, fill.szDecimals),
    side: fill.side,
    time: fill.time,
    startPosition: fmt(fill.startPosition, fill.szDecimals),
    dir: fill.dir,
    closedPnl: fmt(fill.closedPnl, 6),
    hash: fill.hash,
    oid: fill.oid,
    crossed: fill.crossed,
    fee: fmt(fill.fee, 6),
    tid: fill.tid,
    feeToken: 'USDC',
  };
  if (fill.builderFee !== null) body.builderFee = fmt(fill.builderFee, 6);
  return body;
}
