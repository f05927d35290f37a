import { HIP3_DEXES, NATIVE_PERPS, OUTCOME_SIDE_NAMES, OUTCOMES, PerpDef, SPOT_TOKENS, UnderlyingDef } from './universe';
import { stringHash } from './prng';

export type InstrumentKind = 'perp' | 'spot' | 'outcome';

/** Anything with a price and a trade tape: a perp (native or HIP-3), a spot pair, or one side of an outcome. */
export interface Instrument {
  id: number;
  /** Wire name: `BTC`, `xyz:TSLA`, `PURR/USDC`, `@4`, `#10`. */
  coin: string;
  kind: InstrumentKind;
  /** 0 native, 1.. HIP-3 dexes in perpDexs order; -1 for spot and outcomes. */
  dexIndex: number;
  /** Position in its dex universe (perps), pair index (spot), encoding `10 * outcome + side` (outcomes). */
  assetIndex: number;
  szDecimals: number;
  /** Price rules of spot (8 - szDecimals decimals) rather than perps (6 - szDecimals). */
  spotPx: boolean;
  maxLeverage: number;
  popularity: number;
  /** Price process index; -1 for outcome sides, which follow their outcome's probability. */
  underlying: number;
  /** Tracking instruments trade at a small basis to the process they follow. */
  tracking: boolean;
  perp?: PerpDef;
  token?: number;
  outcome?: number;
  side?: number;
  seed: number;
}

export interface Catalog {
  instruments: Instrument[];
  underlyings: UnderlyingDef[];
  /** Index 0 is the native dex, then one entry per HIP-3 dex. */
  perpsByDex: Instrument[][];
  dexNames: string[];
  spotPairs: Instrument[];
  outcomeSides: Instrument[];
  byCoin: Map<string, Instrument>;
  /** Perps anyone may hold (listed): all dexes, and the native dex only. */
  tradablePerps: Instrument[];
  nativeTradablePerps: Instrument[];
  collateralTokens: number[];
}

/** The HIP-4 encoding shared by trade coins (`#enc`) and balance coins (`+enc`). */
export function outcomeEncoding(outcome: number, side: number): number {
  return outcome * 10 + side;
}

export function buildCatalog(seed: number): Catalog {
  const instruments: Instrument[] = [];
  const underlyings: UnderlyingDef[] = [];
  const underlyingIndex = new Map<string, number>();
  const underlyingFor = (key: string, basePx: number, vol: number, tracks?: string): { index: number; tracking: boolean } => {
    if (tracks !== undefined) {
      const tracked = underlyingIndex.get(tracks);
      if (tracked === undefined) throw new Error(`universe: ${key} tracks unknown ${tracks}`);
      return { index: tracked, tracking: true };
    }
    underlyings.push({ key, basePx, vol });
    underlyingIndex.set(key, underlyings.length - 1);
    return { index: underlyings.length - 1, tracking: false };
  };
  const add = (partial: Omit<Instrument, 'id' | 'seed'>): Instrument => {
    const instrument = { ...partial, id: instruments.length, seed: stringHash(`${seed}:${partial.coin}`) };
    instruments.push(instrument);
    return instrument;
  };

  const dexes = [{ name: '', perps: NATIVE_PERPS }, ...HIP3_DEXES];
  const perpsByDex = dexes.map((dex, dexIndex) =>
    dex.perps.map((perp, assetIndex) => {
      const { index, tracking } = underlyingFor(perp.name, perp.basePx, perp.vol, perp.tracks);
      return add({
        coin: perp.name,
        kind: 'perp',
        dexIndex,
        assetIndex,
        szDecimals: perp.szDecimals,
        spotPx: false,
        maxLeverage: perp.maxLeverage,
        popularity: perp.popularity,
        underlying: index,
        tracking,
        perp,
      });
    }),
  );
  const spotPairs = SPOT_TOKENS.slice(1).map((token, pairIndex) => {
    const { index, tracking } = underlyingFor(`spot:${token.name}`, token.basePx, token.vol, token.tracks);
    return add({
      coin: pairIndex === 0 ? `${token.name}/USDC` : `@${pairIndex}`,
      kind: 'spot',
      dexIndex: -1,
      assetIndex: pairIndex,
      szDecimals: token.szDecimals,
      spotPx: true,
      maxLeverage: 1,
      popularity: token.holderShare * 10,
      underlying: index,
      tracking,
      token: pairIndex + 1,
    });
  });
  const outcomeSides = OUTCOMES.flatMap((_, outcome) =>
    OUTCOME_SIDE_NAMES.map((__, side) =>
      add({
        coin: `#${outcomeEncoding(outcome, side)}`,
        kind: 'outcome',
        dexIndex: -1,
        assetIndex: outcomeEncoding(outcome, side),
        szDecimals: 0,
        spotPx: true,
        maxLeverage: 1,
        popularity: 1,
        underlying: -1,
        tracking: false,
        outcome,
        side,
      }),
    ),
  );
  const tokenIndex = (name: string): number => SPOT_TOKENS.findIndex((token) => token.name === name);
  return {
    instruments,
    underlyings,
    perpsByDex,
    dexNames: dexes.map((dex) => dex.name),
    spotPairs,
    outcomeSides,
    byCoin: new Map(instruments.map((instrument) => [instrument.coin, instrument])),
    tradablePerps: perpsByDex.flat().filter((instrument) => instrument.popularity > 0),
    nativeTradablePerps: perpsByDex[0].filter((instrument) => instrument.popularity > 0),
    collateralTokens: [tokenIndex('USDC'), ...HIP3_DEXES.map((dex) => tokenIndex(dex.collateral))],
  };
}
