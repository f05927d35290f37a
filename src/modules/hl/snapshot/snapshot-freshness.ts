/**
 * How old the data of a snapshot's answers is (docs/decisions.md, "Exchange-chain snapshot jobs"). A snapshot
 * is built from several upstream feeds, each read by its own job on its own cadence; every job that got a
 * fresh answer from the exchange stamps its feed with the time that run began reading (hl_feed_reads), and
 * a build copies the stamps it started from into its hl_snapshots row. A run that read nothing (the
 * exchange down, every read failed, no address due) stamps nothing, so a snapshot republished from the same
 * reads carries the same times.
 */
export const HL_FEEDS = ['positions', 'marks', 'trades', 'fills', 'leaderboard'] as const;

export type HlFeed = (typeof HL_FEEDS)[number];

/** Feed -> the start of its newest run with a fresh upstream read; a feed never read is absent. */
export type FeedReadTimes = Partial<Record<HlFeed, Date>>;

/** The feeds each answer is computed from. */
export const ANSWER_FEEDS = {
  /** Positions and spot balances (one polling round reads both) valued at the snapshot's marks. */
  holders: ['positions', 'marks'],
  /** Fills, with the current position (HIP-3) or outcome tokens (HIP-4) valued at the mark. */
  smartTraders: ['fills', 'positions', 'marks'],
  /** Trades and the sampled mids; the leaderboard only picks who counts as smart, so it is left out. */
  trending: ['trades', 'marks'],
  leaderboard: ['leaderboard'],
} as const satisfies Record<string, readonly HlFeed[]>;

export type SnapshotAnswer = keyof typeof ANSWER_FEEDS;

/**
 * When the data of `answer` was read from the exchange: the oldest of its feeds' stamps, since an answer is
 * as stale as its stalest input. A feed never read (a fresh install, its job switched off from the start)
 * adds nothing to the answer and is left out; a snapshot none of whose feeds was ever read (or one built
 * before stamps were kept) answers its own build time.
 */
export function answerTime({ feedsReadAt, snapshotTime }: { feedsReadAt: FeedReadTimes; snapshotTime: Date }, answer: SnapshotAnswer): Date {
  let oldest: Date | undefined;
  for (const feed of ANSWER_FEEDS[answer]) {
    const readAt = feedsReadAt[feed];
    if (readAt !== undefined && (oldest === undefined || readAt < oldest)) oldest = readAt;
  }
  return oldest ?? snapshotTime;
}

/** hl_snapshots.feeds_read_at (jsonb of ISO strings) -> FeedReadTimes; unknown keys are ignored. */
export function parseFeedReadTimes(json: Record<string, string> | null): FeedReadTimes {
  const times: FeedReadTimes = {};
  for (const feed of HL_FEEDS) {
    const value = json?.[feed];
    if (value !== undefined) times[feed] = new Date(value);
  }
  return times;
}
