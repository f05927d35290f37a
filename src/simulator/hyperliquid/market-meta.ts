import { Catalog, Instrument } from '../world/catalog';
import { PriceModel } from '../world/price-model';
import { fmt, fmtPx } from './fmt';
import { hash2, unit, valueNoise } from '../world/prng';
import { HIP3_DEXES, HIP3_MARGIN_TABLES, NATIVE_MARGIN_TABLES, OUTCOME_SIDE_NAMES, OUTCOMES, SPOT_TOKENS } from '../world/universe';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
const GROWTH_MODE_CHANGED = '2025-11-23T17:37:10.033211662';

/** Read-only listings and asset contexts, computed from the catalog, the price model and the precomputed totals. */
export class MarketMeta {
  constructor(
    private readonly catalog: Catalog,
    private readonly prices: PriceModel,
    /** Sum of |szi| per instrument id (perps) and of balances per token index (spot). */
    private readonly openInterest: Float64Array,
    private readonly spotHeld: Float64Array,
  ) {}

  meta(dexIndex: number): object {
    const universe = this.catalog.perpsByDex[dexIndex].map((instrument) => {
      const perp = instrument.perp!;
      const entry: Record<string, unknown> = {
        szDecimals: perp.szDecimals,
        name: perp.name,
        maxLeverage: perp.maxLeverage,
        marginTableId: perp.marginTableId,
      };
      if (dexIndex > 0)
        Object.assign(entry, { onlyIsolated: true, marginMode: perp.marginMode, growthMode: 'enabled', lastGrowthModeChangeTime: GROWTH_MODE_CHANGED });
      if (perp.isDelisted) entry.isDelisted = true;
      return entry;
    });
    return {
      universe,
      marginTables: dexIndex === 0 ? NATIVE_MARGIN_TABLES : HIP3_MARGIN_TABLES,
      collateralToken: this.catalog.collateralTokens[dexIndex],
    };
  }

  metaAndAssetCtxs(dexIndex: number, t: number): object {
    return [this.meta(dexIndex), this.catalog.perpsByDex[dexIndex].map((instrument) => this.perpCtx(instrument, t))];
  }

  spotMeta(): object {
    return {
      universe: this.catalog.spotPairs.map((pair) => ({
        tokens: [pair.token, 0],
        name: pair.coin,
        index: pair.assetIndex,
        isCanonical: pair.assetIndex === 0,
      })),
      tokens: SPOT_TOKENS.map((token, index) => ({
        name: token.name,
        szDecimals: token.szDecimals,
        weiDecimals: token.weiDecimals,
        index,
        tokenId: token.tokenId,
        isCanonical: token.isCanonical,
        evmContract: token.evmContract,
        fullName: token.fullName,
        deployerTradingFeeShare: token.deployerTradingFeeShare,
      })),
    };
  }

  spotMetaAndAssetCtxs(t: number): object {
    return [this.spotMeta(), this.catalog.spotPairs.map((pair) => this.spotCtx(pair, t))];
  }

  perpDexs(): object {
    return [
      null,
      ...HIP3_DEXES.map((dex) => ({
        name: dex.name,
        fullName: dex.fullName,
        deployer: dex.deployer,
        oracleUpdater: dex.oracleUpdater,
        feeRecipient: dex.feeRecipient,
        assetToStreamingOiCap: dex.perps.map((perp) => [perp.name, fmt(perp.marginMode === 'noCross' ? 50_000_000 : 25_000_000, 1)]),
        subDeployers: [['setOracle', [dex.oracleUpdater ?? dex.deployer]]],
        deployerFeeScale: '1.0',
        lastDeployerFeeScaleChangeTime: '1970-01-01T00:00:00',
        assetToFundingMultiplier: [],
      })),
    ];
  }

  outcomeMeta(): object {
    return {
      outcomes: OUTCOMES.map((outcome, index) => ({
        outcome: index,
        name: outcome.name,
        description: outcome.description,
        sideSpecs: OUTCOME_SIDE_NAMES.map((name) => ({ name })),
      })),
      questions: [],
    };
  }

  /** Native mids hold listed perps, spot pairs and outcome sides; a HIP-3 dex's mids hold its `dex:SYM` perps. Keys sorted. */
  allMids(dexIndex: number, t: number): Record<string, string> {
    const instruments: Instrument[] =
      dexIndex === 0 ? [...this.catalog.perpsByDex[0], ...this.catalog.spotPairs, ...this.catalog.outcomeSides] : this.catalog.perpsByDex[dexIndex];
    const step = this.prices.pricesAtStep(this.prices.step(t));
    const entries = instruments
      .filter((instrument) => !instrument.perp?.isDelisted)
      .map((instrument) => [instrument.coin, fmtPx(step[instrument.id], instrument.szDecimals, instrument.spotPx)] as const)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return Object.fromEntries(entries);
  }

  private perpCtx(instrument: Instrument, t: number): object {
    const { szDecimals } = instrument;
    const px = (value: number) => fmtPx(value, szDecimals, false);
    const mark = this.prices.pricesAtStep(this.prices.step(t))[instrument.id];
    const prevDay = this.prices.pxAt(instrument, t - DAY_MS);
    if (instrument.perp?.isDelisted) {
      return {
        funding: '0.0',
        openInterest: '0.0',
        prevDayPx: px(prevDay),
        dayNtlVlm: '0.0',
        premium: null,
        oraclePx: px(mark * 0.998),
        markPx: px(mark),
        midPx: null,
        impactPxs: null,
        dayBaseVlm: '0.0',
      };
    }
    const oracle = mark * (1 + 0.0004 * this.prices.jitter(instrument, t, 0x0c));
    const mid = mark * (1 + 0.0001 * this.prices.jitter(instrument, t, 0x3d));
    const openInterest = this.openInterest[instrument.id];
    const dayNtlVlm = openInterest * mark * this.turnover(instrument, t);
    return {
      funding: fmt(this.prices.funding(instrument, t), 10),
      openInterest: fmt(openInterest, szDecimals),
      prevDayPx: px(prevDay),
      dayNtlVlm: fmt(dayNtlVlm, 4),
      premium: fmt((mark - oracle) / oracle, 10),
      oraclePx: px(oracle),
      markPx: px(mark),
      midPx: px(mid),
      impactPxs: [px(mid * 0.9998), px(mid * 1.0002)],
      dayBaseVlm: fmt(mark > 0 ? dayNtlVlm / mark : 0, szDecimals),
    };
  }

  private spotCtx(pair: Instrument, t: number): object {
    const token = SPOT_TOKENS[pair.token!];
    const px = (value: number) => fmtPx(value, pair.szDecimals, true);
    const mark = this.prices.pricesAtStep(this.prices.step(t))[pair.id];
    const held = this.spotHeld[pair.token!];
    const circulating = Math.max(token.circulatingSupply, held * 2);
    const dayNtlVlm = held * mark * this.turnover(pair, t) * 0.2;
    return {
      prevDayPx: px(this.prices.pxAt(pair, t - DAY_MS)),
      dayNtlVlm: fmt(dayNtlVlm, 6),
      markPx: px(mark),
      midPx: px(mark * (1 + 0.0002 * this.prices.jitter(pair, t, 0x3d))),
      circulatingSupply: fmt(circulating, 6),
      coin: pair.coin,
      totalSupply: fmt(Math.max(token.totalSupply, circulating), 6),
      dayBaseVlm: fmt(mark > 0 ? dayNtlVlm / mark : 0, Math.min(pair.szDecimals, 6)),
    };
  }

  /** Daily volume as a multiple of open interest, drifting by the hour. */
  private turnover(instrument: Instrument, t: number): number {
    const base = 1 + 3 * unit(hash2(instrument.seed, 0x7a));
    const tq = this.prices.step(t) * this.prices.stepMs;
    return base * (1 + 0.3 * valueNoise(instrument.seed ^ 0x7b, tq / HOUR_MS));
  }
}
