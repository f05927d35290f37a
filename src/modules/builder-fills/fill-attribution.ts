import BigNumber from 'bignumber.js';
import { Decimal } from '../../common/decimal/decimal';
import { BuilderFill, Fill, SpotMeta } from '../../providers/hyperliquid/hyperliquid.types';

export type FillMarket = 'perp' | 'spot';
export type FillSource = 'daily_file' | 'user_fills';

/** A fill attributed to a builder we track, as builder_fills stores it. */
export interface AttributedFill {
  fillKey: string;
  builder: string;
  user: string;
  coin: string;
  market: FillMarket;
  side: 'B' | 'A';
  px: string;
  sz: string;
  /** px × sz in USD: the quote converted at its mid when it is not USDC; null when that mid is unknown. */
  volumeUsd: string | null;
  builderFee: string;
  crossed: boolean;
  selfMatched: boolean;
  txHash: string | null;
  time: number;
  source: FillSource;
}

/** A builder and the fee its orders carry, in tenths of a basis point: how a user's own fill is attributed. */
export interface TrackedBuilder {
  address: string;
  feeRatesTenthsBps: readonly number[];
}

/** Spot coins are pairs (`@107`, `PURR/USDC`); every other coin is a perp (`BTC`, `xyz:TSLA`). */
export function marketOf(coin: string): FillMarket {
  return coin.startsWith('@') || coin.includes('/') ? 'spot' : 'perp';
}

/** The quote token of each spot pair; perps settle in their dex's collateral stablecoin, taken at par. */
export function quoteTokens(meta: SpotMeta): Map<string, string> {
  const names = new Map(meta.tokens.map((token) => [token.index, token.name]));
  return new Map(meta.universe.map((pair) => [pair.name, names.get(pair.tokens[1]) ?? '']));
}

export function volumeUsd(px: string, sz: string, quoteUsd: string | undefined): string | null {
  return quoteUsd === undefined ? null : new Decimal(px).times(sz).times(quoteUsd).toFixed();
}

/** What every attributed fill takes from its source, whichever it is. */
type FillBasics = Pick<AttributedFill, 'fillKey' | 'builder' | 'user' | 'coin' | 'side' | 'px' | 'sz' | 'builderFee' | 'crossed' | 'time'>;

function attributed(fill: FillBasics, quoteUsd: string | undefined, source: Pick<AttributedFill, 'selfMatched' | 'txHash' | 'source'>): AttributedFill {
  // Spelled out rather than spread: this runs for every fill of a month's files.
  return {
    fillKey: fill.fillKey,
    builder: fill.builder,
    user: fill.user,
    coin: fill.coin,
    market: marketOf(fill.coin),
    side: fill.side,
    px: fill.px,
    sz: fill.sz,
    volumeUsd: volumeUsd(fill.px, fill.sz, quoteUsd),
    builderFee: fill.builderFee,
    crossed: fill.crossed,
    selfMatched: source.selfMatched,
    txHash: source.txHash,
    time: fill.time,
    source: source.source,
  };
}

/** A fill of a builder's daily file, which carries no hash: `txHash` comes from the user's own fills where one matches. */
export function fromDailyFile(fill: BuilderFill, quoteUsd: string | undefined, txHash: string | null = null): AttributedFill {
  return attributed(fill, quoteUsd, {
    selfMatched: fill.counterparty === fill.user,
    txHash,
    source: 'daily_file',
  });
}

/**
 * The builder of one of the user's own fills. userFills says what the builder was paid (`builderFee`) but not
 * who: the fee's rate, in tenths of a basis point of the notional, names the tracked builder whose orders
 * carry that rate. A rate no tracked builder charges, or one two of them share, names none: the day's file
 * attributes that fill once it is published.
 */
export function builderOfUserFill(fill: Pick<Fill, 'px' | 'sz' | 'builderFee'>, builders: readonly TrackedBuilder[]): string | undefined {
  if (fill.builderFee === null) return undefined;
  const notional = new Decimal(fill.px).times(fill.sz);
  if (!notional.gt(0)) return undefined;
  const rate = new Decimal(fill.builderFee).div(notional).times(100_000);
  // Fees are rounded to the fee token's precision: a rate within 2 % of a builder's is that builder's.
  const matches = builders.filter((builder) => builder.feeRatesTenthsBps.some((f) => rate.minus(f).abs().lte(new BigNumber(f).times(0.02))));
  return matches.length === 1 ? matches[0].address : undefined;
}

export function fromUserFill(fill: Fill & { fillKey: string }, user: string, builder: string, quoteUsd: string | undefined): AttributedFill {
  const { fillKey, coin, side, px, sz, crossed, time } = fill;
  return attributed({ fillKey, builder, user, coin, side, px, sz, builderFee: fill.builderFee ?? '0', crossed, time }, quoteUsd, {
    selfMatched: false,
    txHash: fill.hash,
    source: 'user_fills',
  });
}
