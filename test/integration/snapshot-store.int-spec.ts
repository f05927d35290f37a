import { DataSource } from 'typeorm';
import { SnapshotStore } from '../../src/modules/hl/snapshot/snapshot-store';
import { openTestDb } from '../support/test-db';

async function loadLeaderboardRow(db: DataSource, snapshotId: number, address: string) {
  const cols = [
    'rank_pnl_day',
    'rank_pnl_week',
    'rank_pnl_month',
    'rank_pnl_all_time',
    'rank_roi_day',
    'rank_roi_week',
    'rank_roi_month',
    'rank_roi_all_time',
    'rank_vlm_day',
    'rank_vlm_week',
    'rank_vlm_month',
    'rank_vlm_all_time',
    'rank_account_value',
  ];
  await db.query(
    `INSERT INTO hl_leaderboard_s${snapshotId} (snapshot_id, address, account_value, pnl_day, roi_day, vlm_day, pnl_week, roi_week, vlm_week,
       pnl_month, roi_month, vlm_month, pnl_all_time, roi_all_time, vlm_all_time, ${cols.join(', ')})
     VALUES ($1, $2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, ${cols.map(() => 1).join(', ')})`,
    [snapshotId, address],
  );
}

describe(SnapshotStore.name, () => {
  let db: DataSource;
  let sut: SnapshotStore;

  beforeAll(async () => {
    db = await openTestDb();
    sut = new SnapshotStore(db);
  });
  afterAll(() => db.destroy());

  it('makes a snapshot visible only when it is published, and all of its tables at once', async () => {
    const before = await sut.current('leaderboard');
    const id = await sut.begin('leaderboard', new Date('2026-11-21T12:00:00Z'));
    await loadLeaderboardRow(db, id, '0x' + 'a'.repeat(40));
    expect((await sut.current('leaderboard'))?.id).toBe(before?.id);
    const visible = await db.query(`SELECT count(*)::int AS n FROM hl_leaderboard WHERE snapshot_id = $1`, [id]);
    expect(visible[0].n).toBe(0);

    const feedsReadAt = { leaderboard: new Date('2026-11-21T11:59:58Z') };
    await sut.publish({ kind: 'leaderboard', snapshotId: id, rows: 1, feedsReadAt });
    const current = await sut.current('leaderboard');
    expect(current).toEqual({ id, kind: 'leaderboard', snapshotTime: new Date('2026-11-21T12:00:00Z'), rows: 1, feedsReadAt });
    const rows = await db.query(`SELECT address FROM hl_leaderboard WHERE snapshot_id = $1`, [id]);
    expect(rows).toEqual([{ address: '0x' + 'a'.repeat(40) }]);
    const indexes = await db.query(`SELECT count(*)::int AS n FROM pg_indexes WHERE tablename = $1`, [`hl_leaderboard_s${id}`]);
    expect(indexes[0].n).toBe(14);
  });

  it('leaves the previous snapshot current when a build is abandoned, and prunes beyond the retention', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) {
      const id = await sut.begin('leaderboard', new Date());
      await loadLeaderboardRow(db, id, '0x' + String(i).repeat(40));
      await sut.publish({ kind: 'leaderboard', snapshotId: id, rows: 1 });
      ids.push(id);
    }
    const abandoned = await sut.begin('leaderboard', new Date());
    expect((await sut.current('leaderboard'))?.id).toBe(ids[2]);
    await db.query(`UPDATE hl_snapshots SET started_at = now() - interval '1 hour' WHERE id = $1`, [abandoned]);

    await sut.prune('leaderboard', 2);
    const left = await db.query(`SELECT id FROM hl_snapshots WHERE kind = 'leaderboard' ORDER BY id`);
    expect(left.map((r: { id: string }) => Number(r.id))).toEqual([ids[1], ids[2]]);
    const tables = await db.query(`SELECT to_regclass($1) AS t`, [`hl_leaderboard_s${abandoned}`]);
    expect(tables[0].t).toBeNull();
    expect((await sut.current('leaderboard'))?.id).toBe(ids[2]);
  });
});
