import { compressFrameSync } from 'lz4-napi';
import { hash2, unit } from '../world/prng';
import { SimWorld } from '../world/sim-world';
import { fillPx, FillRecord, walletBuilderFills } from './fills';
import { fmt } from './fmt';

const DAY_MS = 86_400_000;
/** The columns the stats host writes today (the documented twelve plus special_trade_type and is_trigger). */
export const BUILDER_FILLS_HEADER = 'time,user,coin,side,px,sz,crossed,special_trade_type,tif,is_trigger,counterparty,closed_pnl,twap_id,builder_fee';
/** Fills matched against another order of the same user: rare, and what a points program must skip. */
const SELF_MATCH_SHARE = 0.01;
const FILE_DAY = /^(\d{4})(\d{2})(\d{2})$/;

/** The start (UTC) of the day a `YYYYMMDD` file name covers, or null when it names no calendar day. */
export function fileDayStart(day: string): number | null {
  const match = FILE_DAY.exec(day);
  if (!match) return null;
  const [year, month, date] = match.slice(1).map(Number);
  const start = Date.UTC(year, month - 1, date);
  const back = new Date(start);
  // Date.UTC rolls 20250231 over into March; a real file name never does.
  return back.getUTCFullYear() === year && back.getUTCMonth() === month - 1 && back.getUTCDate() === date ? start : null;
}

/** One CSV row; px, sz, closed_pnl and builder_fee are the strings the user's fills carry. */
function row(world: SimWorld, userIndex: number, fill: FillRecord): string {
  const user = world.addresses[userIndex];
  const h = hash2(world.seed ^ 0xc0fe, fill.tid);
  let counterparty = user;
  if (unit(h) >= SELF_MATCH_SHARE) {
    const other = hash2(h, 1) % world.walletCount;
    counterparty = world.addresses[other === userIndex ? (other + 1) % world.walletCount : other];
  }
  const tif = fill.crossed ? (unit(hash2(h, 2)) < 0.8 ? 'Ioc' : 'Gtc') : unit(hash2(h, 2)) < 0.6 ? 'Alo' : 'Gtc';
  // As the real files: whole-second ISO times, Bid/Ask, twap_id 0 (TWAP slices carry no builder code, so none is listed).
  const time = `${new Date(fill.time).toISOString().slice(0, 19)}Z`;
  const side = fill.side === 'B' ? 'Bid' : 'Ask';
  return `${time},${user},${fill.coin},${side},${fillPx(fill)},${fmt(fill.sz, fill.szDecimals)},${fill.crossed},Na,${tif},false,${counterparty},${fmt(fill.closedPnl, 6)},0,${fmt(fill.builderFee ?? 0, 6)}`;
}

export interface BuilderDay {
  world: SimWorld;
  /** Lower-case, as the file paths name it. */
  builder: string;
  /** The UTC day's first millisecond. */
  dayStart: number;
}

/**
 * The CSV of a builder's fills on the UTC day starting at dayStart, oldest first: every fill that paid the
 * builder, as its user's `userFills` report it. Null when the builder is unknown or had no such fill, as the
 * stats host then has no file.
 */
export function builderFillsCsv({ world, builder, dayStart }: BuilderDay): string | null {
  const clients = world.clientsOf(builder);
  if (!clients) return null;
  // Rows are written as they come and only their order is sorted: a day of 10,000 wallets is ~60,000 fills.
  const times: number[] = [];
  const rows: string[] = [];
  for (const userIndex of clients) {
    const wallet = world.wallet(userIndex);
    for (const fill of walletBuilderFills({ prices: world.prices, wallet, builder, from: dayStart, to: dayStart + DAY_MS - 1 })) {
      times.push(fill.time);
      rows.push(row(world, userIndex, fill));
    }
  }
  if (rows.length === 0) return null;
  // Each wallet's fills come oldest first and wallets in index order, so ties on time keep (user, tid) order.
  const order = rows.map((_, i) => i).sort((a, b) => times[a] - times[b] || a - b);
  return `${BUILDER_FILLS_HEADER}\n${order.map((i) => rows[i]).join('\n')}\n`;
}

/** The `{YYYYMMDD}.csv.lz4` body: the day's CSV in one LZ4 frame, or null when there is no file. */
export function builderFillsFile(day: BuilderDay): Buffer | null {
  const csv = builderFillsCsv(day);
  return csv === null ? null : compressFrameSync(Buffer.from(csv));
}
