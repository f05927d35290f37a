import { Catalog, Instrument } from './catalog';
import { OUTCOMES, UnderlyingDef } from './universe';
import { hash2, stringHash, unit, valueNoise } from './prng';
import { roundPx } from './tick-rules';

const MINUTE_MS = 60_000;
/** Noise octaves (period, log-amplitude at vol 1): per-step jitter up to multi-week trends, roughly a random walk. */
const OCTAVES: Array<[periodMs: number | 'step', amplitude: number]> = [
  ['step', 0.0012],
  [MINUTE_MS, 0.003],
  [15 * MINUTE_MS, 0.008],
  [4 * 60 * MINUTE_MS, 0.02],
  [2 * 24 * 60 * MINUTE_MS, 0.05],
  [20 * 24 * 60 * MINUTE_MS, 0.12],
];
const OUTCOME_LOGIT_VOL = 6;
const TRACKING_BASIS = 0.0008;
const BASE_FUNDING = 0.0000125;
const CACHED_STEPS = 4;

/**
 * Deterministic prices: each process is base × exp(sum of value-noise octaves) evaluated at the start of the
 * current price step, so any instant (now, 24 h ago, a cycle start) costs a few hashes and two polls one step
 * apart differ.
 */
export class PriceModel {
  private readonly underlyingSeeds: number[];
  private readonly stepCache = new Map<number, Float64Array>();
  private readonly processSeeds = new Map<string, number>();

  constructor(
    readonly catalog: Catalog,
    private readonly seed: number,
    readonly stepMs: number,
  ) {
    this.underlyingSeeds = catalog.underlyings.map((u) => stringHash(`${seed}:px:${u.key}`));
  }

  step(t: number): number {
    return Math.floor(t / this.stepMs);
  }

  /** Tick-rounded price of an instrument at time t (memoised for whole steps). */
  px(instrument: Instrument, t: number): number {
    return this.pricesAtStep(this.step(t))[instrument.id];
  }

  /** All instrument prices of one step; the last few steps are kept. */
  pricesAtStep(step: number): Float64Array {
    let prices = this.stepCache.get(step);
    if (prices) return prices;
    prices = new Float64Array(this.catalog.instruments.length);
    const t = step * this.stepMs;
    for (const instrument of this.catalog.instruments) prices[instrument.id] = this.computePx(instrument, t);
    this.stepCache.set(step, prices);
    if (this.stepCache.size > CACHED_STEPS) this.stepCache.delete(this.stepCache.keys().next().value as number);
    return prices;
  }

  /** Price at an arbitrary instant without touching the cache (entries of past cycles). */
  pxAt(instrument: Instrument, t: number): number {
    const cached = this.stepCache.get(this.step(t));
    return cached ? cached[instrument.id] : this.computePx(instrument, this.step(t) * this.stepMs);
  }

  /** Probability of the Yes side of an outcome, in [0.01, 0.99]. */
  outcomeYes(outcome: number, t: number): number {
    const logit = OUTCOMES[outcome].logit + OUTCOME_LOGIT_VOL * this.noise(stringHash(`${this.seed}:outcome:${outcome}`), t);
    return Math.min(0.99, Math.max(0.01, 1 / (1 + Math.exp(-logit))));
  }

  /** Hourly funding rate of a perp: the usual 0.00125 % plus a slow premium term. */
  funding(instrument: Instrument, t: number): number {
    const tq = this.step(t) * this.stepMs;
    return BASE_FUNDING + 0.00004 * valueNoise(instrument.seed ^ 0xf00d, tq / (60 * MINUTE_MS));
  }

  /** Small instrument-specific jitter (oracle vs mark, impact prices) in [-1, 1]. */
  jitter(instrument: Instrument, t: number, salt: number): number {
    return unit(hash2(instrument.seed ^ salt, this.step(t))) * 2 - 1;
  }

  /**
   * Unrounded price of a named process at time t. An underlying's own key, base and vol give exactly the path its
   * instruments follow, which is how other protocols quote the same asset without joining the catalog.
   */
  processPx(process: UnderlyingDef, t: number): number {
    let seed = this.processSeeds.get(process.key);
    if (seed === undefined) {
      seed = stringHash(`${this.seed}:px:${process.key}`);
      this.processSeeds.set(process.key, seed);
    }
    return process.basePx * Math.exp(process.vol * this.noise(seed, t));
  }

  private computePx(instrument: Instrument, tq: number): number {
    if (instrument.kind === 'outcome') {
      const yes = roundPx(this.outcomeYes(instrument.outcome ?? 0, tq), 0, true);
      return instrument.side === 0 ? yes : roundPx(1 - yes, 0, true);
    }
    const underlying = this.catalog.underlyings[instrument.underlying];
    let px = underlying.basePx * Math.exp(underlying.vol * this.noise(this.underlyingSeeds[instrument.underlying], tq));
    if (instrument.tracking) px *= 1 + TRACKING_BASIS * valueNoise(instrument.seed, tq / MINUTE_MS);
    return roundPx(px, instrument.szDecimals, instrument.spotPx);
  }

  private noise(seed: number, t: number): number {
    const tq = this.step(t) * this.stepMs;
    let sum = 0;
    for (let o = 0; o < OCTAVES.length; o++) {
      const [period, amplitude] = OCTAVES[o];
      const periodMs = period === 'step' ? this.stepMs : period;
      sum += amplitude * valueNoise(seed + o * 0x1000193, tq / periodMs);
    }
    return sum;
  }
}
