/** What each snapshot kind materialises: one LIST partition per table per snapshot id. */
export const SNAPSHOT_KINDS = {
  /** Holders, per-coin summaries, smart traders and trending, built from the polled states and marks. */
  market: ['hl_perp_holders', 'hl_spot_holders', 'hl_smart_traders', 'hl_trending'],
  /** The leaderboard document, ranked by every sort value. */
  leaderboard: ['hl_leaderboard'],
} as const;

export type SnapshotKind = keyof typeof SNAPSHOT_KINDS;
export type SnapshotTable = (typeof SNAPSHOT_KINDS)[SnapshotKind][number];

/** Partition names are built from a table of this list and an integer id only, never from input. */
export function partitionName(table: SnapshotTable, snapshotId: number): string {
  if (!Number.isSafeInteger(snapshotId) || snapshotId <= 0) throw new Error(`bad snapshot id ${snapshotId}`);
  return `${table}_s${snapshotId}`;
}
