import { BuilderCode, pickBuilder, WorldBuilders } from './builders';
import { Catalog, Instrument } from './catalog';
import { hash2, mulberry32, unit } from './prng';
import { roundSz } from './tick-rules';
import { OUTCOMES, SPOT_TOKENS, VAULT_NAMES } from './universe';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const HIP3_TRADER_SHARE = 0.3;
const OUTCOME_TRADER_SHARE = 0.15;
/** Uniform 0..20 positions: 10 on average, so 100,000 wallets hold about 1,000,000 positions. */
const MAX_POSITIONS = 20;
/** Share of positions traded through a builder (the service's or an OPC's). */
const BUILDER_SHARE = 0.2;
const ISOLATED_LEVERAGES = [1, 2, 3, 5, 10];
const CROSS_LEVERAGES = [1, 2, 3, 5, 10, 20, 25, 40];

/**
 * A perp position that is always open with a constant size; its side and entry are re-drawn at each cycle
 * boundary (close + reopen, or a flip), which is where its fills come from.
 */
export interface PerpSlot {
  instrument: Instrument;
  size: number;
  leverage: number;
  isolated: boolean;
  cycleMs: number;
  phaseMs: number;
  longBias: number;
  seed: number;
  /** The builder code its orders carry, or null for orders placed without one. */
  builder: BuilderCode | null;
  maker: boolean;
  /** Funding paid before the current cycle, as a share of notional. */
  fundingCarry: number;
}

/** A HIP-4 holding of one side of an outcome, sold and re-bought (maybe the other side) each cycle. */
export interface OutcomeSlot {
  outcome: number;
  qty: number;
  cycleMs: number;
  phaseMs: number;
  yesBias: number;
  seed: number;
}

export interface SpotHolding {
  token: number;
  total: number;
  hold: number;
  entryNtl: number;
}

export interface WalletProfile {
  index: number;
  isVault: boolean;
  equity: number;
  /** Cross deposit as a share of the cross notional at entry. */
  crossRatio: number;
  freeCash: number;
  perps: PerpSlot[];
  outcome: OutcomeSlot | null;
  spot: SpotHolding[];
  /** Leaderboard traits. */
  skill: number;
  turnover: number;
  ageDays: number;
  displayName: string | null;
}

function logUniform(rng: () => number, min: number, max: number): number {
  return Math.exp(Math.log(min) + rng() * (Math.log(max) - Math.log(min)));
}

function pick<T>(rng: () => number, items: T[]): T {
  return items[Math.floor(rng() * items.length)];
}

const leverageChoices = new Map<number, number[]>();
/** Leverages a wallet may pick (memoised: this runs for every position of every wallet). */
function leveragesFor(isolated: boolean, maxLeverage: number): number[] {
  const key = isolated ? -maxLeverage : maxLeverage;
  let choices = leverageChoices.get(key);
  if (!choices) {
    choices = (isolated ? ISOLATED_LEVERAGES : CROSS_LEVERAGES).filter((l) => l <= maxLeverage);
    leverageChoices.set(key, choices);
  }
  return choices;
}

/** Weighted sample without replacement. */
function sampleInstruments(rng: () => number, pool: Instrument[], count: number): Instrument[] {
  const weights = pool.map((instrument) => instrument.popularity);
  let total = weights.reduce((sum, w) => sum + w, 0);
  const chosen: Instrument[] = [];
  for (let n = 0; n < count && total > 0; n++) {
    let r = rng() * total;
    let k = 0;
    while (k < weights.length - 1 && (r >= weights[k] || weights[k] === 0)) r -= weights[k++];
    // Rounding can run off the end onto a drawn item; take the last one still available instead.
    while (weights[k] === 0 && k > 0) k--;
    chosen.push(pool[k]);
    total -= weights[k];
    weights[k] = 0;
  }
  return chosen;
}

/** What every wallet of a world is derived from. */
export interface WalletContext {
  catalog: Catalog;
  seed: number;
  walletCount: number;
  builders: WorldBuilders;
}

/** Derives wallet `index` (vaults follow the wallets) from the seed alone, so nothing per wallet is stored. */
export function generateWallet({ catalog, seed, walletCount, builders }: WalletContext, index: number): WalletProfile {
  const walletSeed = hash2(seed ^ 0x5eed, index);
  const rng = mulberry32(walletSeed);
  const isVault = index >= walletCount;
  // Pareto tail (alpha 1.16, the 80/20 shape): a few whales hold most of the notional.
  const equity = isVault ? 2_000_000 + rng() * 40_000_000 : Math.min(50_000_000, 300 * (1 - rng()) ** (-1 / 1.16));
  const hip3 = isVault ? false : rng() < HIP3_TRADER_SHARE;
  const pool = hip3 ? catalog.tradablePerps : catalog.nativeTradablePerps;
  const count = isVault ? 12 + Math.floor(rng() * 9) : Math.floor(rng() * (MAX_POSITIONS + 1));
  const instruments = sampleInstruments(rng, pool, Math.min(count, pool.length));
  const grossNotional = equity * (0.5 + rng() * 4);
  const shares = instruments.map(() => -Math.log(1 - rng()));
  const shareTotal = shares.reduce((sum, s) => sum + s, 0);

  const perps = instruments.map((instrument, j): PerpSlot => {
    const isolated = instrument.dexIndex > 0 || rng() < 0.25;
    const leverages = leveragesFor(isolated, instrument.maxLeverage);
    const cycleMs = Math.round(logUniform(rng, 2 * HOUR_MS, 7 * DAY_MS));
    const basePx = instrument.perp?.basePx ?? 1;
    const slotSeed = hash2(walletSeed, j + 1);
    return {
      instrument,
      size: roundSz((grossNotional * shares[j]) / shareTotal / basePx, instrument.szDecimals),
      leverage: pick(rng, leverages),
      isolated,
      cycleMs,
      phaseMs: Math.floor(rng() * cycleMs),
      longBias: 0.35 + rng() * 0.35,
      seed: slotSeed,
      // Drawn for vaults too (which trade without a front-end) so that the draws after it stay in step.
      builder: rng() < BUILDER_SHARE && !isVault ? pickBuilder(builders, { walletSeed, slotSeed }) : null,
      maker: rng() < 0.3,
      fundingCarry: (rng() - 0.3) * 0.02,
    };
  });

  let outcome: OutcomeSlot | null = null;
  if (!isVault && rng() < OUTCOME_TRADER_SHARE) {
    const cycleMs = Math.round(logUniform(rng, HOUR_MS, 3 * DAY_MS));
    outcome = {
      outcome: Math.floor(rng() * OUTCOMES.length),
      qty: Math.max(1, Math.round((equity * 0.05 * rng()) / 0.5)),
      cycleMs,
      phaseMs: Math.floor(rng() * cycleMs),
      yesBias: 0.3 + rng() * 0.4,
      seed: hash2(walletSeed, 0xface),
    };
  }

  const spot: SpotHolding[] = [];
  SPOT_TOKENS.forEach((token, tokenIndex) => {
    if (isVault || rng() >= token.holderShare) return;
    const value = tokenIndex === 0 ? equity * 0.3 * rng() : equity * 0.2 * -Math.log(1 - rng());
    const total = roundSz(value / token.basePx, Math.min(token.szDecimals, 6));
    const hold = rng() < 0.1 ? roundSz(total * 0.3, Math.min(token.szDecimals, 6)) : 0;
    const entryNtl = tokenIndex === 0 ? 0 : total * token.basePx * (0.6 + 0.8 * rng());
    spot.push({ token: tokenIndex, total, hold: Math.min(hold, total), entryNtl });
  });

  const skill = (rng() + rng() + rng() - 1.5) * 2;
  const turnover = logUniform(rng, 0.2, 20);
  const ageDays = 30 + rng() * 700;
  const displayName = isVault ? VAULT_NAMES[index - walletCount] : rng() < 0.03 ? `trader${(walletSeed >>> 12).toString(36)}` : null;
  return {
    index,
    isVault,
    equity,
    crossRatio: 0.3 + rng() * 0.9,
    freeCash: equity * rng() * 0.1,
    perps,
    outcome,
    spot,
    skill,
    turnover,
    ageDays,
    displayName,
  };
}

/** An address the exchange has never seen: no positions, no balances. */
export function emptyWallet(index: number): WalletProfile {
  return {
    index,
    isVault: false,
    equity: 0,
    crossRatio: 0,
    freeCash: 0,
    perps: [],
    outcome: null,
    spot: [],
    skill: 0,
    turnover: 0,
    ageDays: 0,
    displayName: null,
  };
}

export function cycleAt(slot: { cycleMs: number; phaseMs: number }, t: number): number {
  return Math.floor((t + slot.phaseMs) / slot.cycleMs);
}

export function cycleStart(slot: { cycleMs: number; phaseMs: number }, cycle: number): number {
  return cycle * slot.cycleMs - slot.phaseMs;
}

/** +1 long, -1 short during a cycle. */
export function perpSide(slot: PerpSlot, cycle: number): 1 | -1 {
  return unit(hash2(slot.seed, cycle)) < slot.longBias ? 1 : -1;
}

/** 0 (Yes) or 1 (No) held during a cycle. */
export function outcomeSide(slot: OutcomeSlot, cycle: number): 0 | 1 {
  return unit(hash2(slot.seed, cycle)) < slot.yesBias ? 0 : 1;
}
