import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppConfig } from '../../config/app.config';
import { JobOutcome } from '../job.types';
import { pruneInBatches } from '../prune-in-batches';

/**
 * `housekeeping.notifications`: deletes notifications read more than NOTIFICATIONS_RETENTION_DAYS ago (by
 * the time they were read). Unread ones stay whatever their age: an alert nobody saw is not noise yet.
 */
@Injectable()
export class ReadNotificationsPruneJob {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly config: ConfigService<AppConfig, true>,
  ) {}

  async run(signal?: AbortSignal): Promise<JobOutcome> {
    const olderThanDays = this.config.get('notifications.retentionDays', { infer: true });
    const rows = await pruneInBatches((limit) => this.prune(olderThanDays, limit), signal);
    return { rows };
  }

  private async prune(olderThanDays: number, limit: number): Promise<number> {
    const [{ n }]: Array<{ n: number }> = await this.db.query(
      `WITH old AS (
         SELECT id FROM notifications WHERE is_read AND read_at < now() - make_interval(days => $1) LIMIT $2
       ), gone AS (
         DELETE FROM notifications n USING old WHERE n.id = old.id RETURNING 1
       )
       SELECT count(*)::int AS n FROM gone`,
      [olderThanDays, limit],
    );
    return n;
  }
}
