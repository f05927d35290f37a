import {
  AllMids,
  Outcome,
  OutcomeMeta,
  PerpAsset,
  PerpAssetCtx,
  PerpDex,
  PerpMeta,
  PerpMetaAndAssetCtxs,
  SpotAssetCtx,
  SpotMeta,
  SpotMetaAndAssetCtxs,
  SpotPair,
  SpotToken,
} from './hyperliquid.types';
import { Fields } from '../kit/schema-reader';
import { asArray, asDecimal, asInteger, asObject, expected, fixedLength, mapArray, shapeError } from './hyperliquid-reader';

/**
 * Boundary checks for the market-data info requests. Each parser returns typed data or throws
 * UpstreamError kind 'shape' naming the bad path; unknown extra fields are ignored, fields that older
 * schemas lack become null (or false for flags). User, trade and stats documents: hyperliquid-user.schema.ts.
 */

export function parseAllMids(json: unknown, label = 'allMids'): AllMids {
  const fields = asObject(json, label);
  // fromEntries defines own properties, so even a "__proto__" coin stays a plain key.
  return Object.fromEntries(Object.entries(fields.raw).map(([coin, px]) => [coin, asDecimal(px, fields.at(coin))]));
}

export function parseMeta(json: unknown, label = 'meta'): PerpMeta {
  const meta = asObject(json, label);
  return { universe: meta.array('universe', parsePerpAsset), collateralToken: meta.integerOrNull('collateralToken') };
}

function parsePerpAsset(item: unknown, path: string): PerpAsset {
  const asset = asObject(item, path);
  return {
    name: asset.string('name'),
    szDecimals: asset.integer('szDecimals'),
    maxLeverage: asset.integer('maxLeverage'),
    onlyIsolated: asset.boolean('onlyIsolated', false),
    isDelisted: asset.boolean('isDelisted', false),
    marginTableId: asset.integerOrNull('marginTableId'),
    marginMode: asset.stringOrNull('marginMode'),
  };
}

/** `[meta, ctxs]`, zipped by position: the perp ctx list carries no coin and follows the universe order. */
export function parseMetaAndAssetCtxs(json: unknown, label = 'metaAndAssetCtxs'): PerpMetaAndAssetCtxs {
  const [rawMeta, rawCtxs] = pair(json, label);
  const meta = parseMeta(rawMeta, `${label}[0]`);
  const wire = asArray(rawCtxs, `${label}[1]`);
  if (wire.length !== meta.universe.length) {
    throw shapeError(`${label}[1]`, `expected ${meta.universe.length} asset contexts (one per universe entry), got ${wire.length}`);
  }
  const ctxs = wire.map((item, i) => parsePerpAssetCtx(item, `${label}[1][${i}]`, meta.universe[i].name));
  return { meta, ctxs };
}

function parsePerpAssetCtx(item: unknown, path: string, coin: string): PerpAssetCtx {
  const ctx = asObject(item, path);
  return {
    coin,
    markPx: ctx.decimal('markPx'),
    midPx: ctx.decimalOrNull('midPx'),
    oraclePx: ctx.decimal('oraclePx'),
    openInterest: ctx.decimal('openInterest'),
    prevDayPx: ctx.decimal('prevDayPx'),
    dayNtlVlm: ctx.decimal('dayNtlVlm'),
    dayBaseVlm: ctx.decimalOrNull('dayBaseVlm'),
    funding: ctx.decimal('funding'),
    premium: ctx.decimalOrNull('premium'),
    impactPxs: impactPxs(ctx),
  };
}

function impactPxs(ctx: Fields): [string, string] | null {
  if (!ctx.has('impactPxs')) return null;
  const [bid, ask] = fixedLength(ctx.raw.impactPxs, ctx.at('impactPxs'), 2);
  return [asDecimal(bid, `${ctx.at('impactPxs')}[0]`), asDecimal(ask, `${ctx.at('impactPxs')}[1]`)];
}

export function parseSpotMeta(json: unknown, label = 'spotMeta'): SpotMeta {
  const meta = asObject(json, label);
  return { tokens: meta.array('tokens', parseSpotToken), universe: meta.array('universe', parseSpotPair) };
}

function parseSpotToken(item: unknown, path: string): SpotToken {
  const token = asObject(item, path);
  return {
    name: token.string('name'),
    index: token.integer('index'),
    szDecimals: token.integer('szDecimals'),
    weiDecimals: token.integer('weiDecimals'),
    tokenId: token.string('tokenId'),
    isCanonical: token.boolean('isCanonical', false),
    fullName: token.stringOrNull('fullName'),
  };
}

function parseSpotPair(item: unknown, path: string): SpotPair {
  const spotPair = asObject(item, path);
  const [base, quote] = fixedLength(spotPair.raw.tokens, spotPair.at('tokens'), 2);
  return {
    name: spotPair.string('name'),
    index: spotPair.integer('index'),
    tokens: [asInteger(base, `${spotPair.at('tokens')}[0]`), asInteger(quote, `${spotPair.at('tokens')}[1]`)],
    isCanonical: spotPair.boolean('isCanonical', false),
  };
}

/**
 * `[spotMeta, ctxs]`, zipped by coin name: the wire ctx list is longer than the universe (it keeps ctxs
 * of pairs the universe omits) and so is not aligned by position. Every ctx is still checked.
 */
export function parseSpotMetaAndAssetCtxs(json: unknown, label = 'spotMetaAndAssetCtxs'): SpotMetaAndAssetCtxs {
  const [rawMeta, rawCtxs] = pair(json, label);
  const meta = parseSpotMeta(rawMeta, `${label}[0]`);
  const byCoin = new Map(mapArray(rawCtxs, `${label}[1]`, parseSpotAssetCtx).map((ctx) => [ctx.coin, ctx]));
  const ctxs = meta.universe.flatMap((spotPair) => byCoin.get(spotPair.name) ?? []);
  return { meta, ctxs };
}

function parseSpotAssetCtx(item: unknown, path: string): SpotAssetCtx {
  const ctx = asObject(item, path);
  return {
    coin: ctx.string('coin'),
    markPx: ctx.decimal('markPx'),
    midPx: ctx.decimalOrNull('midPx'),
    prevDayPx: ctx.decimal('prevDayPx'),
    dayNtlVlm: ctx.decimal('dayNtlVlm'),
    dayBaseVlm: ctx.decimalOrNull('dayBaseVlm'),
    circulatingSupply: ctx.decimal('circulatingSupply'),
    totalSupply: ctx.decimal('totalSupply'),
  };
}

/** The builder-deployed dexes; the leading null (the native dex) is skipped. */
export function parsePerpDexs(json: unknown, label = 'perpDexs'): PerpDex[] {
  return asArray(json, label).flatMap((item, i) => {
    if (item === null) return [];
    const dex = asObject(item, `${label}[${i}]`);
    return [{ name: dex.string('name'), fullName: dex.string('fullName'), deployer: dex.string('deployer') }];
  });
}

export function parseOutcomeMeta(json: unknown, label = 'outcomeMeta'): OutcomeMeta {
  return { outcomes: asObject(json, label).array('outcomes', parseOutcome) };
}

function parseOutcome(item: unknown, path: string): Outcome {
  const outcome = asObject(item, path);
  const quoteToken = outcome.raw.quoteToken;
  if (quoteToken !== undefined && quoteToken !== null && typeof quoteToken !== 'string' && typeof quoteToken !== 'number') {
    throw expected(outcome.at('quoteToken'), 'token index or name', quoteToken);
  }
  return {
    outcome: outcome.integer('outcome'),
    name: outcome.string('name'),
    description: outcome.stringOrNull('description') ?? '',
    sides: outcome.array('sideSpecs', (side, sidePath) => asObject(side, sidePath).string('name')),
    quoteToken: quoteToken === undefined || quoteToken === null ? null : String(quoteToken),
  };
}

function pair(json: unknown, label: string): [unknown, unknown] {
  const [first, second] = fixedLength(json, label, 2, true);
  return [first, second];
}
