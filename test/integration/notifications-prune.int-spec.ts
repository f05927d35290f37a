import { ConfigService } from '@nestjs/config';
import { DataSource } from 'typeorm';
import { AppConfig, loadAppConfig } from '../../src/config/app.config';
import { ReadNotificationsPruneJob } from '../../src/jobs/housekeeping/read-notifications-prune.job';
import { openTestDbInOwnSchema } from '../support/test-db';

/** housekeeping.notifications on real PostgreSQL, in a schema of its own (it deletes rows). */
describe(ReadNotificationsPruneJob.name, () => {
  let drop: () => Promise<void>;
  let db: DataSource;

  beforeAll(async () => {
    ({ db, drop } = await openTestDbInOwnSchema('notifications_prune', 2));
  });
  afterAll(() => drop());

  it('deletes notifications read longer ago than NOTIFICATIONS_RETENTION_DAYS and keeps unread ones of any age', async () => {
    const [{ id }] = await db.query(`INSERT INTO accounts (wallet_address, tier) VALUES ($1, 'free') RETURNING id`, ['0x' + 'f'.repeat(40)]);
    const insert = (message: string, createdDaysAgo: number, readDaysAgo: number | null) =>
      db.query(
        `INSERT INTO notifications (account_id, type, coin, message, created_at, is_read, read_at)
         VALUES ($1, 'price_move', 'BTC', $2, now() - make_interval(days => $3), $4, now() - make_interval(days => $5))`,
        [id, message, createdDaysAgo, readDaysAgo !== null, readDaysAgo ?? 0],
      );
    await insert('read 40 days ago', 45, 40);
    await insert('read 20 days ago', 45, 20);
    await insert('unread, 400 days old', 400, null);
    await db.query(`UPDATE notifications SET read_at = NULL WHERE NOT is_read`);
    const sut = new ReadNotificationsPruneJob(db, new ConfigService<AppConfig, true>(loadAppConfig({ NOTIFICATIONS_RETENTION_DAYS: '30' })));

    expect(await sut.run()).toEqual({ rows: 1 });
    const left: Array<{ message: string }> = await db.query(`SELECT message FROM notifications ORDER BY id`);
    expect(left.map((row) => row.message)).toEqual(['read 20 days ago', 'unread, 400 days old']);
    expect(await sut.run()).toEqual({ rows: 0 });
  });

  it('keeps read notifications for 90 days by default', () => {
    expect(loadAppConfig({}).notifications.retentionDays).toBe(90);
    expect(() => loadAppConfig({ NOTIFICATIONS_RETENTION_DAYS: '0' })).toThrow(/NOTIFICATIONS_RETENTION_DAYS/);
  });
});
