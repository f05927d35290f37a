import { PriceModel } from '../world/price-model';
import { HIP3_CASH_SHARE } from './account-state';
import { perpEntry } from '../world/cycle-entries';
import { fmt } from './fmt';
import { hash2, valueNoise } from '../world/prng';
import { cycleAt, perpSide, WalletProfile } from '../world/wallet-model';

/** The stats host publishes a new leaderboard about once a minute; values move between publications. */
export const LEADERBOARD_REFRESH_MS = 60_000;
const DAY_MS = 86_400_000;
const WINDOWS: Array<[name: string, days: number | 'age']> = [
  ['day', 1],
  ['week', 7],
  ['month', 30],
  ['allTime', 'age'],
];
const DAILY_EDGE = 0.004;
const DAILY_NOISE = 0.03;

/** Wallets valued between two yields to the event loop while a large leaderboard is built. */
const BUILD_CHUNK = 4000;

/**
 * Account value summed over every dex (native + HIP-3) at the marks of time t: the same arithmetic as
 * perpAccount() (cash + cross deposit + isolated margins + uPnL) without building the position views.
 */
export function totalAccountValue(prices: PriceModel, wallet: WalletProfile, marks: Float64Array, t: number): number {
  if (wallet.perps.length === 0) return 0;
  let value = wallet.freeCash;
  let hip3Dexes = 0;
  for (const slot of wallet.perps) {
    const cycle = cycleAt(slot, t);
    const entry = perpEntry(prices, slot, cycle);
    value += perpSide(slot, cycle) * slot.size * (marks[slot.instrument.id] - entry);
    value += slot.isolated ? (slot.size * entry) / slot.leverage : slot.size * entry * wallet.crossRatio;
    if (slot.instrument.dexIndex > 0) hip3Dexes |= 1 << slot.instrument.dexIndex;
  }
  for (; hip3Dexes; hip3Dexes &= hip3Dexes - 1) value += wallet.freeCash * HIP3_CASH_SHARE;
  return value;
}

export interface LeaderboardSource {
  prices: PriceModel;
  addresses: string[];
  wallet(index: number): WalletProfile;
}

/** `{"leaderboardRows":[...]}` for every account with value > 0, built in chunks so the server keeps answering. */
export async function buildLeaderboard(source: LeaderboardSource, at: number): Promise<Buffer> {
  const marks = source.prices.pricesAtStep(source.prices.step(at));
  const rows: string[] = [];
  for (let i = 0; i < source.addresses.length; i++) {
    if (i > 0 && i % BUILD_CHUNK === 0) await new Promise((resolve) => setImmediate(resolve));
    const wallet = source.wallet(i);
    const accountValue = totalAccountValue(source.prices, wallet, marks, at);
    if (accountValue > 0) rows.push(leaderboardRow(source.addresses[i], wallet, accountValue, at));
  }
  return Buffer.from(`{"leaderboardRows":[${rows.join(',')}]}`);
}

/**
 * One leaderboard row as the stats host writes it. PnL over a window is the wallet's edge times the window
 * plus noise that drifts over a quarter of the window, so day figures move faster than allTime ones.
 */
export function leaderboardRow(address: string, wallet: WalletProfile, accountValue: number, t: number): string {
  const performances = WINDOWS.map(([name, span], w) => {
    const days = span === 'age' ? wallet.ageDays : span;
    const noise = valueNoise(hash2(wallet.index, 0x1b + w), t / ((days * DAY_MS) / 4));
    const pnl = accountValue * (wallet.skill * DAILY_EDGE * Math.min(days, 60) + DAILY_NOISE * Math.sqrt(days) * noise);
    const roi = pnl / Math.max(accountValue - pnl, accountValue * 0.05);
    const vlm = accountValue * wallet.turnover * days;
    return `["${name}",{"pnl":"${fmt(pnl, 6)}","roi":"${fmt(roi, 10)}","vlm":"${fmt(vlm, 2)}"}]`;
  });
  const displayName = wallet.displayName === null ? 'null' : JSON.stringify(wallet.displayName);
  return `{"ethAddress":"${address}","accountValue":"${fmt(accountValue, 6)}","windowPerformances":[${performances.join(',')}],"prize":0,"displayName":${displayName}}`;
}

export interface VaultSummaryInput {
  name: string;
  address: string;
  leader: string;
  tvl: number;
  createTimeMillis: number;
  apr: number;
}

/** `GET /Mainnet/vaults`: summaries plus pnl series per window (day, week, month, allTime). */
export function vaultsBody(vaults: VaultSummaryInput[]): object[] {
  return vaults.map((vault) => ({
    summary: {
      name: vault.name,
      vaultAddress: vault.address,
      leader: vault.leader,
      tvl: fmt(vault.tvl, 6),
      isClosed: false,
      relationship: { type: 'normal' },
      createTimeMillis: vault.createTimeMillis,
    },
    apr: vault.apr,
    pnls: WINDOWS.map(([name], w) => [name, [0, 1, 2, 3].map((k) => fmt(vault.tvl * vault.apr * 0.01 * k * (w + 1), 6))]),
  }));
}
