import { PriceModel } from '../world/price-model';
import { fmt, fmtPx } from './fmt';
import { outcomeEntry, perpEntry } from '../world/cycle-entries';
import { SPOT_TOKENS } from '../world/universe';
import { outcomeEncoding } from '../world/catalog';
import { cycleAt, cycleStart, outcomeSide, perpSide, PerpSlot, WalletProfile } from '../world/wallet-model';

const HOUR_MS = 3_600_000;
/** Free cash kept on each HIP-3 dex the wallet trades, as a share of its native free cash. */
export const HIP3_CASH_SHARE = 0.2;
/** Outcome-token balances use token ids above every spot token (their coin is `+<encoding>`). */
export const OUTCOME_TOKEN_BASE = 100_000_000;

export interface PositionView {
  slot: PerpSlot;
  szi: number;
  entryPx: number;
  markPx: number;
  notional: number;
  unrealizedPnl: number;
  marginUsed: number;
  rawUsd: number;
  returnOnEquity: number;
  liquidationPx: number | null;
  fundingSinceOpen: number;
  fundingAllTime: number;
}

export interface PerpAccountView {
  positions: PositionView[];
  crossAccountValue: number;
  crossNtl: number;
  crossRawUsd: number;
  crossMarginUsed: number;
  crossMaintenance: number;
  accountValue: number;
  totalNtl: number;
  totalRawUsd: number;
  totalMarginUsed: number;
  withdrawable: number;
}

/** Margin state of one dex (each HIP-3 dex margins separately), valued at the current mark. */
export function perpAccount(prices: PriceModel, wallet: WalletProfile, dexIndex: number, t: number): PerpAccountView {
  const step = prices.pricesAtStep(prices.step(t));
  const slots = wallet.perps.filter((slot) => slot.instrument.dexIndex === dexIndex);
  const positions: PositionView[] = [];
  let crossEntryNtl = 0;
  let crossSignedEntry = 0;
  let crossSignedMark = 0;
  let crossNtl = 0;
  let crossMarginUsed = 0;
  let crossMaintenance = 0;
  for (const slot of slots) {
    const cycle = cycleAt(slot, t);
    const szi = perpSide(slot, cycle) * slot.size;
    const entryPx = perpEntry(prices, slot, cycle);
    const markPx = step[slot.instrument.id];
    const notional = slot.size * markPx;
    const initialMargin = (slot.size * entryPx) / slot.leverage;
    const unrealizedPnl = szi * (markPx - entryPx);
    const hours = (t - cycleStart(slot, cycle)) / HOUR_MS;
    const fundingSinceOpen = szi * markPx * prices.funding(slot.instrument, t) * hours;
    const view: PositionView = {
      slot,
      szi,
      entryPx,
      markPx,
      notional,
      unrealizedPnl,
      marginUsed: notional / slot.leverage,
      rawUsd: 0,
      returnOnEquity: unrealizedPnl / initialMargin,
      liquidationPx: null,
      fundingSinceOpen,
      fundingAllTime: fundingSinceOpen + slot.fundingCarry * slot.size * entryPx,
    };
    if (slot.isolated) {
      view.rawUsd = -szi * entryPx + initialMargin;
      view.marginUsed = view.rawUsd + szi * markPx;
      const available = view.marginUsed - notional / (2 * slot.instrument.maxLeverage);
      view.liquidationPx = liquidationPx(markPx, szi, available, slot.instrument.maxLeverage);
    } else {
      crossEntryNtl += slot.size * entryPx;
      crossSignedEntry += szi * entryPx;
      crossSignedMark += szi * markPx;
      crossNtl += notional;
      crossMarginUsed += view.marginUsed;
      crossMaintenance += notional / (2 * slot.instrument.maxLeverage);
    }
    positions.push(view);
  }
  const cash = dexIndex === 0 ? (wallet.perps.length > 0 ? wallet.freeCash : 0) : slots.length > 0 ? wallet.freeCash * HIP3_CASH_SHARE : 0;
  const crossRawUsd = cash + crossEntryNtl * wallet.crossRatio - crossSignedEntry;
  const crossAccountValue = crossRawUsd + crossSignedMark;
  for (const view of positions) {
    if (!view.slot.isolated) {
      view.liquidationPx = liquidationPx(view.markPx, view.szi, crossAccountValue - crossMaintenance, view.slot.instrument.maxLeverage);
    }
  }
  const isolated = positions.filter((view) => view.slot.isolated);
  const isoMarginUsed = isolated.reduce((sum, view) => sum + view.marginUsed, 0);
  return {
    positions,
    crossAccountValue,
    crossNtl,
    crossRawUsd,
    crossMarginUsed,
    crossMaintenance,
    accountValue: crossAccountValue + isoMarginUsed,
    totalNtl: positions.reduce((sum, view) => sum + view.notional, 0),
    totalRawUsd: crossRawUsd + isolated.reduce((sum, view) => sum + view.rawUsd, 0),
    totalMarginUsed: crossMarginUsed + isoMarginUsed,
    withdrawable: Math.max(0, crossAccountValue - crossMarginUsed),
  };
}

/** The exchange's formula: px - side * available / |szi| / (1 - side / maintenanceLeverage); null when unreachable. */
function liquidationPx(markPx: number, szi: number, available: number, maxLeverage: number): number | null {
  const side = Math.sign(szi);
  const maintenance = 1 / (2 * maxLeverage);
  const px = markPx - (side * available) / Math.abs(szi) / (1 - maintenance * side);
  return px > 0 && Number.isFinite(px) ? px : null;
}

function summary(accountValue: number, totalNtlPos: number, totalRawUsd: number, totalMarginUsed: number) {
  return { accountValue: fmt(accountValue, 6), totalNtlPos: fmt(totalNtlPos, 6), totalRawUsd: fmt(totalRawUsd, 6), totalMarginUsed: fmt(totalMarginUsed, 6) };
}

/** The `clearinghouseState` wire object. */
export function clearinghouseStateBody(view: PerpAccountView, t: number): object {
  return {
    marginSummary: summary(view.accountValue, view.totalNtl, view.totalRawUsd, view.totalMarginUsed),
    crossMarginSummary: summary(view.crossAccountValue, view.crossNtl, view.crossRawUsd, view.crossMarginUsed),
    crossMaintenanceMarginUsed: fmt(view.crossMaintenance, 6),
    withdrawable: fmt(view.withdrawable, 6),
    assetPositions: view.positions.map((p) => {
      const instrument = p.slot.instrument;
      const leverage = p.slot.isolated ? { type: 'isolated', value: p.slot.leverage, rawUsd: fmt(p.rawUsd, 6) } : { type: 'cross', value: p.slot.leverage };
      return {
        type: 'oneWay',
        position: {
          coin: instrument.coin,
          szi: fmt(p.szi, instrument.szDecimals),
          leverage,
          entryPx: fmtPx(p.entryPx, instrument.szDecimals, false),
          positionValue: fmt(p.notional, 6),
          unrealizedPnl: fmt(p.unrealizedPnl, 6),
          returnOnEquity: fmt(p.returnOnEquity, 10),
          liquidationPx: p.liquidationPx === null ? null : fmt(p.liquidationPx, 10),
          marginUsed: fmt(p.marginUsed, 6),
          maxLeverage: instrument.maxLeverage,
          cumFunding: { allTime: fmt(p.fundingAllTime, 6), sinceOpen: fmt(p.fundingSinceOpen, 6), sinceChange: fmt(p.fundingSinceOpen, 6) },
        },
      };
    }),
    time: t,
  };
}

/** The `spotClearinghouseState` wire object: USDC first, then tokens by index, then HIP-4 outcome tokens `+<enc>`. */
export function spotClearinghouseStateBody(prices: PriceModel, wallet: WalletProfile | undefined, t: number): object {
  if (!wallet) return { balances: [] };
  const balances: object[] = wallet.spot.map((holding) => {
    const token = SPOT_TOKENS[holding.token];
    const decimals = Math.min(token.weiDecimals, 8);
    return {
      coin: token.name,
      token: holding.token,
      total: fmt(holding.total, decimals),
      hold: fmt(holding.hold, decimals),
      entryNtl: fmt(holding.entryNtl, 6),
    };
  });
  const slot = wallet.outcome;
  if (slot) {
    const cycle = cycleAt(slot, t);
    const encoding = outcomeEncoding(slot.outcome, outcomeSide(slot, cycle));
    const entry = outcomeEntry(prices, encoding, cycleStart(slot, cycle));
    balances.push({ coin: `+${encoding}`, token: OUTCOME_TOKEN_BASE + encoding, total: fmt(slot.qty, 0), hold: '0.0', entryNtl: fmt(slot.qty * entry, 6) });
  }
  return { balances };
}
