/**
 * What the Hyperliquid client hands to the jobs: checked and normalised. Money, prices and sizes stay
 * decimal strings exactly as sent; counts, ids, indexes and times (epoch ms) are numbers; a field an
 * older schema lacks is null rather than missing.
 */

/** Coin -> mid price. Keys are perp symbols, `@N` spot pairs, `PURR/USDC`, `dex:SYMBOL` and `#N` outcome sides. */
export type AllMids = Record<string, string>;

export interface PerpAsset {
  name: string;
  szDecimals: number;
  maxLeverage: number;
  onlyIsolated: boolean;
  isDelisted: boolean;
  marginTableId: number | null;
  marginMode: string | null;
}

export interface PerpMeta {
  universe: PerpAsset[];
  /** Spot token index of the collateral (0 = USDC); null on older responses. */
  collateralToken: number | null;
}

/** One asset's live context; `coin` is taken from the universe entry at the same index. */
export interface PerpAssetCtx {
  coin: string;
  markPx: string;
  midPx: string | null;
  oraclePx: string;
  openInterest: string;
  prevDayPx: string;
  dayNtlVlm: string;
  dayBaseVlm: string | null;
  funding: string;
  premium: string | null;
  impactPxs: [string, string] | null;
}

export interface PerpMetaAndAssetCtxs {
  meta: PerpMeta;
  /** ctxs[i] belongs to meta.universe[i]. */
  ctxs: PerpAssetCtx[];
}

export interface SpotToken {
  name: string;
  index: number;
  szDecimals: number;
  weiDecimals: number;
  tokenId: string;
  isCanonical: boolean;
  fullName: string | null;
}

export interface SpotPair {
  /** `PURR/USDC` or `@N`, the coin used by mids, trades and fills. */
  name: string;
  index: number;
  /** [base, quote] token indexes. */
  tokens: [number, number];
  isCanonical: boolean;
}

export interface SpotMeta {
  tokens: SpotToken[];
  universe: SpotPair[];
}

export interface SpotAssetCtx {
  coin: string;
  markPx: string;
  midPx: string | null;
  prevDayPx: string;
  dayNtlVlm: string;
  dayBaseVlm: string | null;
  circulatingSupply: string;
  totalSupply: string;
}

export interface SpotMetaAndAssetCtxs {
  meta: SpotMeta;
  /**
   * In universe order, matched by coin name: the wire list is not aligned with the universe by position
   * (it also carries ctxs of pairs the universe omits, which are dropped here).
   */
  ctxs: SpotAssetCtx[];
}

/** A builder-deployed (HIP-3) perp dex; the native dex (the wire's leading null) is not listed. */
export interface PerpDex {
  name: string;
  fullName: string;
  deployer: string;
}

export interface CumFunding {
  allTime: string;
  sinceOpen: string;
  sinceChange: string;
}

export interface PerpPosition {
  /** `BTC` on the native dex, `dex:SYMBOL` on a HIP-3 dex. */
  coin: string;
  /** Signed size: negative is short. */
  szi: string;
  entryPx: string;
  positionValue: string;
  unrealizedPnl: string;
  returnOnEquity: string;
  liquidationPx: string | null;
  marginUsed: string;
  leverage: { type: 'cross' | 'isolated'; value: number; rawUsd: string | null };
  maxLeverage: number | null;
  cumFunding: CumFunding | null;
}

export interface MarginSummary {
  accountValue: string;
  totalNtlPos: string;
  totalRawUsd: string;
  totalMarginUsed: string;
}

/** One user's perp account on one dex (each HIP-3 dex margins separately). */
export interface ClearinghouseState {
  assetPositions: PerpPosition[];
  marginSummary: MarginSummary;
  crossMarginSummary: MarginSummary | null;
  crossMaintenanceMarginUsed: string | null;
  withdrawable: string;
  time: number | null;
}

export interface SpotBalance {
  /** Token name, or `+N` for a HIP-4 outcome side token. */
  coin: string;
  /** Token index; null when the upstream omits it (outcome side tokens). */
  token: number | null;
  total: string;
  hold: string;
  entryNtl: string | null;
}

export interface SpotClearinghouseState {
  balances: SpotBalance[];
}

export type TradeSide = 'B' | 'A';

/** Present on a fill that was part of a liquidation. */
export interface FillLiquidation {
  /** Lower-cased; null when the upstream leaves it out. */
  liquidatedUser: string | null;
  markPx: string;
  /** 'market' or 'backstop', as sent. */
  method: string;
}

export interface Fill {
  coin: string;
  px: string;
  sz: string;
  side: TradeSide;
  time: number;
  startPosition: string;
  dir: string;
  closedPnl: string;
  hash: string;
  oid: number;
  crossed: boolean;
  /** Everything the user paid on this fill, the builder's share included: never add builderFee to it. */
  fee: string;
  feeToken: string | null;
  tid: number | null;
  /** The builder's share of `fee`; the upstream omits it when zero (and before 2025), read as null. */
  builderFee: string | null;
  liquidation: FillLiquidation | null;
  twapId: number | null;
}

/**
 * One row of a builder's daily fills file (`<stats>/builder_fills/<builder>/<YYYYMMDD>.csv.lz4`): a fill of
 * an order that carried that builder's code. A TWAP slice is never listed (TWAP orders carry no builder code).
 */
export interface BuilderFill {
  /** The builder whose file lists the fill, lower-cased. */
  builder: string;
  /** Identity shared with the user's own fills (userFills) and across downloads of the file: see withFillKeys. */
  fillKey: string;
  /** Epoch ms. The files give whole seconds (ISO-8601), so several fills of one order share a time. */
  time: number;
  /** Lower-cased. */
  user: string;
  coin: string;
  /** 'B' for the file's `Bid`, 'A' for `Ask`: the user's side. */
  side: TradeSide;
  px: string;
  sz: string;
  /** True when the user took liquidity. */
  crossed: boolean;
  /** As sent ('Ioc', 'Alo', 'Gtc', 'FrontendMarket'); null when empty. */
  tif: string | null;
  /** The other side of the trade, lower-cased; equal to `user` for a self-matched fill; null when empty. */
  counterparty: string | null;
  closedPnl: string;
  /** Null when the file says 0 or nothing (not a TWAP slice). */
  twapId: number | null;
  /** What the user paid the builder on this fill (quote or collateral token); may be '0'. */
  builderFee: string;
  /** Newer files only ('Na' for an ordinary fill); null when the column or the value is missing. */
  specialTradeType: string | null;
  /** Newer files only; null when the column or the value is missing. */
  isTrigger: boolean | null;
}

export interface RecentTrade {
  coin: string;
  side: TradeSide;
  px: string;
  sz: string;
  time: number;
  hash: string;
  tid: number;
  /** [buyer, seller], lower-cased: how the jobs discover addresses. */
  users: [string, string];
}

export interface Outcome {
  outcome: number;
  name: string;
  description: string;
  /** Side names in side order (`['Yes', 'No']`); side s trades as `outcomeCoin(outcome, s)`. */
  sides: string[];
  /** Quote token as sent (newer responses only), stringified; null when absent. */
  quoteToken: string | null;
}

export interface OutcomeMeta {
  outcomes: Outcome[];
}

export interface WindowPerformance {
  pnl: string;
  roi: string;
  vlm: string;
}

export type LeaderboardWindow = 'day' | 'week' | 'month' | 'allTime';
export const LEADERBOARD_WINDOWS: readonly LeaderboardWindow[] = ['day', 'week', 'month', 'allTime'];

export interface LeaderboardRow {
  /** Lower-cased. */
  ethAddress: string;
  accountValue: string;
  windowPerformances: Record<LeaderboardWindow, WindowPerformance>;
  displayName: string | null;
}
