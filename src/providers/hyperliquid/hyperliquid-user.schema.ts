import {
  ClearinghouseState,
  CumFunding,
  Fill,
  FillLiquidation,
  LEADERBOARD_WINDOWS,
  LeaderboardRow,
  LeaderboardWindow,
  MarginSummary,
  PerpPosition,
  RecentTrade,
  SpotBalance,
  SpotClearinghouseState,
  WindowPerformance,
} from './hyperliquid.types';
import { Fields } from '../kit/schema-reader';
import { asAddress, asObject, asString, fixedLength, mapArray, shapeError } from './hyperliquid-reader';

/**
 * Boundary checks for per-user state, fills, trades and the stats-host documents. Tolerates the 2023
 * clearinghouseState (no cumFunding, maxLeverage, crossMaintenanceMarginUsed, time), integers sent as
 * numeric strings, and the 2023 fills (no tid, feeToken, builderFee, liquidation, twapId).
 */

const TRADE_SIDES = ['B', 'A'] as const;

/** One user on one dex. */
export function parseClearinghouseState(json: unknown, label = 'clearinghouseState'): ClearinghouseState {
  const state = asObject(json, label);
  return {
    assetPositions: state.array('assetPositions', (item, path) => parsePerpPosition(asObject(item, path).object('position'))),
    marginSummary: parseMarginSummary(state.object('marginSummary')),
    crossMarginSummary: mapOrNull(state.objectOrNull('crossMarginSummary'), parseMarginSummary),
    crossMaintenanceMarginUsed: state.decimalOrNull('crossMaintenanceMarginUsed'),
    withdrawable: state.decimal('withdrawable'),
    time: state.integerOrNull('time'),
  };
}

function parsePerpPosition(position: Fields): PerpPosition {
  const leverage = position.object('leverage');
  return {
    coin: position.string('coin'),
    szi: position.decimal('szi'),
    entryPx: position.decimal('entryPx'),
    positionValue: position.decimal('positionValue'),
    unrealizedPnl: position.decimal('unrealizedPnl'),
    returnOnEquity: position.decimal('returnOnEquity'),
    liquidationPx: position.decimalOrNull('liquidationPx'),
    marginUsed: position.decimal('marginUsed'),
    leverage: { type: leverage.oneOf('type', ['cross', 'isolated'] as const), value: leverage.integer('value'), rawUsd: leverage.decimalOrNull('rawUsd') },
    maxLeverage: position.integerOrNull('maxLeverage'),
    cumFunding: mapOrNull(position.objectOrNull('cumFunding'), parseCumFunding),
  };
}

function parseCumFunding(cum: Fields): CumFunding {
  return { allTime: cum.decimal('allTime'), sinceOpen: cum.decimal('sinceOpen'), sinceChange: cum.decimal('sinceChange') };
}

function parseMarginSummary(summary: Fields): MarginSummary {
  return {
    accountValue: summary.decimal('accountValue'),
    totalNtlPos: summary.decimal('totalNtlPos'),
    totalRawUsd: summary.decimal('totalRawUsd'),
    totalMarginUsed: summary.decimal('totalMarginUsed'),
  };
}

export function parseSpotClearinghouseState(json: unknown, label = 'spotClearinghouseState'): SpotClearinghouseState {
  return { balances: asObject(json, label).array('balances', parseSpotBalance) };
}

function parseSpotBalance(item: unknown, path: string): SpotBalance {
  const balance = asObject(item, path);
  return {
    coin: balance.string('coin'),
    token: balance.integerOrNull('token'),
    total: balance.decimal('total'),
    hold: balance.decimal('hold'),
    entryNtl: balance.decimalOrNull('entryNtl'),
  };
}

/** userFills / userFillsByTime. `fee` is kept as sent: it already includes `builderFee`. */
export function parseFills(json: unknown, label = 'userFillsByTime'): Fill[] {
  return mapArray(json, label, (item, path) => {
    const fill = asObject(item, path);
    return {
      coin: fill.string('coin'),
      px: fill.decimal('px'),
      sz: fill.decimal('sz'),
      side: fill.oneOf('side', TRADE_SIDES),
      time: fill.integer('time'),
      startPosition: fill.decimal('startPosition'),
      dir: fill.string('dir'),
      closedPnl: fill.decimal('closedPnl'),
      hash: fill.string('hash'),
      oid: fill.integer('oid'),
      crossed: fill.boolean('crossed'),
      fee: fill.decimal('fee'),
      feeToken: fill.stringOrNull('feeToken'),
      tid: fill.integerOrNull('tid'),
      builderFee: fill.decimalOrNull('builderFee'),
      liquidation: mapOrNull(fill.objectOrNull('liquidation'), parseLiquidation),
      twapId: fill.integerOrNull('twapId'),
    };
  });
}

function parseLiquidation(liquidation: Fields): FillLiquidation {
  return {
    liquidatedUser: liquidation.has('liquidatedUser') ? liquidation.address('liquidatedUser') : null,
    markPx: liquidation.decimal('markPx'),
    method: liquidation.string('method'),
  };
}

/** recentTrades (REST); the WebSocket `trades` channel's `data` has the same elements. */
export function parseRecentTrades(json: unknown, label = 'recentTrades'): RecentTrade[] {
  return mapArray(json, label, (item, path) => {
    const trade = asObject(item, path);
    const [buyer, seller] = fixedLength(trade.raw.users, trade.at('users'), 2);
    return {
      coin: trade.string('coin'),
      side: trade.oneOf('side', TRADE_SIDES),
      px: trade.decimal('px'),
      sz: trade.decimal('sz'),
      time: trade.integer('time'),
      hash: trade.string('hash'),
      tid: trade.integer('tid'),
      users: [asAddress(buyer, `${trade.at('users')}[0]`), asAddress(seller, `${trade.at('users')}[1]`)],
    };
  });
}

/** `GET <stats>/leaderboard`: `{leaderboardRows: [...]}`, one row per trader, windows as [name, perf] pairs. */
export function parseLeaderboard(json: unknown, label = 'leaderboard'): LeaderboardRow[] {
  return asObject(json, label).array('leaderboardRows', (item, path) => {
    const row = asObject(item, path);
    return {
      ethAddress: row.address('ethAddress'),
      accountValue: row.decimal('accountValue'),
      windowPerformances: parseWindows(row),
      displayName: row.stringOrNull('displayName'),
    };
  });
}

function parseWindows(row: Fields): Record<LeaderboardWindow, WindowPerformance> {
  const found = new Map<string, WindowPerformance>();
  row.array('windowPerformances', (item, path) => {
    const [name, perf] = fixedLength(item, path, 2);
    const window = asString(name, `${path}[0]`);
    const fields = asObject(perf, `${path}[1]`);
    // Windows this client does not know (a future "perpDay") are checked for shape only.
    found.set(window, { pnl: fields.decimal('pnl'), roi: fields.decimal('roi'), vlm: fields.decimal('vlm') });
  });
  const windows = {} as Record<LeaderboardWindow, WindowPerformance>;
  for (const window of LEADERBOARD_WINDOWS) {
    const perf = found.get(window);
    if (!perf) throw shapeError(row.at('windowPerformances'), `missing window "${window}"`);
    windows[window] = perf;
  }
  return windows;
}

/**
 * `GET <stats>/vaults`: an array of `{apr, pnls, summary: {name, vaultAddress, leader, tvl, isClosed,
 * relationship, createTimeMillis}}`. Only the lower-cased vault addresses are kept; a flat
 * `{vaultAddress}` element is accepted too.
 */
export function parseVaultAddresses(json: unknown, label = 'vaults'): string[] {
  const addresses = mapArray(json, label, (item, path) => {
    const vault = asObject(item, path);
    if (vault.has('summary')) return vault.object('summary').address('vaultAddress');
    return vault.address('vaultAddress');
  });
  return [...new Set(addresses)];
}

function mapOrNull<T>(fields: Fields | null, parse: (fields: Fields) => T): T | null {
  return fields === null ? null : parse(fields);
}
