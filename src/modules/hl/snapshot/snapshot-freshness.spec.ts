import { answerTime, parseFeedReadTimes } from './snapshot-freshness';

const BUILT = new Date('2026-11-21T12:00:30.000Z');
const at = (seconds: number) => new Date(Date.parse('2026-11-21T12:00:00.000Z') + seconds * 1000);

describe(answerTime.name, () => {
  it('is the oldest read among the feeds the answer is computed from', () => {
    const snapshot = { snapshotTime: BUILT, feedsReadAt: { positions: at(10), marks: at(25), fills: at(3), trades: at(20) } };
    expect(answerTime(snapshot, 'holders')).toEqual(at(10));
    expect(answerTime(snapshot, 'smartTraders')).toEqual(at(3));
    expect(answerTime(snapshot, 'trending')).toEqual(at(20));
  });

  it('ignores the feeds of other answers, however stale', () => {
    const snapshot = { snapshotTime: BUILT, feedsReadAt: { positions: at(10), marks: at(12), trades: at(-3600), leaderboard: at(-7200) } };
    expect(answerTime(snapshot, 'holders')).toEqual(at(10));
  });

  it('leaves out a feed never read', () => {
    expect(answerTime({ snapshotTime: BUILT, feedsReadAt: { positions: at(10), marks: at(12) } }, 'smartTraders')).toEqual(at(10));
  });

  it('answers the build time of a snapshot none of whose feeds was ever read', () => {
    expect(answerTime({ snapshotTime: BUILT, feedsReadAt: { trades: at(1) } }, 'holders')).toEqual(BUILT);
    expect(answerTime({ snapshotTime: BUILT, feedsReadAt: {} }, 'leaderboard')).toEqual(BUILT);
  });
});

describe(parseFeedReadTimes.name, () => {
  it('reads the stored ISO times of the known feeds', () => {
    expect(parseFeedReadTimes({ positions: '2026-11-21T12:00:10.000Z', other: '2026-11-21T12:00:00.000Z' })).toEqual({ positions: at(10) });
    expect(parseFeedReadTimes(null)).toEqual({});
  });
});
